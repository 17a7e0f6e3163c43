#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"

namespace scaleopt {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The terms of one context from the roofline of a model of one active parameter (the roofline
// is linear in N: roofline.cpp, with the counts scaled as architecture_at scales them).
ContextPricing context_pricing(const LifetimeInputs& inputs, const Roofline& r, double context) {
  ContextPricing p;
  const double F = r.flop_per_second, W = r.bytes_per_second;
  p.flop_per_second = F;
  p.bytes_per_second = W;
  p.hbm_bytes = r.hbm_bytes;
  p.weight_bytes_per_param = r.weight_bytes;
  p.weight_read_bytes_per_param = r.weight_read_bytes;
  p.attention_flops = decode_attention_flops_per_token(r, context);
  p.read_bytes = r.embedding_row_bytes + kv_bytes_read_per_sequence(r, context);
  p.cached_bytes = cached_bytes_per_sequence(r, context);
  // Decode (the model's 2 N per token: decode_params is N for a scaled model).
  p.output.terms[0] = {p.attention_flops / F, 2.0 * r.decode_params / F, 0.0, kInfinity};
  if (const auto batch = inputs.serving.batch) {
    p.given_batch = *batch;
    p.output.terms[1] = {p.read_bytes / W, r.weight_read_bytes / (*batch * W), 0.0, kInfinity};
    p.output.count = 2;
  } else {
    p.output.terms[1] = {p.read_bytes / W, 0.0, 0.0, kInfinity};
    if (p.cached_bytes > 0.0) {
      // (w N / B + m) / W at B = (H - w N) / c; w N / B = c N / (H / w - N).
      p.output.terms[1].p2 = p.cached_bytes * r.weight_read_bytes / (r.weight_bytes * W);
      p.output.terms[1].q = r.hbm_bytes / r.weight_bytes;
    }
    p.output.count = 2;
    if (const auto latency = inputs.serving.latency_per_token_seconds) {
      p.latency_seconds = *latency;
      // B = (L W - w N) / m: (w N / B + m) / W = m L / (L W - w N).
      if (p.read_bytes > 0.0) {
        p.output.terms[2] = {p.read_bytes / W, 0.0, p.read_bytes / W,
                             *latency * W / r.weight_read_bytes};
        p.output.count = 3;
      }
    }
  }
  // Prefill per input token (prefill_token): FLOPs 2 N + the attention's per token; memory the
  // traffic of the prompt's cache (and, with chunks, of the chunks before each) plus the
  // weight read over the tokens sharing a pass. A pass filled up to the ridge hides the weight
  // read under its compute, so then the memory term is the traffic alone: the larger of the
  // two is the prefill's price either way (with a ridge the compute, without one the traffic).
  const PrefillToken token = prefill_token(r, context);
  const double attention = token.flops - 2.0 * r.prefill_params - 2.0 * r.head_params;
  p.input.terms[0] = {attention / F, 2.0 * r.prefill_params / F, 0.0, kInfinity};
  const double weight_read = r.prefill_tokens_per_pass > 0.0 ? token.weight_memory_seconds : 0.0;
  p.input.terms[1] = {token.traffic_memory_seconds, weight_read, 0.0, kInfinity};
  p.input.count = 2;
  return p;
}

TermValue max_value(const MaxOfTerms& terms, int choice, double params) {
  return evaluate(terms.terms[static_cast<std::size_t>(choice)], params);
}

}  // namespace

namespace {

// Coefficients of a polynomial in N, lowest degree first.
using Polynomial = std::array<double, 4>;

Polynomial times(const Polynomial& x, const Polynomial& y) {
  Polynomial z{};
  for (std::size_t i = 0; i < z.size(); ++i) {
    for (std::size_t j = 0; i + j < z.size(); ++j) z[i + j] += x[i] * y[j];
  }
  return z;
}

// The pole's factor (q - N), or 1 without a pole.
Polynomial denominator(const SecondsTerm& t) {
  return t.p2 != 0.0 ? Polynomial{t.q, -1.0, 0.0, 0.0} : Polynomial{1.0, 0.0, 0.0, 0.0};
}

// The term times its own denominator: (p0 + p1 N)(q - N) + p2 N, or p0 + p1 N.
Polynomial numerator(const SecondsTerm& t) {
  Polynomial n = times({t.p0, t.p1, 0.0, 0.0}, denominator(t));
  if (t.p2 != 0.0) n[1] += t.p2;
  return n;
}

}  // namespace

double meeting_point(const SecondsTerm& a, const SecondsTerm& b, double lo, double hi) {
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  // a - b = (num_a den_b - num_b den_a) / (den_a den_b), the denominators positive.
  const Polynomial f = [&] {
    Polynomial x = times(numerator(a), denominator(b)), y = times(numerator(b), denominator(a));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] -= y[i];
    return x;
  }();
  if (f[3] != 0.0) return kNone;
  double roots[2];
  int count = 0;
  if (f[2] != 0.0) {
    const double discriminant = f[1] * f[1] - 4.0 * f[2] * f[0];
    if (!(discriminant >= 0.0)) return kNone;
    // The root of the larger magnitude first, the other from the product of the roots: no
    // cancellation (Numerical Recipes, section 5.6).
    const double q = -0.5 * (f[1] + std::copysign(std::sqrt(discriminant), f[1]));
    roots[count++] = q / f[2];
    if (q != 0.0) roots[count++] = f[0] / q;
  } else if (f[1] != 0.0) {
    roots[count++] = -f[0] / f[1];
  }
  double found = kNone;
  int inside = 0;
  for (int i = 0; i < count; ++i) {
    if (roots[i] >= lo && roots[i] <= hi) {
      found = roots[i];
      ++inside;
    }
  }
  return inside == 1 ? found : kNone;
}

TermValue MaxOfTerms::largest_value(double params, int& index) const {
  index = 0;
  TermValue best = evaluate(terms[0], params);
  for (int i = 1; i < count; ++i) {
    const TermValue v = evaluate(terms[static_cast<std::size_t>(i)], params);
    if (v.value > best.value) {
      best = v;
      index = i;
    }
  }
  return best;
}

int MaxOfTerms::largest(double params) const {
  int index = 0;
  largest_value(params, index);
  return index;
}

double ContextPricing::batch_at(double n) const {
  if (given_batch > 0.0) return given_batch;
  const double F = flop_per_second, W = bytes_per_second;
  // Balance: B (2N + a) / F = (w N + B m) / W; at or below batch 1 the plan takes 1.
  const double per_sequence = (2.0 * n + attention_flops) / F - read_bytes / W;
  double batch =
      per_sequence > 0.0 ? weight_read_bytes_per_param * n / W / per_sequence : kInfinity;
  if (cached_bytes > 0.0) {
    batch = std::min(batch, (hbm_bytes - weight_bytes_per_param * n) / cached_bytes);
  }
  if (std::isfinite(latency_seconds) && read_bytes > 0.0) {
    batch = std::min(batch, (latency_seconds * W - weight_read_bytes_per_param * n) / read_bytes);
  }
  return std::max(batch, 1.0);
}

bool ContextPricing::serves(double n) const {
  const double W = bytes_per_second;
  if (cached_bytes > 0.0 && hbm_bytes - weight_bytes_per_param * n < cached_bytes) return false;
  if (!(weight_bytes_per_param * n <= hbm_bytes)) return false;
  if (std::isfinite(latency_seconds) &&
      (weight_read_bytes_per_param * n + read_bytes > latency_seconds * W ||
       2.0 * n + attention_flops > latency_seconds * flop_per_second)) {
    return false;
  }
  return batch_at(n) <= kMaxServingBatch;
}

RooflinePricing roofline_pricing(const LifetimeInputs& inputs, const Roofline& unit,
                                 double train_usd_per_hour, double rl_train_hours_per_flop) {
  RooflinePricing p;
  p.inference = context_pricing(inputs, unit, inputs.serving.context_tokens);
  p.rl = inputs.rl.context_tokens ? context_pricing(inputs, unit, *inputs.rl.context_tokens)
                                  : p.inference;
  // A fleet sized for the peak pays peak_to_mean times the busy chip-hours of the mean demand
  // (problems/serving/fleet_plan.hpp; its floor of one replica is not in this form).
  p.fleet_peak = inputs.serving.priced_elastically(inputs.demand.duration_seconds.has_value())
                     ? 1.0
                     : inputs.serving.peak_to_mean;
  p.input_tokens = p.fleet_peak * inputs.demand.input_tokens();
  p.output_tokens = p.fleet_peak * inputs.demand.output_tokens();
  p.chip_hours_per_second = inputs.serving.chips / kSecondsPerHour;
  p.rl_chip_hours_per_second = p.chip_hours_per_second;
  p.usd_per_chip_hour = inputs.serving.price_per_chip_hour("inference");
  p.rl_extra_passes = inputs.rl.extra_forward_passes;
  p.rl_trained_hours_per_param = 6.0 * inputs.rl.trained_fraction * rl_train_hours_per_flop;
  p.rl_trained_usd_per_hour = train_usd_per_hour;
  p.inference_flops_per_param =
      2.0 * (inputs.demand.input_tokens() + inputs.demand.output_tokens());
  p.rl_flops_per_param_token =
      2.0 + 6.0 * inputs.rl.trained_fraction + 2.0 * inputs.rl.extra_forward_passes;
  return p;
}

PieceChoice piece_at(const RooflinePricing& p, double params) {
  return {p.inference.output.largest(params), p.inference.input.largest(params),
          p.rl.output.largest(params), p.rl.input.largest(params)};
}

namespace {

// The terms taken in each maximum, at N.
struct PieceValues {
  TermValue out, in, rl_out, rl_in;
};

// Seconds of the demand and of the rollouts' generation and extra passes, in `unit`.
ServingCost cost_of(const RooflinePricing& p, CostUnit unit, double rl_tokens, double n,
                    const PieceValues& v) {
  const double price = unit == CostUnit::usd ? p.usd_per_chip_hour : 1.0;
  const double scale = p.chip_hours_per_second * price;
  ServingCost cost{(p.output_tokens * v.out.value + p.input_tokens * v.in.value) * scale,
                   (p.output_tokens * v.out.d1 + p.input_tokens * v.in.d1) * scale,
                   (p.output_tokens * v.out.d2 + p.input_tokens * v.in.d2) * scale};
  if (rl_tokens > 0.0) {
    const double e = p.rl_extra_passes;
    const double rl_scale = rl_tokens * p.rl_chip_hours_per_second * price;
    const double trained_price = unit == CostUnit::usd ? p.rl_trained_usd_per_hour : 1.0;
    const double linear = rl_tokens * p.rl_trained_hours_per_param * n * trained_price;
    cost.value += (v.rl_out.value + e * v.rl_in.value) * rl_scale + linear;
    cost.d1 += (v.rl_out.d1 + e * v.rl_in.d1) * rl_scale + linear;
    cost.d2 += (v.rl_out.d2 + e * v.rl_in.d2) * rl_scale + linear;
  }
  return cost;
}

ServingCost flops_cost(const RooflinePricing& p, double rl_tokens, double n) {
  const double flops = (p.inference_flops_per_param + p.rl_flops_per_param_token * rl_tokens) * n;
  return {flops, flops, flops};
}

}  // namespace

ServingCost serving_cost(const RooflinePricing& p, CostUnit unit, double rl_tokens, double n,
                         const PieceChoice& piece) {
  if (unit == CostUnit::flops) return flops_cost(p, rl_tokens, n);
  PieceValues v{max_value(p.inference.output, piece[0], n),
                max_value(p.inference.input, piece[1], n),
                {},
                {}};
  if (rl_tokens > 0.0) {
    v.rl_out = max_value(p.rl.output, piece[2], n);
    v.rl_in = max_value(p.rl.input, piece[3], n);
  }
  return cost_of(p, unit, rl_tokens, n, v);
}

ServingCost serving_cost_at(const RooflinePricing& p, CostUnit unit, double rl_tokens, double n,
                            const std::array<bool, 4>& relevant, PieceChoice& piece) {
  auto take = [&](const MaxOfTerms& terms, std::size_t g) {
    if (relevant[g]) return terms.largest_value(n, piece[g]);
    piece[g] = 0;
    return max_value(terms, 0, n);
  };
  piece = {0, 0, 0, 0};
  if (unit == CostUnit::flops) return flops_cost(p, rl_tokens, n);
  PieceValues v{take(p.inference.output, 0), take(p.inference.input, 1), {}, {}};
  if (rl_tokens > 0.0) {
    v.rl_out = take(p.rl.output, 2);
    v.rl_in = take(p.rl.input, 3);
  }
  return cost_of(p, unit, rl_tokens, n, v);
}

LifetimeCost roofline_lifetime_cost(const LifetimeCostModel& model, double params,
                                    double pretrain_tokens) {
  const RooflinePricing& p = *model.closed_form();
  LifetimeCost cost;
  cost.pretrain = model.pretraining(params, pretrain_tokens);
  const double to_hours = p.chip_hours_per_second, price = p.usd_per_chip_hour;
  const PieceChoice piece = piece_at(p, params);
  const double out = max_value(p.inference.output, piece[0], params).value * to_hours;
  const double in = max_value(p.inference.input, piece[1], params).value * to_hours;
  const double hours = in * p.input_tokens + out * p.output_tokens;
  cost.inference = {model.inference_flops_per_param * params, hours, hours * price};
  if (model.rl_tokens > 0.0) {
    const double rl_to_hours = p.rl_chip_hours_per_second;
    const double rl_out = max_value(p.rl.output, piece[2], params).value * rl_to_hours;
    const double rl_in = max_value(p.rl.input, piece[3], params).value * rl_to_hours;
    const double trained = p.rl_trained_hours_per_param * params;
    const double t = model.rl_tokens;
    cost.rl = {
        model.rl_flops_per_param_token * params * t,
        (rl_out + trained + p.rl_extra_passes * rl_in) * t,
        (rl_out * price + trained * p.rl_trained_usd_per_hour + p.rl_extra_passes * rl_in * price) *
            t};
  }
  return cost;
}

}  // namespace scaleopt
