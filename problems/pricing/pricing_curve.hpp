#pragma once
// Cost per input and output token against context length, at the best batch of each context
// (problems/serving/serving_plan.hpp), split into the terms of the roofline (docs/pricing.md):
//
//   output token = price x max(compute, weights / B + KV + indexer)     per second of replica
//     compute = decode FLOPs per token / F,  weights / B = weight bytes / (W B),
//     KV = attended KV bytes / W,  indexer = indexer key bytes / W (sparse attention only)
//
// The KV and indexer terms do not depend on the batch. Two curves follow:
//  - the large-batch limit (weights amortised away), price x max(compute, KV + indexer): flat
//    below the crossover S* (crossover_context) and linear above, with slope the KV term per
//    context token (docs/model.md, Inference roofline; the talk);
//  - the best batch under the HBM (and latency) limits: flat while decode can turn
//    compute-bound, rising once HBM fills first. The knee is where the HBM-full batch stops
//    being compute-bound: for dense attention without attention FLOPs S* (1 - weights / HBM),
//    and above it the cost is the KV term times HBM / (HBM - weights).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {

// The cost of one output token at a plan, term by term (USD per token).
struct OutputCostTerms {
  double compute_usd = 0.0;      // decode FLOPs / F
  double weight_usd = 0.0;       // weight bytes / (W B): the weight read shared by the batch
  double kv_usd = 0.0;           // attended KV bytes / W
  double indexer_usd = 0.0;      // indexer key bytes / W
  double large_batch_usd = 0.0;  // max(compute, KV + indexer): the weights amortised away
  // At the plan: max(compute, weights + KV + indexer), equal to the plan's output token cost.
  double total_usd() const;
};
OutputCostTerms output_cost_terms(const Roofline& roofline, const ServingPlan& plan);

struct CurvePoint {
  // The best (or given) batch at this context. A context at which no batch fits the replica
  // (one sequence's cache beside the weights exceeds HBM, the given batch does not fit, or the
  // latency target is out of reach) has status infeasible, the reason in plan.message and no
  // costs.
  ServingPlan plan;
  OutputCostTerms output;
  bool feasible() const { return plan.status != Status::infeasible; }
};

struct PricingCurve {
  // converged when every feasible plan and the knee are (infeasible rows are marked, not
  // failures: a context past what the replica holds is an answer)
  Status status = Status::not_converged;
  std::string message;
  double critical_batch = 0.0;     // B*
  double crossover_context = 0.0;  // S*: +infinity when decode never turns memory-bound
  // Where HBM fills before decode can turn compute-bound: the best-batch curve rises above it.
  // +infinity when it never does below 1e12 tokens; 0 when the batch is HBM-bound throughout.
  double knee_context = 0.0;
  std::vector<CurvePoint> points;  // one per context, in the order given
};

// Where HBM fills before decode can turn compute-bound (the knee of the best-batch curve): the
// root in ln S of ln(t_compute / t_memory) at the batch that fills HBM, by TOMS 748 over
// [1, 1e12] tokens. The latency target is not considered (the curve's rows show its bound).
struct KneeResult {
  Status status = Status::not_converged;
  std::string message;
  double context_tokens = 0.0;  // +infinity: never below 1e12; 0: HBM-bound from the start
};
KneeResult hbm_knee_context(const Roofline& roofline);

// Throws InputError (fields named with `prefix`) when the weights alone do not fit the replica;
// a context that does not fit marks its point (CurvePoint::feasible).
PricingCurve pricing_curve(const Roofline& roofline, const ServingSetup& setup,
                           std::span<const double> contexts, std::string_view prefix);

// `points` contexts from `first` to `last`, evenly spaced in log context (both included).
std::vector<double> log_spaced_contexts(double first, double last, int points);

}  // namespace scaleopt
