// A sweep as rows of numbers: the cheapest model reaching Sardana et al.'s loss for 1e9, 1e10
// and 1e11 requests served, as `scaleopt sweep SCENARIO --vary inference.requests=1e9..1e11:log:3`
// without the CSV.
//   sweep examples/sardana_cost.toml

#include <iostream>
#include <vector>

#include <scaleopt/scaleopt.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: sweep examples/sardana_cost.toml\n";
    return 2;
  }
  try {
    const scaleopt::Scenario scenario = scaleopt::load_scenario(argv[1]);
    const scaleopt::SweepGrid grid(
        {scaleopt::parse_vary(scenario, "inference.requests=1e9..1e11:log:3")});
    const std::vector<scaleopt::SweepPoint> points = scaleopt::solve_sweep(scenario, grid);

    std::cout << "requests params pretrain_tokens cost_usd status\n";
    for (const scaleopt::SweepPoint& point : points) {
      const scaleopt::AnswerSummary& answer = point.summary.answer;
      std::cout << point.values[0] << " " << answer.params << " " << answer.pretrain_tokens << " "
                << answer.cost.total().usd << " " << scaleopt::to_string(point.status()) << "\n";
    }
  } catch (const scaleopt::InputError& error) {
    std::cerr << "sweep: error: " << error.what() << "\n";
    return 2;
  }
}
