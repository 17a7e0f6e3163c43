// The compute-optimal model for a training budget in FLOPs (Hoffmann et al. 2022): the (N, D)
// of least loss with 6 N D = C, as `scaleopt optimal --compute C --law hoffmann2022`.
//   compute_optimal [FLOPS]   (default 5.76e23, Chinchilla's budget; "1e24" or "2.5e25")

#include <iostream>

#include <scaleopt/scaleopt.hpp>

int main(int argc, char** argv) {
  try {
    const double compute_flops =
        scaleopt::parse_quantity(argc > 1 ? argv[1] : "5.76e23", scaleopt::Unit::count);

    const scaleopt::AllocationRule rule{.law = scaleopt::loss_law_preset("hoffmann2022"),
                                        .tokens_per_param = std::nullopt};  // the law's frontier
    const scaleopt::Allocation best = scaleopt::optimal_for_compute(rule, compute_flops);

    std::cout << "params " << best.params << "\n"
              << "tokens " << best.tokens << "\n"
              << "tokens_per_param " << best.tokens_per_param() << "\n"
              << "loss " << best.loss << "\n"
              << "status " << scaleopt::to_string(best.solve.status) << "\n";
    return best.solve.status == scaleopt::Status::converged ? 0 : 1;
  } catch (const scaleopt::InputError& error) {  // a budget that is not a positive number
    std::cerr << "compute_optimal: error: " << error.what() << "\n";
    return 2;
  }
}
