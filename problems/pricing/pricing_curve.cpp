#include "scaleopt/problems/pricing/pricing_curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/limits.hpp"

namespace scaleopt {
namespace {

// Contexts searched for the knee: 1 token to 1e12 (far beyond any model's window).
const double kLogMaxContext = std::log(1e12);

// ln(t_compute / t_memory) of the decode step whose batch fills HBM at context e^x: positive
// while that batch can be compute-bound (so the best batch is the balance point), negative
// once even a full HBM leaves decode memory-bound.
double hbm_full_balance(const Roofline& r, double x) {
  const double context = std::exp(x);
  const double batch = (r.hbm_bytes - r.weight_bytes) / cached_bytes_per_sequence(r, context);
  const DecodeStep step = decode_step(r, batch, context);
  return std::log(step.compute_seconds / step.memory_seconds);
}

}  // namespace

KneeResult hbm_knee_context(const Roofline& r) {
  KneeResult knee;
  auto balance = [&](double x) { return hbm_full_balance(r, x); };
  if (r.hbm_bytes <= r.weight_bytes || balance(0.0) <= 0.0) {
    knee.status = Status::converged;
    knee.message = "HBM limits the batch at every context";
    knee.context_tokens = 0.0;
    return knee;
  }
  const RootResult root = find_root_in_bracket(balance, 0.0, kLogMaxContext);
  if (root.status == Status::infeasible) {
    knee.status = Status::converged;
    knee.message = "decode can turn compute-bound within HBM at every context below 1e12";
    knee.context_tokens = std::numeric_limits<double>::infinity();
  } else {
    knee.status = root.status;
    knee.message = root.message;
    knee.context_tokens = std::exp(root.x);
  }
  return knee;
}

double OutputCostTerms::total_usd() const {
  return std::max(compute_usd, weight_usd + kv_usd + indexer_usd);
}

OutputCostTerms output_cost_terms(const Roofline& r, const ServingPlan& plan) {
  const double usd_per_second = r.usd_per_second();
  const double S = plan.context_tokens;
  OutputCostTerms terms;
  terms.compute_usd = usd_per_second * decode_flops_per_token(r, S) / r.flop_per_second;
  terms.weight_usd = usd_per_second * (r.weight_read_bytes / plan.batch + r.embedding_row_bytes) /
                     r.bytes_per_second;
  terms.kv_usd = usd_per_second * attended_kv_bytes_per_sequence(r, S) / r.bytes_per_second;
  terms.indexer_usd = usd_per_second * indexer_bytes_per_sequence(r, S) / r.bytes_per_second;
  terms.large_batch_usd = std::max(terms.compute_usd, terms.kv_usd + terms.indexer_usd);
  return terms;
}

PricingCurve pricing_curve(const Roofline& r, const ServingSetup& setup,
                           std::span<const double> contexts, std::string_view prefix) {
  PricingCurve curve;
  curve.critical_batch = critical_batch(r);
  curve.crossover_context = crossover_context(r);
  std::string failure;
  std::size_t infeasible = 0;
  // The weights alone not fitting is no answer at any context: plan_serving says so.
  if (r.weight_bytes > r.hbm_bytes) (void)plan_serving(r, setup, 0.0, prefix);
  for (double context : contexts) {
    CurvePoint point;
    try {
      point.plan = plan_serving(r, setup, context, prefix);
      point.output = output_cost_terms(r, point.plan);
    } catch (const InputError& e) {
      point.plan = ServingPlan{};
      point.plan.status = Status::infeasible;
      point.plan.message = e.what();
      point.plan.context_tokens = context;
      ++infeasible;
    }
    if (point.plan.status == Status::not_converged && failure.empty()) {
      failure = "context " + std::to_string(context) + ": " + point.plan.message;
    }
    curve.points.push_back(point);
  }

  const KneeResult knee = hbm_knee_context(r);
  curve.knee_context = knee.context_tokens;
  if (knee.status != Status::converged && failure.empty()) failure = "knee: " + knee.message;
  curve.status = failure.empty() ? Status::converged : Status::not_converged;
  curve.message = failure.empty() ? "best batch at every context; knee by TOMS 748 on ln S"
                                  : "not converged: " + failure;
  if (infeasible > 0) {
    curve.message += "; " + std::to_string(infeasible) +
                     (infeasible == 1 ? " context does" : " contexts do") + " not fit the replica";
  }
  return curve;
}

std::vector<double> log_spaced_contexts(double first, double last, int points) {
  if (!(first > 0.0 && last >= first && std::isfinite(last))) {
    throw InputError("context range: needs 0 < first <= last");
  }
  kCurvePointsLimit.check(points);
  if (points == 1 && last != first) {
    throw InputError("points: needs at least 2 points for a range");
  }
  std::vector<double> contexts;
  if (points == 1) return {first};
  const double step = std::log(last / first) / (points - 1);
  for (int i = 0; i < points; ++i) contexts.push_back(first * std::exp(step * i));
  contexts.back() = last;  // exactly, not through exp and log
  return contexts;
}

}  // namespace scaleopt
