// solve_sweep (docs/library.md): a sweep as numbers in memory. Every point in grid order with
// its grid values, each answer the one the scenario gives with that value set by --set and
// solved on its own, on one thread or two.

#include <catch2/catch.hpp>
#include <charconv>
#include <string>

#include "example_path.hpp"
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"

namespace {

using namespace scaleopt;

// The shortest text that reads back as the same double.
std::string shortest(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return {buffer, end};
}

}  // namespace

TEST_CASE("solve_sweep: each point in order, as the scenario solved with --set", "[sweep]") {
  const std::string path = example("sardana_cost.toml");
  const Scenario scenario = load_scenario(path);
  const SweepGrid grid({parse_vary(scenario, "inference.decode_mfu=0.1..0.3:2"),
                        parse_vary(scenario, "inference.requests=1e9..1e11:log:3")});
  for (const unsigned threads : {1U, 2U}) {
    SweepOptions options;
    options.threads = threads;
    const std::vector<SweepPoint> points = solve_sweep(scenario, grid, options);
    REQUIRE(points.size() == 6);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const SweepPoint& point = points[i];
      INFO("threads " << threads << ", point " << i);
      CHECK(point.point == i);
      // Row-major: the first axis varies slowest.
      CHECK(point.values ==
            std::vector<double>{grid.axes()[0].value(i / 3), grid.axes()[1].value(i % 3)});
      REQUIRE(point.status() == Status::converged);
      const Scenario set = load_scenario(path, {"inference.decode_mfu=" + shortest(point.values[0]),
                                                "inference.requests=" + shortest(point.values[1])});
      const QuestionSummary alone = solve_question_summary(scenario_setup(set), {});
      // The same inputs through the same code: identical, not merely close.
      CHECK(point.summary.answer.params == alone.answer.params);
      CHECK(point.summary.answer.pretrain_tokens == alone.answer.pretrain_tokens);
      CHECK(point.summary.answer.cost.total().usd == alone.answer.cost.total().usd);
      CHECK(point.summary.answer.loss == alone.answer.loss);
    }
  }
}
