// `scaleopt solve --json SCENARIO [--set KEY=VALUE ...]` as a program of one's own: the same
// JSON, keys and numbers (report/lifecycle_output.hpp builds it for both).
//   solve_json examples/sardana_cost.toml [KEY=VALUE ...]

#include <iostream>
#include <string>
#include <vector>

#include <scaleopt/scaleopt.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: solve_json SCENARIO.toml [KEY=VALUE ...]\n";
    return 2;
  }
  try {
    const std::vector<std::string> overrides(argv + 2, argv + argc);
    const scaleopt::Scenario scenario = scaleopt::load_scenario(argv[1], overrides);
    const scaleopt::QuestionSolution solution = scaleopt::solve_scenario(scenario, {});
    std::cout << scaleopt::report::solution_json(scenario, *scenario.law, solution).dump(2) << "\n";
    return solution.status() == scaleopt::Status::converged ? 0 : 1;
  } catch (const scaleopt::InputError& error) {  // bad input: one line, as the command
    std::cerr << "solve_json: error: " << error.what() << "\n";
    return 2;
  }
}
