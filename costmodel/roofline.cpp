#include "scaleopt/costmodel/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

// Contexts where some layer's reads or FLOPs change slope, ascending, from 0.
std::vector<double> kinks(const Roofline& r) {
  std::vector<double> at{0.0};
  for (const AttentionLayers& group : r.attention) {
    for (double kink : group.kinks()) at.push_back(kink);
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  return at;
}

// The first zero of a function linear between the kinks of `r` (and beyond the last), that
// starts positive at 0; +infinity when it never reaches zero.
template <class Piecewise>
double first_zero(const Roofline& r, Piecewise f) {
  const std::vector<double> at = kinks(r);
  for (std::size_t i = 0; i < at.size(); ++i) {
    const double a = at[i];
    const double fa = f(a);
    if (fa <= 0.0) return a;
    // The segment to the next kink, or far beyond the last (1e15 tokens: a step long enough
    // that the difference of f keeps its digits) to read the final slope.
    const double b = i + 1 < at.size() ? at[i + 1] : a + std::max(1e15, a);
    const double fb = f(b);
    if (fb <= 0.0) return a + (b - a) * fa / (fa - fb);
    if (i + 1 == at.size()) {
      const double slope = (fb - fa) / (b - a);
      return slope < 0.0 ? a + fa / -slope : std::numeric_limits<double>::infinity();
    }
  }
  return std::numeric_limits<double>::infinity();
}

double prefill_attention_flops_per_token(const Roofline& r, double prompt_tokens) {
  // A prompt of S tokens: its tokens attend to S/2 earlier tokens on average (causal); each
  // layer's reads are evaluated at that mean context.
  const double mean_context = prompt_tokens / 2.0;
  double flops = 0.0;
  for (const AttentionLayers& group : r.attention) {
    flops += group.attended(mean_context) * group.prefill_flops_per_entry +
             group.indexed(mean_context) * group.indexer_flops_per_entry;
  }
  return flops;
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
  const double bytes_per_param = setup.weight_bytes_per_param();
  r.weight_bytes = r.total_params * bytes_per_param;
  // The embedding table and the output head are known from the shape; a model without one,
  // or scaled by its parameter count, keeps 2 N per token (and so does one whose given counts
  // are too small to hold both matrices).
  const double shape_table = architecture.vocab * architecture.d_model;
  const bool counted = architecture.has_shape() && !architecture.scaled_counts &&
                       2.0 * shape_table < r.active_params;
  const double table = counted ? shape_table : 0.0;
  const double input_table = architecture.tied_embeddings ? 0.0 : table;
  r.decode_params = r.active_params - input_table;
  r.head_params = table;
  r.prefill_params = r.decode_params - r.head_params;
  r.weight_read_bytes = r.weight_bytes - input_table * bytes_per_param;
  r.embedding_row_bytes = input_table > 0.0 ? architecture.d_model * bytes_per_param : 0.0;
  if (!architecture.has_shape() && !architecture.kv_bytes_per_token) {
    throw field_error("architecture.kv_bytes_per_token",
                      "required to price serving by the roofline when the shape (layers, heads, "
                      "head_dim, ...) is not given: " +
                          architecture.name + " has only direct totals");
  }
  const double kv_bytes = bytes_per_element(setup.kv_precision);
  r.kv_bytes_per_token = architecture.kv_cache_bytes_per_token(kv_bytes);
  r.attention = attention_layers(architecture, kv_bytes);
  r.attention_flops = setup.attention_flops && architecture.has_shape();
  if (!r.attention_flops) {
    for (AttentionLayers& group : r.attention) {
      group.decode_flops_per_entry = 0.0;
      group.prefill_flops_per_entry = 0.0;
      group.indexer_flops_per_entry = 0.0;
    }
  }
  return r;
}

double cached_bytes_per_sequence(const Roofline& r, double context_tokens) {
  double bytes = 0.0;
  for (const AttentionLayers& group : r.attention) bytes += group.cached_bytes(context_tokens);
  return bytes;
}

double cached_bytes_per_token(const Roofline& r) {
  double bytes = 0.0;
  for (const AttentionLayers& group : r.attention) {
    if (group.attention.has_stream()) {
      bytes += (group.entry_bytes + (group.attention.top_k ? group.indexer_key_bytes : 0.0)) /
               group.attention.compress_ratio;
    }
  }
  return bytes;
}

double longest_context(const Roofline& r, double free_bytes) {
  if (!(free_bytes > 0.0)) return 0.0;
  return first_zero(r, [&](double S) { return free_bytes - cached_bytes_per_sequence(r, S); });
}

double attended_kv_bytes_per_sequence(const Roofline& r, double context_tokens) {
  double bytes = 0.0;
  for (const AttentionLayers& group : r.attention) bytes += group.attended_bytes(context_tokens);
  return bytes;
}

double indexer_bytes_per_sequence(const Roofline& r, double context_tokens) {
  double bytes = 0.0;
  for (const AttentionLayers& group : r.attention) bytes += group.indexer_bytes(context_tokens);
  return bytes;
}

double kv_bytes_read_per_sequence(const Roofline& r, double context_tokens) {
  return attended_kv_bytes_per_sequence(r, context_tokens) +
         indexer_bytes_per_sequence(r, context_tokens);
}

double decode_attention_flops_per_token(const Roofline& r, double context_tokens) {
  double flops = 0.0;
  for (const AttentionLayers& group : r.attention) {
    flops += group.attended(context_tokens) * group.decode_flops_per_entry +
             group.indexed(context_tokens) * group.indexer_flops_per_entry;
  }
  return flops;
}

double decode_flops_per_token(const Roofline& r, double context_tokens) {
  return 2.0 * r.decode_params + decode_attention_flops_per_token(r, context_tokens);
}

DecodeStep decode_step(const Roofline& r, double batch, double context_tokens) {
  DecodeStep step;
  step.batch = batch;
  step.context_tokens = context_tokens;
  step.flops = batch * decode_flops_per_token(r, context_tokens);
  step.bytes = r.weight_read_bytes +
               batch * (r.embedding_row_bytes + kv_bytes_read_per_sequence(r, context_tokens));
  step.compute_seconds = step.flops / r.flop_per_second;
  step.memory_seconds = step.bytes / r.bytes_per_second;
  return step;
}

ComputeCost output_token_cost(const Roofline& r, const DecodeStep& step) {
  const double chip_hours = step.seconds() * r.chips / step.batch / kSecondsPerHour;
  return {step.flops / step.batch, chip_hours, chip_hours * r.usd_per_chip_hour};
}

PrefillPass prefill_pass(const Roofline& r, double prompts, double prompt_tokens) {
  PrefillPass pass;
  pass.tokens = prompts * prompt_tokens;
  pass.flops =
      pass.tokens * (2.0 * r.prefill_params + prefill_attention_flops_per_token(r, prompt_tokens)) +
      prompts * 2.0 * r.head_params;
  // Each prompt's cache is written once and read back once by its attention.
  pass.bytes = r.weight_read_bytes + pass.tokens * r.embedding_row_bytes +
               prompts * 2.0 * cached_bytes_per_sequence(r, prompt_tokens);
  pass.compute_seconds = pass.flops / r.flop_per_second;
  pass.memory_seconds = pass.bytes / r.bytes_per_second;
  return pass;
}

PrefillToken prefill_token(const Roofline& r, double context_tokens) {
  const double tokens = std::max(context_tokens, 1.0);
  const PrefillPass pass = prefill_pass(r, 1.0, tokens);
  PrefillToken token;
  token.flops = pass.flops / tokens;
  token.compute_seconds = pass.compute_seconds / tokens;
  token.memory_seconds = pass.memory_seconds / tokens;
  token.weight_memory_seconds = r.weight_read_bytes / r.bytes_per_second / tokens;
  return token;
}

ComputeCost input_token_cost(const Roofline& r, const PrefillToken& token) {
  const double chip_hours = token.seconds() * r.chips / kSecondsPerHour;
  return {token.flops, chip_hours, chip_hours * r.usd_per_chip_hour};
}

double hbm_bytes_needed(const Roofline& r, double batch, double context_tokens) {
  return r.weight_bytes + batch * cached_bytes_per_sequence(r, context_tokens);
}

double critical_batch(const Roofline& r) {
  return r.flop_per_second * r.weight_read_bytes / (2.0 * r.bytes_per_second * r.decode_params);
}

double crossover_context(const Roofline& r) {
  // Per sequence at large batch: compute minus memory time, piecewise linear in S.
  const double F = r.flop_per_second, W = r.bytes_per_second;
  return first_zero(r, [&](double S) {
    return decode_flops_per_token(r, S) / F -
           (r.embedding_row_bytes + kv_bytes_read_per_sequence(r, S)) / W;
  });
}

double kv_bytes_for_crossover(double active_params, double flop_per_byte,
                              double crossover_context) {
  return 2.0 * active_params / (flop_per_byte * crossover_context);
}

}  // namespace scaleopt
