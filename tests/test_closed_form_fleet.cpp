// The fleet of a given replica in closed form (problems/lifecycle/accelerators/
// closed_form_fleet.hpp), which the fast path's answers report, against plan_fleet's fleet, which
// plans the replica's serving (the model's roofline, its best batch) at each N: on grids over
// chip, precision, context, latency target, demand, peak factor, pricing (elastic or paid for the
// duration) and the replica's size, every figure an answer reports equals the plan's, and the
// closed form declines exactly where it cannot answer (one replica more than the peak needs, or
// an N the replica does not serve).

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "example_path.hpp"
#include "frontier_text.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/accelerators/closed_form_fleet.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// The plan's best batch and its costs per token agree with the closed form to ~1e-14
// (tests/test_roofline_fast.cpp holds them to 1e-12); the fleet's figures are products and
// ratios of those, so 1e-12 again.
constexpr double kClosedForm = 1e-12;

QuestionSetup fleet_setup(const std::vector<std::string>& overrides) {
  std::vector<std::string> set = overrides;
  set.push_back("problem.target_params=1e11");
  const Scenario scenario = load_scenario(example("frontier.toml"), set);
  return question_setup(scenario, *scenario.law, scenario.problem);
}

std::optional<FleetPlan> planned_fleet(const QuestionSetup& setup, double n) {
  try {
    return setup.model.fleet->plan_at(n);
  } catch (const InputError&) {
    return std::nullopt;  // no replica serves N
  }
}

struct Tally {
  int compared = 0, declined_one_replica = 0, not_served = 0;
  int balance = 0, hbm = 0, latency = 0, given = 0;
};

void check_fleet(const QuestionSetup& setup, double n, Tally& tally) {
  const std::optional<FleetPlan> closed = closed_form_fleet(setup.model, n);
  const std::optional<FleetPlan> plan = planned_fleet(setup, n);
  if (!plan || plan->plan.status != Status::converged) {
    CHECK_FALSE(closed);
    ++tally.not_served;
    return;
  }
  if (plan->demand_bound) {
    CHECK_FALSE(closed);  // the demand fills the batch: only the plan's step knows it
    ++tally.declined_one_replica;
    return;
  }
  REQUIRE(closed);
  ++tally.compared;
  CHECK(closed->replica_chips == plan->replica_chips);
  CHECK(closed->replica_chosen == plan->replica_chosen);
  CHECK(closed->elastic == plan->elastic);
  CHECK_FALSE(closed->demand_bound);
  CHECK(closed->plan.status == Status::converged);
  const RooflinePricing& form = *setup.model.closed_form();
  // At a corner the two bounds give the same batch and cost; the label may differ by rounding.
  if (piece_at(form, n * (1 - 1e-9)) == piece_at(form, n * (1 + 1e-9))) {
    CHECK(closed->plan.bound == plan->plan.bound);
  }
  switch (plan->plan.bound) {
    case BatchBound::balance:
      ++tally.balance;
      break;
    case BatchBound::hbm:
      ++tally.hbm;
      break;
    case BatchBound::latency:
      ++tally.latency;
      break;
    default:
      ++tally.given;
      break;
  }
  CHECK(closed->batch == Approx(plan->batch).epsilon(kClosedForm));
  CHECK(closed->plan.batch == Approx(plan->plan.batch).epsilon(kClosedForm));
  CHECK(closed->busy_chip_hours == Approx(plan->busy_chip_hours).epsilon(kClosedForm));
  CHECK(closed->chip_hours == Approx(plan->chip_hours).epsilon(kClosedForm));
  // A difference of two hours: to the hours' rounding, not its own.
  CHECK(std::fabs(closed->idle_chip_hours - plan->idle_chip_hours) <=
        kClosedForm * plan->chip_hours);
  CHECK(closed->usd == Approx(plan->usd).epsilon(kClosedForm));
  CHECK(closed->whole_replicas_usd == Approx(plan->whole_replicas_usd).epsilon(kClosedForm));
  CHECK(closed->utilisation == Approx(plan->utilisation).epsilon(kClosedForm));
  if (std::isfinite(plan->replicas)) {
    CHECK(closed->replicas == Approx(plan->replicas).epsilon(kClosedForm));
    CHECK(closed->busy_replicas == Approx(plan->busy_replicas).epsilon(kClosedForm));
    // A whole count: equal unless the continuous count sits on an integer to rounding.
    if (std::fabs(plan->replicas - std::round(plan->replicas)) > 1e-9 * plan->replicas) {
      CHECK(closed->whole_replicas == plan->whole_replicas);
    }
  } else {
    CHECK_FALSE(std::isfinite(closed->replicas));  // a lifetime total has no rate
  }
  // The slope in ln N the optimiser's gradient uses: the plan's implicit differentiation.
  CHECK(closed->d_chip_hours_d_log_params ==
        Approx(plan->d_chip_hours_d_log_params).epsilon(1e-10));
}

}  // namespace

TEST_CASE("closed-form fleet equals the planned fleet of a given replica", "[closed_form_fleet]") {
  Tally tally;
  for (const char* chip : {"h100-sxm", "h200", "b200", "mi300x"}) {
    for (const char* chips : {"8", "16"}) {
      for (const char* context : {"2K", "32K", "128K"}) {
        for (const char* latency : {"", "30ms"}) {
          for (const char* precision : {"bf16", "fp8"}) {
            for (const char* demand : {"20K/s", "50M/s", "5G/s"}) {
              for (const char* pricing : {"inference.peak_to_mean=1", "inference.peak_to_mean=1.3",
                                          "inference.elastic=true"}) {
                std::vector<std::string> set{std::string("inference.hardware=") + chip,
                                             std::string("inference.chips=") + chips,
                                             std::string("inference.context=") + context,
                                             std::string("inference.precision=") + precision,
                                             std::string("inference.rate=") + demand,
                                             pricing};
                if (*latency) set.push_back(std::string("inference.latency_per_token=") + latency);
                std::string what;
                for (const auto& s : set) what += s + " ";
                const QuestionSetup setup = fleet_setup(set);
                REQUIRE(setup.model.closed_form());
                for (double n = 3e8; n < 4e12; n *= 2.3) {
                  INFO(what << "N " << n);
                  check_fleet(setup, n, tally);
                }
              }
            }
          }
        }
      }
    }
  }
  INFO("compared " << tally.compared << ", one replica " << tally.declined_one_replica
                   << ", not served " << tally.not_served);
  // Every regime is reached: each bound of the batch, one replica's floor, an N not served.
  CHECK(tally.compared > 5000);
  CHECK(tally.balance > 100);
  CHECK(tally.hbm > 100);
  CHECK(tally.latency > 100);
  CHECK(tally.declined_one_replica > 100);
  CHECK(tally.not_served > 100);
}

TEST_CASE("closed-form fleet declines a chosen replica and a model without a fleet",
          "[closed_form_fleet]") {
  const QuestionSetup given = fleet_setup({"inference.rate=50M/s"});
  REQUIRE(closed_form_fleet(given.model, 1e11));
  // inference.chips absent: chosen.
  const Scenario scenario = load_scenario_text(frontier_text(false), "frontier-chosen.toml",
                                               {"problem.target_params=1e11"});
  const QuestionSetup chosen = question_setup(scenario, *scenario.law, scenario.problem);
  REQUIRE(chosen.model.closed_form());
  CHECK_FALSE(closed_form_fleet(chosen.model, 1e11));
  CHECK_FALSE(closed_form_fleet(LifetimeCostModel{}, 1e11));
}
