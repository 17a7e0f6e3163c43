#include "scaleopt/problems/serving/serving_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

std::string replica_text(const Roofline& r, const ServingSetup& setup) {
  std::ostringstream text;
  text << "a replica of " << format_quantity(r.chips, Unit::number, 6) << " x " << setup.chip.id
       << " has " << format_quantity(r.hbm_bytes, Unit::bytes) << " of HBM";
  return text.str();
}

std::string bytes(double value) {
  return format_quantity(value, Unit::bytes);
}

[[noreturn]] void does_not_fit(const Roofline& r, const ServingSetup& setup, double batch,
                               double context, std::string_view prefix, std::string_view field) {
  const double kv = hbm_bytes_needed(r, batch, context) - r.weight_bytes;
  std::ostringstream message;
  if (batch == 0.0) {
    message << "the model does not fit: its weights alone need " << bytes(r.weight_bytes) << " but "
            << replica_text(r, setup) << "; use more chips per replica or a lower precision";
    throw field_error(qualified_field(prefix, field), message.str());
  }
  message << "the model does not fit: it needs " << bytes(hbm_bytes_needed(r, batch, context))
          << " (weights " << bytes(r.weight_bytes) << " + KV cache " << bytes(kv) << " for "
          << format_quantity(batch, Unit::number, 6) << (batch == 1.0 ? " sequence" : " sequences")
          << " at context " << format_quantity(context, Unit::count, 4) << ") but "
          << replica_text(r, setup) << "; use more chips per replica or a lower precision";
  throw field_error(qualified_field(prefix, field), message.str());
}

std::string seconds(double value) {
  if (value < 1.0) {
    std::ostringstream text;
    text << format_scientific(value * 1e3, 3) << "ms";
    return text.str();
  }
  return format_quantity(value, Unit::seconds);
}

struct Candidate {
  double batch;
  BatchBound bound;
};

// The smallest batch at which a bound binds, from the step's affine parts (costmodel/roofline:
// compute B f / F, memory (w + B m) / W, HBM weights + B c): compute-bound from
// B = (w / W) / (f / F - m / W), HBM full at (H - weights) / c, and the step max(B f / F,
// (w + B m) / W) reaches L at the smaller of L F / f and (L W - w) / m. None binds below 1e15
// sequences: nullopt. The callers checked that one sequence fits and meets the target, so each
// root is >= 1 but the compute ridge's, which is 1 when decode is compute-bound from the first.
std::optional<Candidate> best_batch_closed_form(const Roofline& r, double S,
                                                std::optional<double> latency) {
  const double F = r.flop_per_second, W = r.bytes_per_second;
  const double flops = decode_flops_per_token(r, S);
  const double read_bytes = r.embedding_row_bytes + kv_bytes_read_per_sequence(r, S);
  const double cached_bytes = cached_bytes_per_sequence(r, S);
  std::optional<Candidate> best;
  auto consider = [&](double batch, BatchBound bound) {
    if (!(batch <= kMaxServingBatch)) return;  // never binds below the search limit
    if (!best || batch < best->batch) best = Candidate{batch, bound};
  };
  const double per_sequence = flops / F - read_bytes / W;  // compute minus memory, per sequence
  if (flops / F >= (r.weight_read_bytes + read_bytes) / W) {
    best = Candidate{1.0, BatchBound::balance};  // compute-bound from the first sequence
  } else if (per_sequence > 0.0) {
    consider(r.weight_read_bytes / W / per_sequence, BatchBound::balance);
  }
  if (cached_bytes > 0.0) consider((r.hbm_bytes - r.weight_bytes) / cached_bytes, BatchBound::hbm);
  if (latency) {
    double batch = flops > 0.0 ? *latency * F / flops : kUnbounded;
    if (read_bytes > 0.0)
      batch = std::min(batch, (*latency * W - r.weight_read_bytes) / read_bytes);
    consider(batch, BatchBound::latency);
  }
  return best;
}

}  // namespace

std::string_view to_string(BatchBound bound) {
  switch (bound) {
    case BatchBound::given:
      return "given";
    case BatchBound::balance:
      return "compute-bound";
    case BatchBound::hbm:
      return "HBM full";
    case BatchBound::latency:
      return "latency target";
    case BatchBound::mfu:
      return "fixed MFUs";
  }
  return "given";
}

ServingPlan plan_serving(const Roofline& r, const ServingSetup& setup, double context_tokens,
                         std::string_view prefix, BatchSearch search) {
  ServingPlan plan;
  plan.context_tokens = context_tokens;
  const double S = context_tokens;
  if (r.weight_bytes > r.hbm_bytes) does_not_fit(r, setup, 0.0, S, prefix, "chips");
  const auto latency = setup.latency_per_token_seconds;

  if (setup.batch) {
    plan.batch = *setup.batch;
    plan.bound = BatchBound::given;
    if (hbm_bytes_needed(r, plan.batch, S) > r.hbm_bytes) {
      does_not_fit(r, setup, plan.batch, S, prefix, "batch");
    }
    const DecodeStep step = decode_step(r, plan.batch, S);
    if (latency && step.seconds() > *latency) {
      throw field_error(qualified_field(prefix, "latency_per_token"),
                        "batch " + format_quantity(plan.batch, Unit::number, 6) + " takes " +
                            seconds(step.seconds()) + " per decode step, above the target " +
                            seconds(*latency));
    }
    plan.status = Status::converged;
    plan.message = "batch given";
  } else {
    if (hbm_bytes_needed(r, 1.0, S) > r.hbm_bytes) does_not_fit(r, setup, 1.0, S, prefix, "chips");
    if (latency && decode_step(r, 1.0, S).seconds() > *latency) {
      throw field_error(qualified_field(prefix, "latency_per_token"),
                        "unreachable: a decode step takes at least " +
                            seconds(decode_step(r, 1.0, S).seconds()) + " (batch 1 reads all " +
                            bytes(r.weight_bytes) + " of weights), above the target " +
                            seconds(*latency));
    }
    std::optional<Candidate> best;
    std::string failure;
    if (search == BatchSearch::closed_form) {
      best = best_batch_closed_form(r, S, latency);
    } else {
      // Each constraint as a monotone function of x = ln B, zero where it binds.
      auto balance = [&](double x) {
        const DecodeStep step = decode_step(r, std::exp(x), S);
        return std::log(step.compute_seconds / step.memory_seconds);
      };
      auto memory = [&](double x) {
        return std::log(hbm_bytes_needed(r, std::exp(x), S) / r.hbm_bytes);
      };
      auto step_time = [&](double x) {
        return std::log(decode_step(r, std::exp(x), S).seconds() / *latency);
      };
      auto consider = [&](RootResult root, BatchBound bound) {
        if (root.status == Status::infeasible) return;  // never binds below the search limit
        if (root.status != Status::converged) {
          failure = std::string(to_string(bound)) + " root: " + root.message;
          return;
        }
        const double batch = std::exp(root.x);
        if (!best || batch < best->batch) best = Candidate{batch, bound};
      };
      if (balance(0.0) >= 0.0) {
        best = Candidate{1.0, BatchBound::balance};  // compute-bound from the first sequence
      } else {
        consider(find_root_in_bracket(balance, 0.0, kLogMaxServingBatch), BatchBound::balance);
      }
      consider(find_root_in_bracket(memory, 0.0, kLogMaxServingBatch), BatchBound::hbm);
      if (latency)
        consider(find_root_in_bracket(step_time, 0.0, kLogMaxServingBatch), BatchBound::latency);
    }
    if (!failure.empty()) {
      plan.status = Status::not_converged;
      plan.message = "best batch not found: " + failure;
    } else if (!best) {
      plan.status = Status::not_converged;
      plan.message = "no constraint binds below 1e15 sequences";
    } else {
      plan.status = Status::converged;
      plan.message =
          std::string(search == BatchSearch::closed_form ? "best batch (closed form in B): "
                                                         : "best batch (TOMS 748 on ln B): ") +
          std::string(to_string(best->bound));
    }
    plan.batch = best ? best->batch : std::exp(kLogMaxServingBatch);
    plan.bound = best ? best->bound : BatchBound::balance;
  }
  plan.step = decode_step(r, plan.batch, S);
  plan.prefill = prefill_token(r, S);
  plan.output_token = output_token_cost(r, plan.step);
  plan.input_token = input_token_cost(r, plan.prefill);
  plan.hbm_bytes_needed = hbm_bytes_needed(r, plan.batch, S);
  return plan;
}

ServingPlan plan_serving_by_mfu(const Roofline& r, const ServingSetup& setup,
                                double context_tokens) {
  ServingPlan plan;
  plan.status = Status::converged;
  plan.message = "priced at fixed utilizations (prefill and decode MFU)";
  plan.context_tokens = context_tokens;
  plan.bound = BatchBound::mfu;
  const double flops_per_token = 2.0 * r.active_params;
  const double decode_mfu = setup.decode_mfu.value_or(setup.prefill_mfu);
  plan.input_token = cost_at_utilization(flops_per_token, r.peak_flop_per_second / r.chips,
                                         setup.prefill_mfu, r.usd_per_chip_hour);
  plan.output_token = cost_at_utilization(flops_per_token, r.peak_flop_per_second / r.chips,
                                          decode_mfu, r.usd_per_chip_hour);
  plan.hbm_bytes_needed = r.weight_bytes;
  return plan;
}

ServingPlan plan_inference(const Roofline& r, const ServingSetup& setup, double context_tokens,
                           std::string_view prefix) {
  if (setup.pricing == InferencePricing::mfu) return plan_serving_by_mfu(r, setup, context_tokens);
  return plan_serving(r, setup, context_tokens, prefix);
}

}  // namespace scaleopt
