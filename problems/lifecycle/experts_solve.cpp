#include "scaleopt/problems/lifecycle/experts_solve.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

namespace scaleopt {
namespace {

constexpr double kNoPlan = std::numeric_limits<double>::infinity();

// A size cost priced at N_total = N m: the fixed-E question's serving and rollouts.
class PricedAtExpansion final : public SizeCostFunction {
 public:
  PricedAtExpansion(SizeCostTerm base, double expansion)
      : base_(std::move(base)), expansion_(expansion) {}
  SizeCost at(double params) const override {
    const SparseSizeCost c = *base_.at_total(params, params * expansion_);
    // Along the fixed-E model N_total moves with N: the two slopes add.
    return {c.gpu_hours, c.usd, c.d_gpu_hours_d_log_active + c.d_gpu_hours_d_log_total,
            c.d_usd_d_log_active + c.d_usd_d_log_total};
  }
  bool prices_total() const override { return true; }
  std::optional<SparseSizeCost> at_total(double active_params, double total_params) const override {
    return base_.at_total(active_params, total_params);
  }

 private:
  SizeCostTerm base_;
  double expansion_;
};

SizeCostTerm at_expansion(const SizeCostTerm& term, double expansion) {
  if (term.linear_rate()) return term;  // 2 N_active FLOPs per token: the total does not enter
  return SizeCostTerm::of(std::make_shared<const PricedAtExpansion>(term, expansion));
}

// The reference's objective of a fixed-E plan: ln cost in the unit, or the loss.
double objective_of(const LifetimePlan& plan, const LifecycleQuestion& question, CostUnit unit) {
  if (question.objective == LifecycleObjective::loss) return plan.loss;
  return std::log(in_unit(unit, plan.cost.total()));
}

struct AtExperts {
  double objective = kNoPlan;  // +infinity: no plan there; NaN: the reduction did not answer
  LifetimePlan plan;
};

AtExperts reference_at(const LifecycleTerms& terms, const LifecycleQuestion& question,
                       double log_experts) {
  AtExperts at;
  try {
    at.plan = lifecycle_reference(terms_at_experts(terms, std::exp(log_experts)), question);
  } catch (const InputError& e) {
    // The inputs were valid at the question's start; what is new at this E is the total, which
    // the serving setup refuses at every N (a latency target the smallest model's weights
    // miss): no plan at this E.
    at.plan.solve.status = Status::infeasible;
    at.plan.solve.message = e.what();
    return at;
  }
  if (at.plan.solve.status == Status::infeasible) return at;
  if (!at.plan.solve.converged()) {
    at.objective = std::numeric_limits<double>::quiet_NaN();
    return at;
  }
  at.objective = objective_of(at.plan, question, terms.unit);
  return at;
}

// The fixed-E plan as a plan of the question that chooses E: x gains ln E, and the plan its
// experts and total.
LifetimePlan with_experts(const LifecycleTerms& terms, LifetimePlan plan, double log_experts) {
  const double experts = std::exp(log_experts);
  const double expansion = terms.experts->expansion(experts);
  plan.experts = experts;
  plan.total_params = plan.params * expansion;
  if (!plan.solve.x.empty()) plan.solve.x.push_back(std::log(expansion));
  return plan;
}

}  // namespace

LifecycleTerms lifecycle_terms_choosing_experts(LossTerm loss, LifetimeCostModel cost,
                                                CostUnit unit, ExpertChoice experts,
                                                double min_params) {
  experts.validate();
  const std::shared_ptr<const JointLossLaw> joint = loss.shared_joint();
  if (!joint) {
    throw InputError(
        "problem.max_experts: choosing the experts needs a joint dense/MoE law (law.preset = "
        "\"ludziejewski2025\" or a [law.joint] table)");
  }
  if (loss.repetition()) {
    throw InputError(
        "data.unique_tokens: repeated data with the experts chosen is not modelled (the "
        "repetition constants are fitted at one expert count): give law.experts, or set "
        "problem.min_experts = problem.max_experts");
  }
  if (!cost.prices_total()) {
    throw InputError(
        "inference.pricing: this serving cost cannot price the total parameters apart from the "
        "active ones, so the experts cannot be chosen: give law.experts");
  }
  // law() is the reduction at the search's start, so that every rule that reads it (the
  // start, the irreducible loss of the target's scale) reads the joint law there.
  LossTerm chosen = loss.with_law(law_at_experts(*joint, start_experts(experts), "law.experts"));
  chosen.choosing_experts(joint, experts.expert_share);
  LifecycleTerms terms = lifecycle_terms(std::move(chosen), std::move(cost), unit, min_params);
  terms.layout = DecisionLayout::with(terms.loss.rl_gain() != nullptr, true);
  terms.experts = experts;
  return terms;
}

double ServableTotalConstraint::value(const LifecycleTerms& terms, std::span<const double> x,
                                      std::span<double> gradient) const {
  // Linear in (ln N, ln m): exact, and never crossed by SLSQP's steps from a feasible point.
  const std::size_t n = terms.layout.at(DecisionVariable::params);
  const std::size_t e = terms.layout.at(DecisionVariable::expansion);
  if (!gradient.empty()) {
    std::fill(gradient.begin(), gradient.end(), 0.0);
    gradient[n] = 1.0;
    gradient[e] = 1.0;
  }
  return x[n] + x[e] - std::log(terms.cost.max_total_params);
}

LifetimeCostModel cost_model_at_experts(const LifetimeCostModel& model, double expansion) {
  LifetimeCostModel fixed = model;
  fixed.inference = at_expansion(model.inference, expansion);
  fixed.rl_per_token = at_expansion(model.rl_per_token, expansion);
  fixed.max_params = std::min(model.max_active_params, model.max_total_params / expansion);
  // The fleet and its closed form are the architecture's expansion's: none at another.
  fixed.fleet = nullptr;
  fixed.closed_form_lower_bound = false;
  fixed.replica_floor_chip_hours = 0.0;
  return fixed;
}

LifecycleTerms terms_at_experts(const LifecycleTerms& terms, double experts) {
  const LossTerm& loss = terms.loss;
  // The law reduced at E in place of the term's own (the reduction at the search's start, with
  // the joint law and its range): no source text built per point of the search.
  LossLaw law = loss.law();
  set_coefficients_at_experts(law, *loss.joint(), experts, "law.experts");
  LifecycleTerms fixed =
      lifecycle_terms(loss.with_law(std::move(law)),
                      cost_model_at_experts(terms.cost, terms.experts->expansion(experts)),
                      terms.unit, terms.min_params);
  return fixed;
}

namespace {

// Brent's point (to ~1e-6 relative in x, below) is where a smooth minimum's objective is
// within ~1e-11 of its least; at a corner of the profile (the serving batch changing bound) the
// objective still falls linearly there, by ~f' 1e-6. Golden-section steps on [x - w, x + w]
// (w a few times Brent's tolerance) compare values only, so they locate a corner to rounding (a
// smooth minimum stays within its flat part): 50 steps shrink 2e-5 to ~7e-16. Boost.Math has
// no golden-section search, and its Brent's method caps its precision at half the digits.
template <class Objective>
double refine_by_comparison(const Objective& value, double x, double lo, double hi) {
  constexpr double kHalfWidth = 1e-5;
  constexpr int kSteps = 50;
  const double inverse_golden = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = std::max(lo, x - kHalfWidth), b = std::min(hi, x + kHalfWidth);
  double c = b - inverse_golden * (b - a), d = a + inverse_golden * (b - a);
  double fc = value(c), fd = value(d);
  for (int step = 0; step < kSteps; ++step) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - inverse_golden * (b - a);
      fc = value(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + inverse_golden * (b - a);
      fd = value(d);
    }
  }
  const double refined = fc <= fd ? c : d;
  return std::min(fc, fd) <= value(x) ? refined : x;
}

}  // namespace

LifetimePlan experts_reference(const LifecycleTerms& terms, const LifecycleQuestion& question) {
  const ExpertChoice& experts = *terms.experts;
  const double lo = std::log(experts.min_experts), hi = std::log(experts.max_experts);
  // A grid fine enough that the objective, smooth in ln E, is unimodal between neighbours of
  // its best point: 9 points (a step of ln(32) / 8 ~ 0.43 over the fitted range). The profile
  // is smooth and unimodal on every instance of the stress run, whose own reference takes 65
  // (docs/reliability.md); each point is a whole fixed-E reduction, the cost of the reference.
  constexpr int kGrid = 9;
  std::vector<double> grid(kGrid);
  std::vector<AtExperts> at(kGrid);
  int best = -1;
  for (int k = 0; k < kGrid; ++k) {
    grid[k] = lo + (hi - lo) * k / (kGrid - 1);
    at[k] = reference_at(terms, question, grid[k]);
    if (std::isfinite(at[k].objective) && (best < 0 || at[k].objective < at[best].objective)) {
      best = k;
    }
  }
  if (best < 0) {
    // No plan at any E, or no answer from the reduction at any.
    LifetimePlan plan = at[kGrid - 1].plan;
    const bool infeasible = std::all_of(at.begin(), at.end(), [](const AtExperts& a) {
      return a.plan.solve.status == Status::infeasible;
    });
    std::ostringstream message;
    message << (infeasible ? "at every expert count in [" : "no reference at any expert count in [")
            << experts.min_experts << ", " << experts.max_experts
            << "] (at the most: " << plan.solve.message << ")";
    plan.solve.status = infeasible ? Status::infeasible : Status::not_converged;
    plan.solve.message = message.str();
    plan.unit = terms.unit;
    return plan;
  }
  const double left = grid[std::max(best - 1, 0)], right = grid[std::min(best + 1, kGrid - 1)];
  double best_log_experts = grid[best];
  if (right > left) {
    const auto value = [&](double log_experts) {
      const double v = reference_at(terms, question, log_experts).objective;
      return std::isnan(v) ? kNoPlan : v;
    };
    // x to ~1e-6 relative (20 bits): at a smooth minimum the objective is then within
    // f'' 1e-12 / 2 of its least, far inside the reference tolerance (1e-8) it is held to; each
    // bit fewer is one evaluation fewer. A corner, where that is not so, is where NLopt stops
    // and the point is refined (refine_by_comparison) before it answers.
    constexpr int kBits = 20;
    std::uintmax_t iterations = 100;
    const auto [x, v] =
        boost::math::tools::brent_find_minima(value, left, right, kBits, iterations);
    if (v <= at[best].objective) best_log_experts = x;
  }
  LifetimePlan plan = best_log_experts == grid[best]
                          ? at[best].plan
                          : reference_at(terms, question, best_log_experts).plan;
  plan = with_experts(terms, std::move(plan), best_log_experts);
  plan.solve.algorithm =
      "fixed-E reduction (" + plan.solve.algorithm + ") minimised over ln E (grid and Brent)";
  return plan;
}

namespace {

// Whether the profile of the fixed-E optima, f(ln E), rises on both sides of the reference's
// ln E by kProfileStep (a side beyond a bound passes): a minimum over E whether smooth or a
// corner, each f(ln E) an answer of the fixed-E reduction. The step is far above where the
// refine locates a corner (~1e-15) and a smooth minimum still rises over it by f'' 5e-11, above
// the reductions' rounding; kProfileSlack is that rounding (the objectives are ln cost or nats).
bool profile_minimum(const LifecycleTerms& terms, const LifecycleQuestion& question,
                     double log_experts, double objective) {
  constexpr double kProfileStep = 1e-5;
  constexpr double kProfileSlack = 1e-12;
  const double lo = std::log(terms.experts->min_experts);
  const double hi = std::log(terms.experts->max_experts);
  for (const double side : {-1.0, 1.0}) {
    const double x = log_experts + side * kProfileStep;
    if (x < lo || x > hi) continue;
    if (!(reference_at(terms, question, x).objective >= objective - kProfileSlack)) return false;
  }
  return true;
}

// NLopt stopped at a corner of the cost (the serving batch changing bound as the total grows,
// where no gradient balances the constraints with two degrees of freedom): the reference's
// plan, certified by its profile, is the answer, and says so.
LifetimePlan certified_reference(LifetimePlan reference, const LifetimePlan& nlopt) {
  std::ostringstream message;
  message.precision(4);
  message << "the fixed-E reduction minimised over ln E, certified: its optimum rises on both "
             "sides of E = "
          << *reference.experts
          << " (a corner of the cost, where no gradient balances the constraints; NLopt: "
          << nlopt.solve.message << ")";
  reference.solve.status = Status::converged;
  reference.solve.message = message.str();
  reference.reference_relative_difference = std::numeric_limits<double>::quiet_NaN();
  reference.reference_message =
      "the answer is the independent reference's, certified by the profile of its objective "
      "over ln E (NLopt did not converge at this corner)";
  return reference;
}

}  // namespace

LifetimePlan solve_choosing_experts(const LifecycleTerms& terms, const LifecycleQuestion& question,
                                    const SolverOptions& options) {
  const ExpertChoice& experts = *terms.experts;
  if (experts.min_experts == experts.max_experts) {
    // A fixed sparsity: the question at that E, reported with its experts and total.
    const double log_experts = std::log(experts.min_experts);
    return with_experts(
        terms, solve_lifecycle(terms_at_experts(terms, experts.min_experts), question, options),
        log_experts);
  }
  const LifetimePlan reference = experts_reference(terms, question);
  if (reference.solve.status == Status::infeasible) return reference;
  const LifecycleProblem problem(terms, question);
  // The reference locates E to ~1e-6 relative (the objective to ~1e-11): its point restarts a
  // failed search, or one that stopped farther from it than 1e-4 in a count; the two are held
  // to each other by their objectives below.
  SolverOptions restart = options;
  restart.reference_tolerance = 1e-4;
  LifetimePlan plan = plan_at_solution(terms, minimize_with_restart(problem, reference, restart));
  if (!reference.solve.converged()) {
    plan.reference_message = "no independent reference: " + reference.solve.message;
    return plan;
  }
  if (!plan.solve.converged() && plan.solve.status != Status::infeasible) {
    // At a corner of the profile Brent's point is off by ~1e-6 in ln E: located to rounding
    // first, then certified.
    const double located = std::log(*reference.experts);
    const auto value = [&](double log_experts) {
      const double v = reference_at(terms, question, log_experts).objective;
      return std::isnan(v) ? kNoPlan : v;
    };
    const double refined = refine_by_comparison(value, located, std::log(experts.min_experts),
                                                std::log(experts.max_experts));
    LifetimePlan at_refined = reference;
    if (refined != located) {
      at_refined = with_experts(terms, reference_at(terms, question, refined).plan, refined);
      at_refined.solve.algorithm = reference.solve.algorithm;
    }
    if (profile_minimum(terms, question, refined, objective_of(at_refined, question, terms.unit))) {
      return certified_reference(at_refined, plan);
    }
  }
  // Relative in cost; in loss, relative to the reducible part (what the law can change).
  const double ours = objective_of(plan, question, terms.unit);
  const double theirs = objective_of(reference, question, terms.unit);
  const double difference = question.objective == LifecycleObjective::loss
                                ? std::fabs(ours - theirs) / (theirs - terms.loss.law().E)
                                : std::fabs(std::expm1(ours - theirs));
  plan.reference_relative_difference = difference;
  if (plan.solve.converged() && !(difference <= options.reference_tolerance)) {
    mark_disagreement(plan, reference.solve.algorithm, difference, "the objective",
                      options.reference_tolerance);
  }
  return plan;
}

}  // namespace scaleopt
