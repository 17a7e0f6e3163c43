#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"

namespace scaleopt {

LifecycleTerms lifecycle_terms(LossTerm loss, LifetimeCostModel cost, CostUnit unit,
                               double min_params) {
  loss.law().validate();
  cost.validate();
  LifecycleTerms terms;
  terms.layout = DecisionLayout::with(loss.rl_gain() != nullptr);
  // With D_RL a variable, RL is costed at the chosen tokens, not at the model's fixed ones.
  if (terms.layout.has(DecisionVariable::rl_tokens)) cost.rl_tokens = 0.0;
  terms.loss = std::move(loss);
  terms.cost = std::move(cost);
  terms.unit = unit;
  terms.min_params = min_params;
  return terms;
}

namespace {

// cost_at with the expansion chosen: N_total = N m moves with ln N and with ln m.
LifecycleTerms::CostValue sparse_cost_at(const LifecycleTerms& terms, std::span<const double> x) {
  const DecisionLayout& layout = terms.layout;
  const std::size_t n = layout.at(DecisionVariable::params);
  const std::size_t d = layout.at(DecisionVariable::pretrain_tokens);
  const std::size_t e = layout.at(DecisionVariable::expansion);
  // SLSQP's steps can leave the numbers altogether (a NaN x once its quadratic model breaks):
  // no cost there, which ends the search as not converged (and it restarts) instead of
  // reaching the serving setup as an input.
  if (!std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); })) {
    LifecycleTerms::CostValue none;
    none.value = std::numeric_limits<double>::quiet_NaN();
    none.gradient.fill(std::numeric_limits<double>::quiet_NaN());
    return none;
  }
  const double params = std::exp(x[n]);
  // SLSQP may try a point beyond the weights the replica holds (ln N + ln m above its bound,
  // when it relaxes an inconsistent subproblem), where no serving plan exists: there the cost
  // is continued to first order from the bound, in ln N_total (a C1 extension, only ever seen
  // by such a trial point: every answer satisfies the constraint).
  const double log_total = x[n] + x[e];
  const double log_max_total = std::log(terms.cost.max_total_params);
  const double excess = std::max(0.0, log_total - log_max_total);
  const double total_params = std::exp(log_total - excess);
  const LifetimeCostModel::SparseTotal base =
      terms.cost.total_at(terms.unit, params, total_params, std::exp(x[d]));
  LifecycleTerms::CostValue result;
  result.value = base.value + base.d_log_total_params * excess;
  result.gradient[n] = base.d_log_params + base.d_log_total_params;
  result.gradient[d] = base.d_log_tokens;
  result.gradient[e] = base.d_log_total_params;
  if (layout.has(DecisionVariable::rl_tokens)) {
    const std::size_t r = layout.at(DecisionVariable::rl_tokens);
    const double rl_tokens = std::exp(x[r]);
    const std::optional<SparseSizeCost> token =
        terms.cost.rl_per_token.at_total(params, total_params);
    const double flops = terms.cost.rl_flops_per_param_token * params;
    const double in_active =
        in_unit(terms.unit, {flops, token->d_gpu_hours_d_log_active, token->d_usd_d_log_active});
    const double in_total =
        in_unit(terms.unit, {0.0, token->d_gpu_hours_d_log_total, token->d_usd_d_log_total});
    const double per_token =
        in_unit(terms.unit, {flops, token->gpu_hours, token->usd}) + in_total * excess;
    result.value += per_token * rl_tokens;
    result.gradient[n] += (in_active + in_total) * rl_tokens;
    result.gradient[e] += in_total * rl_tokens;
    result.gradient[r] = per_token * rl_tokens;
  }
  return result;
}

}  // namespace

LifecycleTerms::CostValue LifecycleTerms::cost_at(std::span<const double> x) const {
  if (layout.has(DecisionVariable::expansion)) return sparse_cost_at(*this, x);
  const std::size_t n = layout.at(DecisionVariable::params);
  const std::size_t d = layout.at(DecisionVariable::pretrain_tokens);
  const double params = std::exp(x[n]);
  const LifetimeCostModel::Total base = cost.total(unit, params, std::exp(x[d]));
  CostValue result;
  result.value = base.value;
  result.gradient[n] = base.d_log_params;
  result.gradient[d] = base.d_log_tokens;
  if (layout.has(DecisionVariable::rl_tokens)) {
    const std::size_t r = layout.at(DecisionVariable::rl_tokens);
    const double rl_tokens = std::exp(x[r]);
    const RlTokenCost per_token = rl_token_cost(cost, unit, params);
    const double rl = per_token.value * rl_tokens;
    result.value = base.value + rl;
    result.gradient[n] = base.d_log_params + per_token.d_log_params * rl_tokens;
    result.gradient[r] = rl;
  }
  return result;
}

LifetimePlan plan_at(const LifecycleTerms& terms, std::span<const double> counts) {
  const DecisionLayout& layout = terms.layout;
  LifetimeCostModel model = terms.cost;
  if (layout.has(DecisionVariable::rl_tokens)) {
    model.rl_tokens = counts[layout.at(DecisionVariable::rl_tokens)];
  }
  const double params = counts[layout.at(DecisionVariable::params)];
  const double tokens = counts[layout.at(DecisionVariable::pretrain_tokens)];
  // The experts chosen: costed at the total of the expansion, never at the architecture's
  // own ratio (a total the replica may not hold).
  const bool sparse = layout.has(DecisionVariable::expansion);
  const double expansion = sparse ? counts[layout.at(DecisionVariable::expansion)] : 1.0;
  LifetimePlan plan =
      plan_at(terms.loss.law(), sparse ? cost_model_at_experts(model, expansion) : model,
              terms.unit, params, tokens);
  if (sparse) {
    plan.experts = terms.experts->experts_at(expansion);
    plan.total_params = params * expansion;
  }
  if (terms.loss.has_transforms() || sparse) {
    DecisionGradient logs{};
    for (std::size_t i = 0; i < layout.dimension(); ++i) logs[i] = std::log(counts[i]);
    const LossTerm::Value l =
        terms.loss.at(layout, std::span<const double>(logs.data(), layout.dimension()));
    plan.loss = l.loss;
    if (terms.loss.rl_gain())
      plan.rl_returns = RlReturnsAnswer{l.report.rl_gain, l.report.rl_compute_ratio};
  }
  return plan;
}

double TargetLossConstraint::value(const LifecycleTerms& terms, std::span<const double> x,
                                   std::span<double> gradient) const {
  const LossTerm::Value l = terms.loss_at(x);
  const double reducible = target_loss_ - terms.loss.law().E;
  if (!gradient.empty()) {
    for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = l.gradient[i] / reducible;
  }
  return (l.loss - target_loss_) / reducible;
}

double BudgetConstraint::value(const LifecycleTerms& terms, std::span<const double> x,
                               std::span<double> gradient) const {
  const LifecycleTerms::CostValue c = terms.cost_at(x);
  if (!gradient.empty()) {
    for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = c.gradient[i] / c.value;
  }
  return std::log(c.value) - log_budget_;
}

double MaxPretrainTokensConstraint::value(const LifecycleTerms& terms, std::span<const double> x,
                                          std::span<double> gradient) const {
  const std::size_t d = terms.layout.at(DecisionVariable::pretrain_tokens);
  if (!gradient.empty()) {
    for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = i == d ? 1.0 : 0.0;
  }
  return x[d] - log_max_;
}

double PretrainingComputeConstraint::value(const LifecycleTerms& terms, std::span<const double> x,
                                           std::span<double> gradient) const {
  // 6 N D in log space: linear, so the constraint's gradient is exact everywhere.
  const std::size_t n = terms.layout.at(DecisionVariable::params);
  const std::size_t d = terms.layout.at(DecisionVariable::pretrain_tokens);
  if (!gradient.empty()) {
    for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = i == n || i == d ? 1.0 : 0.0;
  }
  return std::log(6.0) + x[n] + x[d] - log_max_;
}

LifecycleQuestion LifecycleQuestion::at_target_loss(double target_loss) {
  return {LifecycleObjective::cost, {std::make_shared<TargetLossConstraint>(target_loss)}};
}

LifecycleQuestion LifecycleQuestion::within_budget(double budget) {
  return {LifecycleObjective::loss, {std::make_shared<BudgetConstraint>(budget)}};
}

LifecycleQuestion LifecycleQuestion::within_pretraining_compute(double max_flops,
                                                                std::string description) {
  return {LifecycleObjective::loss,
          {std::make_shared<PretrainingComputeConstraint>(max_flops, "pretraining_budget",
                                                          std::move(description))}};
}

const TargetLossConstraint* LifecycleQuestion::target() const {
  return constraints.empty() ? nullptr
                             : dynamic_cast<const TargetLossConstraint*>(constraints.front().get());
}

const BudgetConstraint* LifecycleQuestion::budget() const {
  return constraints.empty() ? nullptr
                             : dynamic_cast<const BudgetConstraint*>(constraints.front().get());
}

const MaxPretrainTokensConstraint* LifecycleQuestion::token_cap() const {
  for (const auto& constraint : constraints) {
    if (const auto* cap = dynamic_cast<const MaxPretrainTokensConstraint*>(constraint.get())) {
      return cap;
    }
  }
  return nullptr;
}

const PretrainingComputeConstraint* LifecycleQuestion::pretraining_budget() const {
  if (constraints.empty()) return nullptr;
  const auto* cap = dynamic_cast<const PretrainingComputeConstraint*>(constraints.front().get());
  return cap && cap->name() == "pretraining_budget" ? cap : nullptr;
}

const PretrainingComputeConstraint* LifecycleQuestion::tightest_compute_cap() const {
  const PretrainingComputeConstraint* tightest = nullptr;
  for (const auto& constraint : constraints) {
    const auto* cap = dynamic_cast<const PretrainingComputeConstraint*>(constraint.get());
    if (cap && (!tightest || cap->max_flops() < tightest->max_flops())) tightest = cap;
  }
  return tightest;
}

int LifecycleQuestion::inequality_index(std::string_view name) const {
  int index = 0;
  for (const auto& constraint : constraints) {
    if (constraint->sense() != ConstraintTerm::Sense::at_most) continue;
    if (constraint->name() == name) return index;
    ++index;
  }
  return -1;
}

LifecycleQuestion& LifecycleQuestion::with_deadline(double max_flops, std::string description) {
  constraints.push_back(std::make_shared<PretrainingComputeConstraint>(max_flops, "deadline",
                                                                       std::move(description)));
  return *this;
}

LifecycleQuestion& LifecycleQuestion::with_token_cap(double max_pretrain_tokens) {
  constraints.push_back(std::make_shared<MaxPretrainTokensConstraint>(max_pretrain_tokens));
  return *this;
}

LifecycleProblem::LifecycleProblem(LifecycleTerms terms, LifecycleQuestion question)
    : terms_(std::move(terms)), question_(std::move(question)) {
  for (const auto& constraint : question_.constraints) {
    (constraint->sense() == ConstraintTerm::Sense::equal ? equalities_ : inequalities_)
        .push_back(constraint.get());
  }
  if (terms_.layout.has(DecisionVariable::expansion) &&
      std::isfinite(terms_.cost.max_total_params)) {
    servable_total_ = std::make_shared<ServableTotalConstraint>();
    inequalities_.push_back(servable_total_.get());
  }
}

std::vector<double> LifecycleProblem::lower_bounds() const {
  std::vector<double> lower(dimension(), kLogLowerBound);
  lower[terms_.layout.at(DecisionVariable::params)] = std::log(terms_.min_params);
  if (const RlGainTransform* gain = terms_.loss.rl_gain()) {
    lower[terms_.layout.at(DecisionVariable::rl_tokens)] = std::log(gain->min_rl_tokens());
  }
  if (terms_.layout.has(DecisionVariable::expansion)) {
    const ExpertChoice& experts = *terms_.experts;
    lower[terms_.layout.at(DecisionVariable::expansion)] =
        std::log(experts.expansion(experts.min_experts));
  }
  return lower;
}

std::vector<double> LifecycleProblem::upper_bounds() const {
  std::vector<double> upper(dimension(), kLogUpperBound);
  if (terms_.layout.has(DecisionVariable::expansion)) {
    // N_active alone, at the fewest experts (the servability constraint bounds N m).
    const ExpertChoice& experts = *terms_.experts;
    const double largest =
        std::min(terms_.cost.max_active_params,
                 terms_.cost.max_total_params / experts.expansion(experts.min_experts));
    upper[terms_.layout.at(DecisionVariable::params)] = std::min(kLogUpperBound, std::log(largest));
    upper[terms_.layout.at(DecisionVariable::expansion)] =
        std::log(experts.expansion(experts.max_experts));
    return upper;
  }
  upper[terms_.layout.at(DecisionVariable::params)] =
      std::min(kLogUpperBound, std::log(terms_.cost.max_params));
  return upper;
}

std::vector<double> LifecycleProblem::start() const {
  const LossLaw& law = terms_.loss.law();
  const double upper_log_params = upper_bounds()[terms_.layout.at(DecisionVariable::params)];
  const RlGainTransform* gain = terms_.loss.rl_gain();
  // (ln N, ln D_eff) from the question's own constraint.
  double log_params = 0.0, log_effective_tokens = 0.0;
  if (const TargetLossConstraint* target = question_.target()) {
    const auto c = coefficients_of<double>(law);
    const auto frontier = compute_optimal_allocation(c, compute_for_loss(c, target->target_loss()));
    log_params = std::min(std::log(frontier.params), upper_log_params);
    log_effective_tokens =
        std::log(tokens_for_loss(law, target->target_loss(), std::exp(log_params)));
  } else if (const BudgetConstraint* budget = question_.budget()) {
    const double per_param_token = in_unit(terms_.unit, terms_.cost.pretraining(1.0, 1.0));
    // Half the budget on pretraining (a quarter with RL chosen: the rest for RL and inference)
    // at 20 tokens per parameter, 6 N D = share * budget / (cost per N D).
    const double share_factor = gain ? 80.0 : 40.0;
    log_params =
        std::clamp(0.5 * (std::log(budget->budget()) - std::log(share_factor * per_param_token)),
                   std::log(terms_.min_params), upper_log_params);
    log_effective_tokens = log_params + std::log(20.0);
  } else if (const PretrainingComputeConstraint* compute = question_.pretraining_budget()) {
    // The Chinchilla point of the budget's FLOPs (Hoffmann et al. 2022, Eq. 4).
    const auto frontier =
        compute_optimal_allocation(coefficients_of<double>(law), compute->max_flops());
    log_params =
        std::clamp(std::log(frontier.params), std::log(terms_.min_params), upper_log_params);
    log_effective_tokens = std::log(compute->max_flops() / 6.0) - log_params;
  }
  // Within a cap on the FLOPs: the start's tokens cut to what the cap allows at its N.
  if (const PretrainingComputeConstraint* cap = question_.tightest_compute_cap()) {
    log_effective_tokens =
        std::min(log_effective_tokens, std::log(cap->max_flops() / 6.0) - log_params);
  }
  // Within a cap on the tokens (the plain law's tokens at the target exceed any the cap allows
  // when the cap binds: the start is then feasible in D, and the loss constraint pulls N up).
  if (const MaxPretrainTokensConstraint* cap = question_.token_cap()) {
    log_effective_tokens = std::min(log_effective_tokens, std::log(cap->max_pretrain_tokens()));
  }
  std::vector<double> x = gain ? rl_start(*gain, terms_.cost, terms_.unit, log_params,
                                          log_effective_tokens, kLogUpperBound)
                               : std::vector<double>{log_params, log_effective_tokens};
  // With E chosen: the middle of its bounds in ln E, where law() is the joint law's reduction
  // (lifecycle_terms_choosing_experts), so that the start above is that E's; N within what the
  // replica holds at that expansion (a feasible start keeps SLSQP's iterates within the linear
  // constraint, so that no cost is asked of weights the replica cannot hold).
  if (terms_.layout.has(DecisionVariable::expansion)) {
    const double log_expansion =
        std::log(terms_.experts->expansion(start_experts(*terms_.experts)));
    x[0] = std::min(x[0], std::log(terms_.cost.max_total_params) - log_expansion);
    x.push_back(log_expansion);
  }
  return x;
}

double LifecycleProblem::objective(std::span<const double> x, std::span<double> gradient) const {
  if (question_.objective == LifecycleObjective::loss) {
    const LossTerm::Value l = terms_.loss_at(x);
    if (!gradient.empty()) {
      for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = l.gradient[i];
    }
    return l.loss;
  }
  const LifecycleTerms::CostValue c = terms_.cost_at(x);
  if (!gradient.empty()) {
    for (std::size_t i = 0; i < gradient.size(); ++i) gradient[i] = c.gradient[i] / c.value;
  }
  return std::log(c.value);
}

double LifecycleProblem::equality(std::size_t i, std::span<const double> x,
                                  std::span<double> gradient) const {
  return equalities_[i]->value(terms_, x, gradient);
}

double LifecycleProblem::inequality(std::size_t j, std::span<const double> x,
                                    std::span<double> gradient) const {
  return inequalities_[j]->value(terms_, x, gradient);
}

}  // namespace scaleopt
