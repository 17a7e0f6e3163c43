#include "scaleopt/problems/question/question_replica_choice.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/lifecycle/discrete_choice.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"

namespace scaleopt {
namespace {

// A size cost priced as `priced` is, with `form` as its closed form: a size's setup prices RL
// as the question does (the rollouts keep their own replica) and serving at the size, and
// LifetimeCostModel::closed_form() asks one closed form of both terms.
class WithClosedForm final : public SizeCostFunction {
 public:
  WithClosedForm(SizeCostTerm priced, std::shared_ptr<const RooflinePricing> form)
      : priced_(std::move(priced)), form_(std::move(form)) {}
  SizeCost at(double params) const override { return priced_.at(params); }
  const RooflinePricing* closed_form() const override { return form_.get(); }
  bool prices_total() const override { return priced_.prices_total(); }
  std::optional<SparseSizeCost> at_total(double active_params, double total_params) const override {
    return priced_.at_total(active_params, total_params);
  }

 private:
  SizeCostTerm priced_;
  std::shared_ptr<const RooflinePricing> form_;
};

std::optional<QuestionSetup> setup_at_size(const QuestionSetup& setup, const LifetimeInputs& inputs,
                                           double chips) {
  LifetimeInputs given = inputs;
  given.serving.replica_chosen = false;
  given.serving.chips = chips;
  LifetimeCostModel at_size;
  try {
    at_size = lifetime_cost_model(given, true);
  } catch (const InputError&) {
    return std::nullopt;
  }
  QuestionSetup result = setup;
  result.model.inference = at_size.inference;
  result.model.fleet = at_size.fleet;
  result.model.max_params = at_size.max_params;
  result.model.max_total_params = at_size.max_total_params;
  result.model.max_active_params = at_size.max_active_params;
  result.model.max_params_reason = at_size.max_params_reason;
  result.model.closed_form_lower_bound = at_size.closed_form_lower_bound;
  result.model.replica_floor_chip_hours = at_size.replica_floor_chip_hours;
  // One closed form of the size's serving and the question's RL, for the fast path.
  const RooflinePricing* question_form = setup.model.closed_form();
  const RooflinePricing* size_form = at_size.closed_form();
  if (question_form != nullptr && size_form != nullptr) {
    auto form = std::make_shared<RooflinePricing>(*size_form);
    form->rl = question_form->rl;
    form->rl_chip_hours_per_second = question_form->rl_chip_hours_per_second;
    auto fleet = std::make_shared<const ServingFleet>(
        std::make_shared<const LifetimeInputs>(std::move(given)), form);
    result.model.inference = SizeCostTerm::of(fleet);
    result.model.fleet = fleet;
    result.model.rl_per_token =
        SizeCostTerm::of(std::make_shared<const WithClosedForm>(setup.model.rl_per_token, form));
  }
  return result;
}

}  // namespace

std::optional<QuestionSetup> setup_at_replica_size(const QuestionSetup& setup, double chips) {
  const ServingFleet* fleet = setup.model.fleet.get();
  if (fleet == nullptr) return std::nullopt;
  return setup_at_size(setup, fleet->inputs(), chips);
}

bool chooses_replica(const QuestionSetup& setup) {
  const ServingFleet* fleet = setup.model.fleet.get();
  return fleet != nullptr && fleet->inputs().serving.replica_chosen;
}

LifetimePlan solve_question_plan(const QuestionSetup& setup, const SolverOptions& options) {
  if (!chooses_replica(setup)) return solve_lifecycle(setup.terms(), setup.question(), options);
  const LifetimeInputs& inputs = setup.model.fleet->inputs();
  // Whole nodes from one up: a size too small for any N drops out in setup_at_size, one too
  // small for the question's N comes back infeasible and is counted, not chosen.
  std::vector<QuestionSetup> sizes;
  for (const double chips : whole_node_replica_sizes(inputs.serving)) {
    if (auto at_size = setup_at_size(setup, inputs, chips)) sizes.push_back(std::move(*at_size));
  }
  // The largest size's reason for a rejected answer is the one a user acts on (it is the
  // replica that comes closest to a latency target), and a rejection that is not infeasibility
  // (a solve that stopped) outranks any infeasibility: it is reported, never hidden.
  std::optional<LifetimePlan> rejected_answer;
  auto keep_rejected = [&](const LifetimePlan& plan) {
    if (plan.solve.converged()) return;
    const bool stopped = plan.solve.status != Status::infeasible;
    if (!rejected_answer || stopped || rejected_answer->solve.status == Status::infeasible) {
      rejected_answer = plan;
    }
  };
  const DiscreteChoice<LifetimePlan> choice = choose_plan(
      std::span<const QuestionSetup>(sizes),
      [&](const QuestionSetup& at_size) {
        try {
          LifetimePlan plan = solve_lifecycle(at_size.terms(), at_size.question(), options);
          keep_rejected(plan);
          return plan;
        } catch (const InputError& error) {
          // A size that cannot serve the question's smallest model (a latency target one
          // replica this small cannot meet): infeasible here, so counted, not chosen. Were
          // the inputs themselves invalid, every size would say so and the solve below on the
          // chosen cost throws the same error.
          LifetimePlan infeasible;
          infeasible.solve.status = Status::infeasible;
          infeasible.solve.message = error.what();
          keep_rejected(infeasible);
          return infeasible;
        }
      },
      setup.question().objective);
  if (!choice.chosen) {
    // No size holds the model: the question on the chosen cost throws the reason in the
    // chosen model's own terms.
    if (!rejected_answer) return solve_lifecycle(setup.terms(), setup.question(), options);
    // Sizes were tried and none converged: say so with the most telling rejection.
    LifetimePlan plan = *rejected_answer;
    plan.solve.message = "no replica size of 1 to " +
                         std::to_string(static_cast<long long>(inputs.serving.max_replica_nodes)) +
                         " nodes answers the question (" + std::to_string(sizes.size()) +
                         " tried); " + plan.solve.message;
    return plan;
  }
  LifetimePlan plan = choice.answer;
  plan.solve.message += "; replica chosen among " + std::to_string(sizes.size()) +
                        " whole-node sizes (" + std::to_string(choice.converged) + " converged)";
  return plan;
}

}  // namespace scaleopt
