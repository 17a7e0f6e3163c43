#pragma once
// The roofline's price of serving as a closed form in the model size, for the fast path of the
// lifetime problems (problems/lifecycle/accelerators/roofline_newton.hpp). N scales the roofline as
// architecture_at does: weights w N bytes (w = bytes per active parameter, total/active
// included), 2 N FLOPs per token, the KV cache per sequence fixed. With a, m and c the
// attention FLOPs, the bytes read and the bytes cached per sequence at the context, F and W
// the replica's FLOP/s and bytes/s and H its HBM, one decode step of B sequences takes
// max(B (2N + a) / F, (w N + B m) / W). The best batch is the smallest at which a bound binds
// (problems/serving/serving_plan.hpp), and since the memory time per token (w N / B + m) / W
// falls with B, the replica-seconds of one output token are the largest of
//   compute-bound   (2N + a) / F                          (balance, or batch 1 compute-bound)
//   HBM full        m / W + (c / W) N / (H / w - N)         (B = (H - w N) / c)
//   latency target  m / W + (m / W) N / (L W / w - N)       (B = (L W - w N) / m)
// (with a given batch: the first, and (w N / B + m) / W). An input token costs the larger of
// its compute and memory times, both affine in N: the memory its prompt's traffic, plus the
// weight read over the tokens of a given pass (inference.prefill_tokens_per_pass; a pass filled
// up to the ridge hides it under the compute). Each is a term
// p0 + p1 N + p2 N / (q - N), increasing and convex in ln N, so the cost per token is piecewise
// smooth in ln N with one binding term per piece, and convex.

#include <array>
#include <limits>

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt {

struct LifetimeInputs;
struct Roofline;

// Replica-seconds per token: p0 + p1 N + p2 N / (q - N); q = +infinity: no pole (p2 = 0).
struct SecondsTerm {
  double p0 = 0.0;
  double p1 = 0.0;
  double p2 = 0.0;
  double q = std::numeric_limits<double>::infinity();
};

// The value of a term at N and its first two derivatives in ln N.
struct TermValue {
  double value;
  double d1;
  double d2;
};
// Inline: the fast path evaluates terms ~100 times a solve, often for the value alone.
inline TermValue evaluate(const SecondsTerm& t, double n) {
  TermValue v{t.p0 + t.p1 * n, t.p1 * n, t.p1 * n};
  if (t.p2 != 0.0) {
    const double inverse_gap = 1.0 / (t.q - n);
    const double ratio = n * inverse_gap;  // N / (q - N): its slope in ln N is q N / (q - N)^2
    v.value += t.p2 * ratio;
    v.d1 += t.p2 * ratio * t.q * inverse_gap;
    v.d2 += t.p2 * ratio * t.q * (t.q + n) * inverse_gap * inverse_gap;
  }
  return v;
}

// Where two terms are equal, a N in [lo_params, hi_params] at which a - b changes sign, in
// closed form: with each term's pole cleared (q - N > 0 below it), a - b is a polynomial in N of
// degree at most 3 (at most 2 for the roofline's terms, which have p1 = 0 or p2 = 0); NaN when
// it has no root there (or more than one: the caller then searches). To rounding: the caller
// polishes it.
double meeting_point(const SecondsTerm& a, const SecondsTerm& b, double lo_params,
                     double hi_params);

// The largest of up to three terms.
struct MaxOfTerms {
  std::array<SecondsTerm, 3> terms{};
  int count = 0;
  // Index of the largest term at N (the first of equal ones).
  int largest(double params) const;
  // The largest term at N (the first of equal ones) with its derivatives; `index` receives it.
  TermValue largest_value(double params, int& index) const;
};

// The seconds of one input and one output token at one context, and what bounds the batch.
struct ContextPricing {
  MaxOfTerms output;  // 0: compute-bound, 1: HBM full (or the given batch's memory), 2: latency
  MaxOfTerms input;   // 0: prefill compute-bound, 1: memory-bound
  // The batch of the plan is min(B_balance, B_hbm, B_latency); serving_plan.cpp searches up to
  // 1e15 sequences, so the fast path checks that the plan's batch is below (batch_at).
  double flop_per_second = 0.0, bytes_per_second = 0.0, hbm_bytes = 0.0;
  double weight_bytes_per_param = 0.0, weight_read_bytes_per_param = 0.0;
  double attention_flops = 0.0, read_bytes = 0.0, cached_bytes = 0.0;
  double latency_seconds = std::numeric_limits<double>::infinity();
  double given_batch = 0.0;  // 0: the best batch
  // The plan's batch at N (+infinity when no bound binds).
  double batch_at(double params) const;
  // Whether the replica serves N at all, as the serving plan decides it: the weights and one
  // sequence fit its HBM, one sequence meets the latency target, and the batch is below the
  // plan's search limit.
  bool serves(double params) const;
};

struct RooflinePricing {
  ContextPricing inference;  // at the serving context
  ContextPricing rl;         // at the RL context
  double input_tokens = 0.0, output_tokens = 0.0;
  // The factor those tokens carry: a fleet sized for the peak pays peak_to_mean times the busy
  // chip-hours of the mean demand (1 when priced elastically).
  double fleet_peak = 1.0;
  double chip_hours_per_second = 0.0;  // chips of the serving replica / 3600
  // Chips of the rollouts' replica / 3600: the serving replica's, except where a setup gives
  // serving a size of its own (the chosen replica's sizes, problems/question/
  // question_replica_choice.hpp) and RL keeps its own choice.
  double rl_chip_hours_per_second = 0.0;
  double usd_per_chip_hour = 0.0;  // serving price
  // Per rollout token: extra forward passes (input-token costs) and the trained part, linear
  // in N: hours per parameter and its price.
  double rl_extra_passes = 0.0;
  double rl_trained_hours_per_param = 0.0;
  double rl_trained_usd_per_hour = 0.0;
  // FLOPs (a problem in FLOPs is linear in N whatever the pricing): as LifetimeCostModel's.
  double inference_flops_per_param = 0.0;
  double rl_flops_per_param_token = 0.0;
};

// The closed form of the roofline-priced model built from `inputs` (pricing = roofline, an
// architecture given); lifetime_cost_model stores it in LifetimeCostModel::roofline.
// `per_param`: the roofline of the model scaled to one active parameter (make_roofline of
// architecture_at(inputs.architecture, 1)), which the caller has built already.
RooflinePricing roofline_pricing(const LifetimeInputs& inputs, const Roofline& per_param,
                                 double train_usd_per_hour, double rl_train_hours_per_flop);

// The terms chosen in each of the four maxima (inference output, inference input, RL output,
// RL input), and the costs of RL and inference in `unit` with their first two derivatives in
// ln N, the RL on `rl_tokens`, on the piece given.
using PieceChoice = std::array<int, 4>;
PieceChoice piece_at(const RooflinePricing& pricing, double params);
struct ServingCost {
  double value = 0.0;
  double d1 = 0.0;
  double d2 = 0.0;
};
ServingCost serving_cost(const RooflinePricing& pricing, CostUnit unit, double rl_tokens,
                         double params, const PieceChoice& piece);
// The same on the piece at N: each maximum takes its largest term, except those not
// `relevant`, which take their first (so that a maximum with no weight never makes a corner);
// `piece` receives the terms taken. One pass: what piece_at then serving_cost would give.
ServingCost serving_cost_at(const RooflinePricing& pricing, CostUnit unit, double rl_tokens,
                            double params, const std::array<bool, 4>& relevant, PieceChoice& piece);

// The lifetime cost of (N, D) as LifetimeCostModel::cost gives it, from the closed form.
LifetimeCost roofline_lifetime_cost(const LifetimeCostModel& model, double params,
                                    double pretrain_tokens);

}  // namespace scaleopt
