#include "scaleopt/costmodel/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

bool is_sparse(const Roofline& r) {
  return r.sparse_top_k > 0.0;
}

// Cached tokens a query attends to at context S.
double tokens_attended(const Roofline& r, double context_tokens) {
  return is_sparse(r) ? std::min(context_tokens, r.sparse_top_k) : context_tokens;
}

}  // namespace

Roofline make_roofline(const Architecture& architecture, const ServingSetup& setup,
                       std::string_view prefix) {
  setup.validate(prefix);
  Roofline r;
  r.chips = setup.chips;
  r.peak_flop_per_second = setup.chips * setup.chip.peak_flop_per_second(setup.precision);
  r.flop_per_second = r.peak_flop_per_second * setup.compute_efficiency;
  r.bytes_per_second = setup.chips * setup.chip.hbm_bytes_per_second * setup.bandwidth_efficiency;
  r.hbm_bytes = setup.chips * setup.chip.hbm_bytes;
  r.usd_per_chip_hour = setup.price_per_chip_hour(prefix);
  r.total_params = architecture.total_param_count();
  r.active_params = architecture.active_param_count();
  r.weight_bytes = r.total_params * setup.weight_bytes_per_param();
  if (!architecture.has_shape() && !architecture.kv_bytes_per_token) {
    throw field_error("architecture.kv_bytes_per_token",
                      "required to price serving by the roofline when the shape (layers, heads, "
                      "head_dim, ...) is not given: " +
                          architecture.name + " has only direct totals");
  }
  r.kv_bytes_per_token =
      architecture.kv_cache_bytes_per_token(bytes_per_element(setup.kv_precision));
  r.sparse_top_k = architecture.sparse_top_k;
  r.indexer_bytes_per_token = architecture.indexer_bytes_per_token();
  if (setup.attention_flops) {
    if (!architecture.has_shape()) {
      throw field_error(qualified_field(prefix, "attention_flops"),
                        "needs the model's shape (layers, heads, head_dim); " + architecture.name +
                            " has only direct totals");
    }
    r.decode_attention_flops_per_context_token =
        architecture.attention_flops_per_context_token(AttentionPass::decode);
    r.prefill_attention_flops_per_context_token =
        architecture.attention_flops_per_context_token(AttentionPass::prefill);
    r.indexer_flops_per_context_token = architecture.indexer_flops_per_context_token();
  }
  return r;
}

double cached_bytes_per_token(const Roofline& r) {
  return r.kv_bytes_per_token + (is_sparse(r) ? r.indexer_bytes_per_token : 0.0);
}

double attended_kv_bytes_per_sequence(const Roofline& r, double context_tokens) {
  return tokens_attended(r, context_tokens) * r.kv_bytes_per_token;
}

double indexer_bytes_per_sequence(const Roofline& r, double context_tokens) {
  return is_sparse(r) ? context_tokens * r.indexer_bytes_per_token : 0.0;
}

double kv_bytes_read_per_sequence(const Roofline& r, double context_tokens) {
  return attended_kv_bytes_per_sequence(r, context_tokens) +
         indexer_bytes_per_sequence(r, context_tokens);
}

double decode_flops_per_token(const Roofline& r, double context_tokens) {
  return 2.0 * r.active_params +
         r.decode_attention_flops_per_context_token * tokens_attended(r, context_tokens) +
         r.indexer_flops_per_context_token * context_tokens;
}

DecodeStep decode_step(const Roofline& r, double batch, double context_tokens) {
  DecodeStep step;
  step.batch = batch;
  step.context_tokens = context_tokens;
  step.flops = batch * decode_flops_per_token(r, context_tokens);
  step.bytes = r.weight_bytes + batch * kv_bytes_read_per_sequence(r, context_tokens);
  step.compute_seconds = step.flops / r.flop_per_second;
  step.memory_seconds = step.bytes / r.bytes_per_second;
  return step;
}

ComputeCost output_token_cost(const Roofline& r, const DecodeStep& step) {
  const double chip_hours = step.seconds() * r.chips / step.batch / kSecondsPerHour;
  return {step.flops / step.batch, chip_hours, chip_hours * r.usd_per_chip_hour};
}

PrefillToken prefill_token(const Roofline& r, double context_tokens) {
  // A prompt of S tokens: its tokens attend to S/2 earlier tokens on average (causal).
  const double mean_context = context_tokens / 2.0;
  PrefillToken token;
  token.flops = 2.0 * r.active_params +
                r.prefill_attention_flops_per_context_token * tokens_attended(r, mean_context) +
                r.indexer_flops_per_context_token * mean_context;
  token.compute_seconds = token.flops / r.flop_per_second;
  token.memory_seconds = cached_bytes_per_token(r) / r.bytes_per_second;
  return token;
}

ComputeCost input_token_cost(const Roofline& r, const PrefillToken& token) {
  const double chip_hours = token.seconds() * r.chips / kSecondsPerHour;
  return {token.flops, chip_hours, chip_hours * r.usd_per_chip_hour};
}

double hbm_bytes_needed(const Roofline& r, double batch, double context_tokens) {
  return r.weight_bytes + batch * context_tokens * cached_bytes_per_token(r);
}

double critical_batch(const Roofline& r) {
  return r.flop_per_second * r.weight_bytes / (2.0 * r.bytes_per_second * r.active_params);
}

double crossover_context(const Roofline& r) {
  // Per sequence at large batch, compute minus memory time is piecewise linear in S:
  // f(S) = (2 N_active + a * attended(S) + i * S) / F - (kv * attended(S) + x * S) / W,
  // with a kink at S = k for sparse attention. S* is its first zero.
  const double F = r.flop_per_second, W = r.bytes_per_second;
  const double a = r.decode_attention_flops_per_context_token;
  const double i = r.indexer_flops_per_context_token;
  const double x = is_sparse(r) ? r.indexer_bytes_per_token : 0.0;
  const double f0 = 2.0 * r.active_params / F;
  const double slope_dense = (a + i) / F - (r.kv_bytes_per_token + x) / W;
  const double infinity = std::numeric_limits<double>::infinity();
  double root = slope_dense < 0.0 ? f0 / -slope_dense : infinity;
  if (!is_sparse(r) || root <= r.sparse_top_k) return root;
  const double k = r.sparse_top_k;
  const double f_k = f0 + slope_dense * k;  // > 0 here
  const double slope_sparse = i / F - x / W;
  return slope_sparse < 0.0 ? k + f_k / -slope_sparse : infinity;
}

double kv_bytes_for_crossover(double active_params, double flop_per_byte,
                              double crossover_context) {
  return 2.0 * active_params / (flop_per_byte * crossover_context);
}

}  // namespace scaleopt
