#include "scaleopt/problems/question/question_elasticity.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/problems/equal_cost/chinchilla_comparison.hpp"

namespace scaleopt {
namespace {

// Setups at ln p + offsets[i], with weights that take d/d ln p at ln p from their values.
struct Stencil {
  std::string_view name;
  std::vector<double> offsets;
  std::vector<double> weights;
  std::vector<QuestionSetup> setups;
};

// Central (f(h) - f(-h)) / 2h where p can move both ways; else the second-order one-sided
// (-3 f(0) + 4 f(h) - f(2h)) / 2h, or its mirror. Error O(h^2) in every case.
Stencil make_stencil(const ScaledSetup& scaled, double h) {
  std::string plus_error, minus_error;
  std::optional<QuestionSetup> plus, minus;
  try {
    plus = scaled(h);
  } catch (const InputError& e) {
    plus_error = e.what();
  }
  try {
    minus = scaled(-h);
  } catch (const InputError& e) {
    minus_error = e.what();
  }
  Stencil s;
  if (plus && minus) {
    s.name = "central";
    s.offsets = {-h, h};
    s.weights = {-0.5 / h, 0.5 / h};
    s.setups = {std::move(*minus), std::move(*plus)};
  } else if (minus) {
    s.name = "backward";
    s.offsets = {0.0, -h, -2 * h};
    s.weights = {1.5 / h, -2.0 / h, 0.5 / h};
    s.setups = {scaled(0.0), std::move(*minus), scaled(-2 * h)};
  } else if (plus) {
    s.name = "forward";
    s.offsets = {0.0, h, 2 * h};
    s.weights = {-1.5 / h, 2.0 / h, -0.5 / h};
    s.setups = {scaled(0.0), std::move(*plus), scaled(2 * h)};
  } else {
    throw InputError("cannot move the input either way: " + plus_error);
  }
  return s;
}

// The stencil for `scaled`, or nullopt with `result` saying why p can move neither way.
std::optional<Stencil> stencil_or_why(const ScaledSetup& scaled, const ElasticityOptions& options,
                                      Elasticity& result) {
  options.validate();
  try {
    Stencil stencil = make_stencil(scaled, options.log_step);
    result.stencil = stencil.name;
    return stencil;
  } catch (const InputError& e) {
    result.status = Status::invalid_input;
    result.message = e.what();
    return std::nullopt;
  }
}

// Adds the i-th point's share of d ln y / d ln p.
void accumulate(Elasticity& result, const Stencil& stencil, std::size_t i, const OutputValues& y) {
  for (std::size_t j = 0; j < y.size(); ++j) {
    result.values[j] += stencil.weights[i] * std::log(y[j]);
  }
}

}  // namespace

void ElasticityOptions::validate() const {
  if (!(log_step > 0.0 && log_step < 0.1)) {
    std::ostringstream message;
    message << "elasticity.log_step must be in (0, 0.1), got " << log_step;
    throw InputError(message.str());
  }
  kkt.validate();
}

OutputValues outputs_of(const AnswerSummary& answer, CostUnit unit) {
  return {answer.params, answer.pretrain_tokens, answer.loss, in_unit(unit, answer.cost.total()),
          answer.over_chinchilla};
}

OutputValues outputs_at(const QuestionSetup& setup, double log_params, double log_tokens) {
  if (const RlGainTransform* gain = setup.loss.rl_gain()) {
    return outputs_at(setup, log_params, log_tokens,
                      std::log(std::max(setup.model.rl_tokens, gain->min_rl_tokens())));
  }
  const double params = std::exp(log_params), tokens = std::exp(log_tokens);
  return {params * setup.total_to_active, tokens, setup.law().loss(params, tokens),
          setup.model.total(setup.unit, params, tokens).value,
          over_chinchilla(setup.rule, params, tokens)};
}

OutputValues outputs_at(const QuestionSetup& setup, double log_params, double log_tokens,
                        double log_rl_tokens) {
  const double params = std::exp(log_params), tokens = std::exp(log_tokens);
  const double counts[] = {params, tokens, std::exp(log_rl_tokens)};
  const LifetimePlan plan = plan_at(setup.terms(), counts);
  return {params * setup.total_to_active, tokens, plan.loss, in_unit(setup.unit, plan.cost.total()),
          over_chinchilla(setup.rule, params, tokens)};
}

OutputValues outputs_at(const QuestionSetup& setup, std::span<const double> x) {
  if (!setup.experts) {
    return x.size() == 3 ? outputs_at(setup, x[0], x[1], x[2]) : outputs_at(setup, x[0], x[1]);
  }
  std::vector<double> counts(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) counts[i] = std::exp(x[i]);
  const LifetimePlan plan = plan_at(setup.terms(), counts);
  AllocationRule rule = setup.rule;
  reevaluate_at_experts(rule.law, *setup.law().joint, *plan.experts);
  return {*plan.total_params, plan.pretrain_tokens, plan.loss,
          in_unit(setup.unit, plan.cost.total()),
          over_chinchilla(rule, plan.params, plan.pretrain_tokens)};
}

Elasticity optimum_elasticity(const QuestionSetup& base, std::span<const double> optimum,
                              const ScaledSetup& scaled, const ElasticityOptions& options) {
  Elasticity result;
  const std::optional<Stencil> stencil = stencil_or_why(scaled, options, result);
  if (!stencil) return result;
  const std::unique_ptr<Problem> problem = optimisation_problem(base);
  const KktSensitivity sensitivity(*problem, optimum, options.kkt);
  if (!sensitivity.ok()) {
    result.message = sensitivity.message();
    return result;
  }
  std::vector<std::unique_ptr<Problem>> owned;
  std::vector<const Problem*> problems;
  for (const QuestionSetup& setup : stencil->setups) {
    owned.push_back(optimisation_problem(setup));
    problems.push_back(owned.back().get());
  }
  const std::vector<double> dx = sensitivity.dx_dp(problems, stencil->weights);
  // y(x*(p), p) along the tangent: x* + offset dx at the stencil's p.
  for (std::size_t i = 0; i < stencil->setups.size(); ++i) {
    const double s = stencil->offsets[i];
    std::vector<double> x(optimum.begin(), optimum.end());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] += s * dx[k];
    accumulate(result, *stencil, i, outputs_at(stencil->setups[i], x));
  }
  result.status = Status::converged;
  return result;
}

Elasticity heuristic_elasticity(const ScaledSetup& scaled, const ElasticityOptions& options) {
  Elasticity result;
  const std::optional<Stencil> stencil = stencil_or_why(scaled, options, result);
  if (!stencil) return result;
  for (std::size_t i = 0; i < stencil->setups.size(); ++i) {
    const QuestionSetup& setup = stencil->setups[i];
    accumulate(result, *stencil, i,
               outputs_at(setup, std::log(setup.heuristic_params),
                          std::log(setup.heuristic.pretrain_tokens)));
  }
  result.status = Status::converged;
  return result;
}

}  // namespace scaleopt
