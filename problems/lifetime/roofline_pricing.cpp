#include "scaleopt/problems/lifetime/roofline_pricing.hpp"

#include <algorithm>
#include <cmath>

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
  // Prefill of one prompt of max(S, 1) tokens, per token (prefill_token): FLOPs 2 N + the
  // attention's per token, bytes w N + 2 c(S) (+ embedding rows) over the prompt.
  const double tokens = std::max(context, 1.0);
  const PrefillPass pass = prefill_pass(r, 1.0, tokens);
  const double attention = pass.flops / tokens - 2.0 * r.prefill_params - 2.0 * r.head_params;
  p.input.terms[0] = {attention / F, 2.0 * r.prefill_params / F, 0.0, kInfinity};
  p.input.terms[1] = {(pass.bytes - r.weight_read_bytes) / (W * tokens),
                      r.weight_read_bytes / (W * tokens), 0.0, kInfinity};
  p.input.count = 2;
  return p;
}

TermValue max_value(const MaxOfTerms& terms, int choice, double params) {
  return evaluate(terms.terms[static_cast<std::size_t>(choice)], params);
}

}  // namespace

TermValue evaluate(const SecondsTerm& t, double n) {
  TermValue v{t.p0 + t.p1 * n, t.p1 * n, t.p1 * n};
  if (t.p2 != 0.0) {
    const double gap = t.q - n;
    const double ratio = n / gap;  // N / (q - N): its slope in ln N is q N / (q - N)^2
    v.value += t.p2 * ratio;
    v.d1 += t.p2 * ratio * t.q / gap;
    v.d2 += t.p2 * ratio * t.q * (t.q + n) / (gap * gap);
  }
  return v;
}

int MaxOfTerms::largest(double params) const {
  int best = 0;
  double value = evaluate(terms[0], params).value;
  for (int i = 1; i < count; ++i) {
    const double v = evaluate(terms[static_cast<std::size_t>(i)], params).value;
    if (v > value) {
      value = v;
      best = i;
    }
  }
  return best;
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

RooflinePricing roofline_pricing(const LifetimeInputs& inputs, double train_usd_per_hour,
                                 double rl_train_hours_per_flop) {
  RooflinePricing p;
  const Roofline unit =
      make_roofline(architecture_at(inputs.architecture, 1.0), inputs.serving, "inference");
  p.inference = context_pricing(inputs, unit, inputs.serving.context_tokens);
  p.rl = inputs.rl.context_tokens ? context_pricing(inputs, unit, *inputs.rl.context_tokens)
                                  : p.inference;
  p.input_tokens = inputs.demand.input_tokens();
  p.output_tokens = inputs.demand.output_tokens();
  p.chip_hours_per_second = inputs.serving.chips / kSecondsPerHour;
  p.usd_per_chip_hour = inputs.serving.price_per_chip_hour("inference");
  p.rl_extra_passes = inputs.rl.extra_forward_passes;
  p.rl_trained_hours_per_param = 6.0 * inputs.rl.trained_fraction * rl_train_hours_per_flop;
  p.rl_trained_usd_per_hour = train_usd_per_hour;
  p.inference_flops_per_param = 2.0 * (p.input_tokens + p.output_tokens);
  p.rl_flops_per_param_token =
      2.0 + 6.0 * inputs.rl.trained_fraction + 2.0 * inputs.rl.extra_forward_passes;
  return p;
}

PieceChoice piece_at(const RooflinePricing& p, double params) {
  return {p.inference.output.largest(params), p.inference.input.largest(params),
          p.rl.output.largest(params), p.rl.input.largest(params)};
}

ServingCost serving_cost(const RooflinePricing& p, CostUnit unit, double rl_tokens, double n,
                         const PieceChoice& piece) {
  if (unit == CostUnit::flops) {
    const double flops = (p.inference_flops_per_param + p.rl_flops_per_param_token * rl_tokens) * n;
    return {flops, flops, flops};
  }
  // Replica-seconds: of the demand, and of the rollouts' generation and extra passes.
  const TermValue out = max_value(p.inference.output, piece[0], n);
  const TermValue in = max_value(p.inference.input, piece[1], n);
  ServingCost seconds{p.output_tokens * out.value + p.input_tokens * in.value,
                      p.output_tokens * out.d1 + p.input_tokens * in.d1,
                      p.output_tokens * out.d2 + p.input_tokens * in.d2};
  double trained = 0.0;  // hours, linear in N
  if (rl_tokens > 0.0) {
    const TermValue rl_out = max_value(p.rl.output, piece[2], n);
    const TermValue rl_in = max_value(p.rl.input, piece[3], n);
    const double e = p.rl_extra_passes;
    seconds.value += rl_tokens * (rl_out.value + e * rl_in.value);
    seconds.d1 += rl_tokens * (rl_out.d1 + e * rl_in.d1);
    seconds.d2 += rl_tokens * (rl_out.d2 + e * rl_in.d2);
    trained = rl_tokens * p.rl_trained_hours_per_param * n;
  }
  const double to_hours = p.chip_hours_per_second;
  const double price = unit == CostUnit::usd ? p.usd_per_chip_hour : 1.0;
  const double trained_price = unit == CostUnit::usd ? p.rl_trained_usd_per_hour : 1.0;
  const double scale = to_hours * price, linear = trained * trained_price;
  return {seconds.value * scale + linear, seconds.d1 * scale + linear, seconds.d2 * scale + linear};
}

LifetimeCost roofline_lifetime_cost(const LifetimeCostModel& model, double params,
                                    double pretrain_tokens) {
  const RooflinePricing& p = *model.roofline;
  LifetimeCost cost;
  cost.pretrain = model.pretraining(params, pretrain_tokens);
  const double to_hours = p.chip_hours_per_second, price = p.usd_per_chip_hour;
  const PieceChoice piece = piece_at(p, params);
  const double out = max_value(p.inference.output, piece[0], params).value * to_hours;
  const double in = max_value(p.inference.input, piece[1], params).value * to_hours;
  const double hours = in * p.input_tokens + out * p.output_tokens;
  cost.inference = {model.inference_flops_per_param * params, hours, hours * price};
  if (model.rl_tokens > 0.0) {
    const double rl_out = max_value(p.rl.output, piece[2], params).value * to_hours;
    const double rl_in = max_value(p.rl.input, piece[3], params).value * to_hours;
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
