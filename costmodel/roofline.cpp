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

// The sum over j = 1..count of cached_bytes_per_sequence(r, j T), in closed form: per group
// the entries sum to T count (count + 1) / (2 C), the window rows to T m (m + 1) / 2 +
// (count - m) window with m = min(count, floor(window / T)).
double cached_bytes_summed(const Roofline& r, double T, double count) {
  const double triangle = T * count * (count + 1.0) / 2.0;
  double bytes = 0.0;
  for (const AttentionLayers& group : r.attention) {
    const double entries =
        group.attention.has_stream() ? triangle / group.attention.compress_ratio : 0.0;
    double rows = 0.0;
    if (group.attention.window > 0.0) {
      const double m = std::min(count, std::floor(group.attention.window / T));
      rows = T * m * (m + 1.0) / 2.0 + (count - m) * group.attention.window;
    }
    bytes += (rows + entries) * group.entry_bytes +
             (group.attention.top_k ? entries * group.indexer_key_bytes : 0.0);
  }
  return bytes;
}

// Bytes one prompt of S tokens moves in its pass beside the weight read: an embedding row
// gathered per token, its cache written once and read back once by its attention.
double prompt_traffic_bytes(const Roofline& r, double prompt_tokens) {
  return prompt_tokens * r.embedding_row_bytes + 2.0 * cached_bytes_per_sequence(r, prompt_tokens);
}

}  // namespace

void set_replica_chips(Roofline& r, const ServingSetup& setup, double chips) {
  r.chips = chips;
  r.peak_flop_per_second = chips * setup.chip.peak_flop_per_second(setup.precision);
  r.flop_per_second = r.peak_flop_per_second * setup.compute_efficiency;
  r.bytes_per_second = chips * setup.chip.hbm_bytes_per_second * setup.bandwidth_efficiency;
  r.hbm_bytes = chips * setup.chip.hbm_bytes;
}

Roofline make_roofline(const Architecture& architecture, const ServingSetup& setup,
                       std::string_view prefix) {
  setup.validate(prefix);
  Roofline r;
  set_replica_chips(r, setup, setup.chips);
  r.usd_per_chip_hour = setup.price_per_chip_hour(prefix);
  r.total_params = architecture.total_param_count();
  r.active_params = architecture.active_param_count();
  const double bytes_per_param = setup.weight_bytes_per_param();
  r.weight_bytes = serving_weight_bytes(architecture, setup);
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
  r.attention = attention_layers(architecture,
                                 architecture.kv_row_bytes(bytes_per_element(setup.kv_precision),
                                                           setup.kv_rope_bytes_per_element()));
  r.kv_bytes_per_token = cached_bytes_per_token(r.attention);
  r.prefill_tokens_per_pass = setup.prefill_tokens_per_pass.value_or(0.0);
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
  return cached_bytes_per_token(r.attention);
}

double serving_weight_bytes(const Architecture& architecture, const ServingSetup& setup) {
  const double bytes_per_param = setup.weight_bytes_per_param();
  const double narrower = setup.routed_expert_bytes_per_param
                              ? architecture.routed_expert_param_count() *
                                    (*setup.routed_expert_bytes_per_param - bytes_per_param)
                              : 0.0;
  return architecture.total_param_count() * bytes_per_param + narrower;
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
  pass.bytes = r.weight_read_bytes + prompts * prompt_traffic_bytes(r, prompt_tokens);
  pass.compute_seconds = pass.flops / r.flop_per_second;
  pass.memory_seconds = pass.bytes / r.bytes_per_second;
  return pass;
}

PrefillToken prefill_token(const Roofline& r, double context_tokens) {
  const double S = std::max(context_tokens, 1.0);
  const PrefillPass alone = prefill_pass(r, 1.0, S);  // one prompt: its FLOPs and its traffic
  const double weight_seconds = r.weight_read_bytes / r.bytes_per_second;
  PrefillToken token;
  token.flops = alone.flops / S;
  token.compute_seconds = alone.compute_seconds / S;
  double traffic_seconds = prompt_traffic_bytes(r, S) / r.bytes_per_second;
  double passes_per_token = 0.0;  // weight reads per prompt token
  const double T = r.prefill_tokens_per_pass;
  if (T <= 0.0) {
    // Filled with prompts up to the ridge T*, where the pass's compute time equals its weight
    // read plus traffic: a prompt of S >= T* is a pass of its own. Without a ridge (the
    // traffic alone outlasts the FLOPs) the pass grows until the weight read vanishes.
    const double traffic_per_token = traffic_seconds / S;
    if (token.compute_seconds > traffic_per_token) {
      const double ridge_tokens = weight_seconds / (token.compute_seconds - traffic_per_token);
      passes_per_token = 1.0 / std::max(S, ridge_tokens);
    }
  } else if (S <= T) {
    passes_per_token = 1.0 / T;  // T / S prompts share each pass
  } else {
    // Chunks of T tokens (the last one shorter), each a pass reading the weights and the cache
    // of the chunks before it; the prompt's chunks priced together.
    const double chunks = std::ceil(S / T);
    passes_per_token = chunks / S;
    traffic_seconds += cached_bytes_summed(r, T, chunks - 1.0) / r.bytes_per_second;
  }
  token.traffic_memory_seconds = traffic_seconds / S;
  token.weight_memory_seconds = weight_seconds * passes_per_token;
  token.memory_seconds = token.traffic_memory_seconds + token.weight_memory_seconds;
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
