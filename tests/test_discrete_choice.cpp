// A discrete choice among lifecycle problems (problems/lifecycle/discrete_choice.hpp): the
// cheapest verified candidate wins, ties go to the first, unconverged answers never win.

#include <array>
#include <catch2/catch.hpp>
#include <vector>

#include "sardana_cost_example.hpp"
#include "scaleopt/problems/lifecycle/discrete_choice.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "tolerances.hpp"

using namespace scaleopt;

namespace {

const LossLaw kSardanaLaw = loss_law_preset("sardana2024");

using testing::sardana_cost_model;

}  // namespace

TEST_CASE("choose_among keeps the lowest converged objective, ties to the first",
          "[discrete_choice]") {
  struct Answer {
    double value;
    bool ok;
  };
  const auto solve = [](const Answer& a) { return a; };
  const auto converged = [](const Answer& a) { return a.ok; };
  const auto objective = [](const Answer& a) { return a.value; };

  // 2.0 + 1e-12 ties with 2.0 at tie_relative 1e-9; 1.0 is lower but did not converge.
  const std::vector<Answer> candidates{{2.0, true}, {1.0, false}, {2.0 + 1e-12, true}, {3.0, true}};
  const auto tied = choose_among(std::span<const Answer>(candidates), solve, converged, objective);
  REQUIRE(tied.chosen);
  CHECK(*tied.chosen == 0);
  CHECK(tied.converged == 3);
  CHECK(tied.rejected == 1);

  // Lower by 1e-6 relative: beyond the tie, the later candidate wins.
  const std::vector<Answer> apart{{2.0, true}, {2.0 * (1 - 1e-6), true}};
  CHECK(*choose_among(std::span<const Answer>(apart), solve, converged, objective).chosen == 1);

  const std::vector<Answer> none{{1.0, false}, {0.5, false}};
  const auto failed = choose_among(std::span<const Answer>(none), solve, converged, objective);
  CHECK_FALSE(failed.chosen);
  CHECK(failed.answer.value == 1.0);  // the first candidate's answer, for its message
  CHECK(failed.rejected == 2);
}

TEST_CASE("choose_plan: the decode efficiency that serves cheapest, Sardana's cost example",
          "[discrete_choice][published]") {
  // At every plan the inference cost falls as decode MFU rises, so the cheapest lifetime is the
  // highest MFU's whatever the solves do; with 0.2 the highest, the plan is the README's:
  // N = 2.053e10, D = 3.302e12.
  const std::array<double, 3> decode_mfus{0.05, 0.2, 0.1};
  const auto solve = [](double mfu) {
    return min_lifetime_cost_at_loss(kSardanaLaw, 1.947, sardana_cost_model(mfu), CostUnit::usd);
  };
  const auto choice =
      choose_plan(std::span<const double>(decode_mfus), solve, LifecycleObjective::cost);
  REQUIRE(choice.chosen);
  CHECK(*choice.chosen == 1);
  CHECK(choice.converged == 3);
  CHECK(choice.answer.params == Approx(2.053e10).epsilon(kFourDigits));
  CHECK(choice.answer.pretrain_tokens == Approx(3.302e12).epsilon(kFourDigits));

  // The same candidate twice: a tie to the first.
  const std::array<double, 2> same{0.2, 0.2};
  CHECK(*choose_plan(std::span<const double>(same), solve, LifecycleObjective::cost).chosen == 0);
}

TEST_CASE("choose_plan within a budget: an infeasible candidate is rejected, the lowest loss wins",
          "[discrete_choice]") {
  // Serving the demand at decode MFU 0.001 with the smallest model considered (N = 1e7, the
  // default min_params) costs more than the budget by itself (about $13,500 by hand): infeasible.
  const double budget_usd = 5000.0, min_params = 1e7;
  REQUIRE(in_unit(CostUnit::usd, sardana_cost_model(0.001).cost(min_params, 0.0).inference) >
          budget_usd);
  REQUIRE(in_unit(CostUnit::usd, sardana_cost_model(0.1).cost(min_params, 0.0).inference) <
          budget_usd / 10);
  const std::array<double, 3> decode_mfus{0.001, 0.1, 0.2};
  const auto solve = [&](double mfu) {
    return max_quality_at_budget(kSardanaLaw, sardana_cost_model(mfu), CostUnit::usd, budget_usd,
                                 min_params);
  };
  const auto choice =
      choose_plan(std::span<const double>(decode_mfus), solve, LifecycleObjective::loss);
  REQUIRE(choice.chosen);
  CHECK(*choice.chosen == 2);  // cheaper serving leaves more of the budget for training
  CHECK(choice.rejected == 1);
  CHECK(choice.answer.loss < solve(0.1).loss);
}
