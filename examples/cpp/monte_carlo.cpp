// Monte Carlo over a scenario's [uncertainty] table: quantiles of the optimum's outputs over
// 200 samples, as `scaleopt uncertainty SCENARIO --samples 200 --seed 1`.
//   monte_carlo examples/frontier_uncertain.toml

#include <iostream>

#include <scaleopt/scaleopt.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: monte_carlo examples/frontier_uncertain.toml\n";
    return 2;
  }
  try {
    const scaleopt::Scenario scenario = scaleopt::load_scenario(argv[1]);
    scaleopt::MonteCarloOptions options;  // every field has a default (analysis/monte_carlo.hpp)
    options.samples = 200;
    options.seed = 1;
    const scaleopt::MonteCarloReport report = scaleopt::run_monte_carlo(scenario, options);

    std::cout << "samples " << report.samples << " converged " << report.converged << " invalid "
              << report.invalid << "\n";
    for (std::size_t i = 0; i < scaleopt::kElasticityOutputs.size(); ++i) {
      const scaleopt::Quantiles& q = report.quantiles[i];
      std::cout << scaleopt::kElasticityOutputs[i] << " p05 " << q.p05 << " p50 " << q.p50
                << " p95 " << q.p95 << "\n";
    }
  } catch (const scaleopt::InputError& error) {
    std::cerr << "monte_carlo: error: " << error.what() << "\n";
    return 2;
  }
}
