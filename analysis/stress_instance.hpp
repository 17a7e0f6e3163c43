#pragma once
// Random but valid problems for the stress run (`scaleopt selftest`, docs/reliability.md):
// instance i of seed s is drawn from its own generator (problems/fit/bootstrap_resample.hpp), so
// instances can be made on any thread in any order and the run is the same at any thread count.
//
// What is drawn (the distributions are documented in docs/reliability.md):
//  - a loss law: one of the presets, its coefficients spread by Epoch AI's bootstrap standard
//    errors of their refit (Besiroglu et al. 2024: E 0.03, A 124.58 of 482.01, B 1293.23 of
//    2085.43, alpha 0.02, beta 0.02), A and B as relative (log-normal) spreads so they stay
//    positive around every preset;
//  - the question: compute-optimal at a budget or at a loss (checked against Hoffmann's closed
//    form), or a lifecycle problem of `scaleopt solve` (min-lifetime in FLOPs or dollars,
//    max-quality in dollars or GPU-hours, equal-cost), checked against its 1-D reduction;
//  - model sizes from 1e7 to 1e13 parameters (the targets and budgets are set through them),
//    inference demand from 0 to 1e16 tokens, chips, prices and efficiencies over two orders of
//    magnitude, inference priced by fixed MFUs or by the roofline, RL or none; the roofline
//    classes add latency targets, given batches, preset shapes and RL contexts; the fleet class
//    chooses the replica among 1 to 32 whole nodes of 1 to 8 chips, over a duration of a day to
//    three years or none, at a peak of 1 to 3 times the mean, sometimes elastic;
//  - about one loss target in ten that no model reaches (at or below E, within 1e-12 of it, or
//    beyond 1e30 parameters): those must be reported infeasible.

#include <cstdint>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/question/question_solve.hpp"

namespace scaleopt {

enum class StressClass {
  compute_at_budget,  // optimal_for_compute vs Hoffmann Eq. 4
  compute_at_loss,    // optimal_for_loss vs the least-compute closed form
  min_lifetime,       // solve_question min-lifetime-flops / -cost vs the 1-D reduction
  max_quality,        // solve_question max-quality vs the 1-D reduction
  equal_cost,         // the heuristic's closed form re-costed, and its optimum vs 1-D
  // The same three with inference always priced by the roofline, over more of its inputs
  // (latency targets, given batches, model shapes with attention FLOPs, an RL context of its
  // own): the fast path's closed form (problems/lifecycle/accelerators/roofline_newton.hpp) is held
  // to the same references.
  roofline_min_lifetime,
  roofline_max_quality,
  roofline_equal_cost,
  // RL tokens chosen with [rl.returns] (the 3-variable lifecycle problem), at a loss or within a
  // budget, costs linear in N (FLOPs or fixed MFUs): NLopt against the separation of
  // problems/rl_returns/ (r* by TOMS 748, then the 1-D reduction).
  rl_returns,
  // Limited data (data.unique_tokens: the repetition transform of the loss), sometimes with a cap
  // on the pretraining tokens, at a loss or within a budget: NLopt against the 1-D reduction of
  // problems/data_limit/ (TOMS 748 on the stationary point along the question's constraint),
  // infeasibility against the floor of the README's formula (costmodel/data_repetition.hpp).
  data_limit,
  // The replica chosen with N (inference.chips absent: whole nodes up to max_replica_nodes) and
  // the fleet priced for a demand over a duration (at least one replica, sized for a peak), or
  // elastically, at a loss or within a budget: NLopt and the fast path against the discrete
  // choice taken outside the solver (every allowed size given in turn, each by its 1-D
  // reduction, the best kept).
  fleet,
  // The experts chosen with a joint dense/MoE law (ludziejewski2025's coefficients spread),
  // fixed MFUs or the roofline, at a loss or within a budget, E bounded in [1 or more, up to
  // 512] (one in ten a fixed sparsity): NLopt on (ln N, ln D, ln m) with its KKT check against
  // the fixed-E 1-D reductions on a grid of 65 in ln E, refined by Brent's method and ternary
  // steps; agreement in the objective (relative in cost, in the reducible loss).
  experts,
};
inline constexpr int kStressClassCount = 12;
// The classes that were the whole run before later ones joined: their instances are drawn as
// they always were (instance k of such a class c is the generator's instance
// kFirstClassCount * k + c), so a run of kStressClassCount * n instances has the same n of each
// of them as a run of kFirstClassCount * n before. Later classes draw from streams of their own.
inline constexpr int kFirstClassCount = 8;
std::string_view to_string(StressClass kind);

struct StressInstance {
  std::uint64_t seed = 0;
  std::uint64_t index = 0;
  StressClass kind = StressClass::compute_at_budget;
  LossLaw law;
  std::string law_preset;  // the preset the law was spread around
  // compute_at_budget: C; compute_at_loss: the target.
  double compute_flops = 0.0;
  double target_loss = 0.0;
  // Lifecycle classes: the scenario (chips "stress-train" and "stress-serve" are made up for
  // the instance) and its [problem].
  LifetimeInputs inputs;
  ProblemSpec problem;
  // The generator aimed the target at an unreachable loss (at or below E, or needing more than
  // 1e30 parameters). The checker decides feasibility on its own; this only labels the draw.
  bool drawn_unreachable = false;
};

// The class of instance `index` (the classes take turns, so every run of kStressClassCount or
// more has each).
StressClass stress_class(std::uint64_t index);

// Instance `index` of the run seeded with `seed`: the same on every call and every thread.
StressInstance stress_instance(std::uint64_t seed, std::uint64_t index);

}  // namespace scaleopt
