// The serving fleet of problems/serving/fleet_plan.hpp: the replica chosen with N against a
// brute-force minimum over every whole-node size and a batch grid; the fleet sized for the
// peak and paid for the duration, with at least one replica; and the lifetime questions
// choosing the replica (the text says chosen or given).

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "cli_runner.hpp"
#include "llama3_70b_h100_scenario.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// The cheapest output token of one size by brute force: a grid of 4,000 batches in ln B from 1
// to the batch that fills HBM, each checked against HBM and the latency target by the step's
// own arithmetic (decode_step), then the best grid point's feasible edge refined by 200
// bisections. The cost per token chips x max(t_c, t_m) / B never rises with B (serving_plan.hpp),
// so the minimum is at the largest feasible batch or on the flat compute-bound side: the grid
// finds the side, the bisection the edge to ~1e-15 in B. Returns +inf when no batch is feasible.
double brute_output_hours(const Roofline& r, double context, std::optional<double> latency) {
  auto feasible = [&](double batch) {
    if (hbm_bytes_needed(r, batch, context) > r.hbm_bytes) return false;
    return !latency || decode_step(r, batch, context).seconds() <= *latency;
  };
  auto hours = [&](double batch) {
    return decode_step(r, batch, context).seconds() * r.chips / batch / 3600.0;
  };
  if (!feasible(1.0)) return std::numeric_limits<double>::infinity();
  double hi = 1.0;
  while (feasible(hi * 2.0) && hi < 1e12) hi *= 2.0;
  double lo = hi;
  hi *= 2.0;
  for (int i = 0; i < 200; ++i) {  // the largest feasible batch
    const double mid = 0.5 * (lo + hi);
    (feasible(mid) ? lo : hi) = mid;
  }
  double best = hours(lo);
  for (int i = 0; i <= 4000; ++i) best = std::min(best, hours(std::exp(std::log(lo) * i / 4000)));
  return best;
}

struct Brute {
  double chips = 0.0;
  double paid_hours = std::numeric_limits<double>::infinity();
};

// The brute-force fleet: every whole-node size from one node to the cap, the paid chip-hours
// max(chips T, p E) (or E elastic), the smallest of the sizes within 1e-9 of the minimum.
Brute brute_fleet(const Architecture& model, const ServingSetup& setup, const FleetDemand& demand,
                  double context) {
  std::vector<std::pair<double, double>> sizes;
  for (double nodes = 1; nodes <= setup.max_replica_nodes; ++nodes) {
    ServingSetup sized = setup;
    sized.chips = nodes * setup.chip.node_chips;
    const Roofline r = make_roofline(model, sized, "t");
    const double out = brute_output_hours(r, context, setup.latency_per_token_seconds);
    if (!std::isfinite(out)) continue;
    // An input token's price (prefill) is the serving plan's: not what this test checks.
    const ServingPlan plan = plan_serving(r, sized, context, "t");
    const double busy =
        demand.output_tokens * out + demand.input_tokens * plan.input_token.chip_hours;
    const double paid =
        setup.elastic || !demand.duration_seconds
            ? busy
            : std::max(sized.chips * *demand.duration_seconds / 3600.0, setup.peak_to_mean * busy);
    sizes.emplace_back(sized.chips, paid);
  }
  Brute brute;
  for (const auto& [chips, paid] : sizes) brute.paid_hours = std::min(brute.paid_hours, paid);
  for (const auto& [chips, paid] : sizes) {
    if (paid <= brute.paid_hours * (1 + 1e-9)) {
      brute.chips = chips;
      break;
    }
  }
  return brute;
}

}  // namespace

TEST_CASE("the chosen replica and its cost equal a brute-force minimum over sizes and batches",
          "[fleet]") {
  const std::vector<Hardware> chips = builtin_hardware();
  int checked = 0, not_fewest = 0, demand_bound = 0;
  for (const char* chip : {"h100-sxm", "b200"}) {
    for (const Precision precision : {Precision::bf16, Precision::fp8}) {
      for (const double context : {2e3, 32e3}) {
        for (const double latency : {0.0, 0.03}) {
          for (const double ratio : {1.0, 8.0}) {        // total over active parameters
            for (const double rate : {3e3, 1e6, 5e7}) {  // tokens per second
              ServingSetup setup;
              setup.chip = find_hardware(chips, chip);
              setup.precision = precision;
              setup.kv_precision = precision;
              setup.replica_chosen = true;
              setup.max_replica_nodes = 12;  // enough sizes, a quick brute force
              setup.context_tokens = context;
              setup.attention_flops = false;
              setup.usd_per_chip_hour = 2.0;
              if (latency > 0) setup.latency_per_token_seconds = latency;
              Architecture model = architecture_preset("llama3-70b");
              const double active = 7e10;
              model.total_params = active * ratio;
              model.active_params = active;
              model.scaled_counts = true;
              const double seconds = 60 * 86400.0;
              const FleetDemand demand{0.8 * rate * seconds, 0.2 * rate * seconds, seconds};
              INFO(chip << " " << to_string(precision) << " S " << context << " L " << latency
                        << " ratio " << ratio << " rate " << rate);
              const Brute brute = brute_fleet(model, setup, demand, context);
              if (!std::isfinite(brute.paid_hours)) {
                CHECK_THROWS_AS(plan_fleet(model, setup, demand, context, "t"), InputError);
                continue;
              }
              const FleetPlan fleet = plan_fleet(model, setup, demand, context, "t");
              REQUIRE(fleet.plan.status == Status::converged);
              // 1e-9: the tie rule; the brute force's edge is to ~1e-15, the plan's TOMS 748 root
              // to ~1e-14.
              CHECK(fleet.chip_hours == Approx(brute.paid_hours).epsilon(1e-9));
              CHECK(fleet.replica_chips == brute.chips);
              ++checked;
              if (fleet.replica_chips >
                  setup.chip.node_chips *
                      std::ceil(hbm_bytes_needed(make_roofline(model, setup, "t"), 1.0, context) /
                                make_roofline(model, setup, "t").hbm_bytes)) {
                ++not_fewest;
              }
              if (fleet.demand_bound) ++demand_bound;
            }
          }
        }
      }
    }
  }
  // The grid reaches every kind of point: sizes above the fewest, and demand below a replica.
  CHECK(checked > 60);
  CHECK(not_fewest > 0);
  CHECK(demand_bound > 0);
}

TEST_CASE("a fleet is sized for the peak and paid for the duration, at least one replica",
          "[fleet]") {
  const std::vector<Hardware> chips = builtin_hardware();
  ServingSetup setup;
  setup.chip = find_hardware(chips, "h100-sxm");
  setup.chips = 8;
  setup.context_tokens = 4000;
  setup.usd_per_chip_hour = 2.0;
  Architecture model = architecture_preset("llama3-70b");
  const double seconds = 30 * 86400.0;
  // A demand far above one replica: replicas = p x busy, busy = E / (chips T).
  const FleetDemand big{0.5 * 1e7 * seconds, 0.5 * 1e7 * seconds, seconds};
  ServingSetup elastic = setup;
  elastic.elastic = true;
  const FleetPlan busy = plan_fleet(model, elastic, big, 4000, "t");
  setup.peak_to_mean = 278.0 / 226.75;  // DeepSeek's published day
  const FleetPlan peak = plan_fleet(model, setup, big, 4000, "t");
  REQUIRE(busy.busy_chip_hours > 8 * seconds / 3600.0);
  CHECK(peak.busy_replicas == Approx(busy.busy_chip_hours * 3600.0 / (8 * seconds)));
  CHECK(peak.replicas == Approx(setup.peak_to_mean * peak.busy_replicas).epsilon(1e-14));
  CHECK(peak.chip_hours == Approx(setup.peak_to_mean * busy.chip_hours).epsilon(1e-14));
  CHECK(peak.utilisation == Approx(226.75 / 278.0).epsilon(1e-14));
  CHECK(peak.idle_chip_hours == Approx(peak.chip_hours - busy.chip_hours).epsilon(1e-12));
  CHECK(peak.whole_replicas == std::ceil(peak.replicas));
  CHECK(peak.whole_replicas_usd ==
        Approx(peak.whole_replicas * 8 * seconds / 3600.0 * 2.0).epsilon(1e-14));
  CHECK(!peak.demand_bound);
  // A demand far below one replica's best batch: one replica for the whole month, so a token
  // costs more than the elastic price, the batch is what the demand fills, utilisation < 1.
  setup.peak_to_mean = 1.0;
  const FleetDemand small{0.5 * 100 * seconds, 0.5 * 100 * seconds, seconds};
  const FleetPlan idle = plan_fleet(model, setup, small, 4000, "t");
  const FleetPlan idle_elastic = plan_fleet(model, elastic, small, 4000, "t");
  CHECK(idle.demand_bound);
  CHECK(idle.replicas == 1.0);
  CHECK(idle.chip_hours == Approx(8 * seconds / 3600.0).epsilon(1e-15));
  CHECK(idle.chip_hours > idle_elastic.chip_hours);
  CHECK(idle.utilisation < 1.0);
  CHECK(idle.utilisation == Approx(idle_elastic.chip_hours / idle.chip_hours).epsilon(1e-14));
  CHECK(idle.d_chip_hours_d_log_params == 0.0);
  // Little's law: 50 output tokens/s in flight for one step each, t = a + B b: the batch B
  // solves B = 50 t(B), and is below the replica's best batch.
  CHECK(idle.batch < idle.plan.batch);
  const Roofline r = make_roofline(model, setup, "t");
  CHECK(idle.batch == Approx(50.0 * decode_step(r, idle.batch, 4000).seconds()).epsilon(1e-12));
}

TEST_CASE("lifetime questions choose the replica without inference.chips and say so",
          "[fleet][cli]") {
  const std::string text = llama3_70b_h100_scenario();
  const Scenario chosen = load_scenario_text(text, "chosen.toml");
  CHECK(chosen.serving.replica_chosen);
  const QuestionSetup setup = question_setup(chosen, *chosen.law, chosen.problem);
  const QuestionSolution nlopt = solve_question(setup, {}, SolveMethod::nlopt);
  REQUIRE(nlopt.status() == Status::converged);
  const QuestionSummary fast = solve_question_summary(setup, {});
  REQUIRE(fast.status() == Status::converged);
  // The two paths agree (the KKT tolerance) and report the same replica.
  CHECK(fast.answer.active_params == Approx(nlopt.answer.active_params).epsilon(1e-9));
  REQUIRE(nlopt.answer.fleet);
  CHECK(fast.answer.replica_chips == nlopt.answer.fleet->replica_chips);
  // The answer's replica is the brute force's at its N.
  const Architecture at_n = architecture_at(chosen.architecture, nlopt.answer.active_params);
  const FleetDemand demand{chosen.demand.input_tokens(), chosen.demand.output_tokens(),
                           chosen.demand.duration_seconds};
  const Brute brute = brute_fleet(at_n, chosen.serving, demand, 2000);
  CHECK(nlopt.answer.fleet->replica_chips == brute.chips);
  // Chosen, no "inference.chips = 8" among the assumptions.
  for (const std::string& line : chosen.assumptions) CHECK(!line.starts_with("inference.chips ="));
  // Given: the same question on 8 chips is never cheaper than the chosen size.
  const Scenario given = load_scenario_text(text, "given.toml", {"inference.chips=8"});
  CHECK(!given.serving.replica_chosen);
  const QuestionSummary on_8 =
      solve_question_summary(question_setup(given, *given.law, given.problem), {});
  REQUIRE(on_8.status() == Status::converged);
  CHECK(on_8.answer.replica_chips == 8.0);
  CHECK(on_8.answer.cost.total().usd >= fast.answer.cost.total().usd * (1 - 1e-9));
}

TEST_CASE("a latency target no replica size meets leaves the question infeasible, not an error",
          "[fleet][cli]") {
  // Llama 3 70B's loss needs about 70B parameters; at 0.1 ms a token a replica of one or two
  // H100 nodes (26.8 or 53.6 TB/s) reads at most 2.7 or 5.4 GB of weights per decode step:
  // models of a few billion parameters, whose loss at any data lies above the target (the
  // parameter term alone, A / N^alpha, exceeds the 70B optimum's whole reducible loss).
  const std::string text = llama3_70b_h100_scenario(R"(latency_per_token = "0.1ms"
max_replica_nodes = 2
)");
  // Each size given in turn: infeasible on its own.
  for (const std::string chips : {"8", "16"}) {
    const Scenario given = load_scenario_text(text, "given.toml", {"inference.chips=" + chips});
    INFO(chips);
    CHECK(solve_question(question_setup(given, *given.law, given.problem), {}).status() ==
          Status::infeasible);
  }
  const Scenario chosen = load_scenario_text(text, "chosen.toml");
  const QuestionSolution solution =
      solve_question(question_setup(chosen, *chosen.law, chosen.problem), {});
  CHECK(solution.status() == Status::infeasible);
  CHECK_THAT(solution.message(),
             Catch::StartsWith("no replica size of 1 to 2 nodes answers the question (2 tried)"));
}
