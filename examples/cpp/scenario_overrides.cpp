// A scenario file loaded with --set-style overrides and solved: the best model a $1B lifetime
// budget buys, as `scaleopt solve examples/budget_plan.toml --set problem.budget_usd=1B`.
//   scenario_overrides examples/budget_plan.toml

#include <iostream>

#include <scaleopt/scaleopt.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: scenario_overrides examples/budget_plan.toml\n";
    return 2;
  }
  try {
    // Each override is KEY=VALUE with the units of the file; it is checked like the file.
    const scaleopt::Scenario scenario = scaleopt::load_scenario(argv[1], {"problem.budget_usd=1B"});
    const scaleopt::QuestionSolution solution = scaleopt::solve_scenario(scenario, {});

    const scaleopt::QuestionAnswer& answer = solution.answer;
    std::cout << "status " << scaleopt::to_string(solution.status()) << "\n"
              << "params " << answer.total_params << "\n"
              << "pretrain_tokens " << answer.plan.pretrain_tokens << "\n"
              << "inference_tokens " << answer.inference_tokens << "\n"
              << "loss " << answer.plan.loss << "\n"
              << "cost_usd " << answer.plan.cost.total().usd << "\n";
    return solution.status() == scaleopt::Status::converged ? 0 : 1;
  } catch (const scaleopt::InputError& error) {
    std::cerr << "scenario_overrides: error: " << error.what() << "\n";
    return 2;
  }
}
