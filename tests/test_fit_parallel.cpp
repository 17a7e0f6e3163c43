// Parallel starts and bootstrap replicates: every index once, the same answer and the same
// exception at any thread count, and reproducible resampling.

#include <atomic>
#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>

#include "fit_test_data.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/bootstrap_resample.hpp"
#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/solver/parallel_for.hpp"

using namespace scaleopt;

TEST_CASE("parallel_for runs every index exactly once", "[fit][parallel]") {
  for (unsigned threads : {1u, 2u, 5u, 0u}) {
    std::vector<std::atomic<int>> calls(1000);
    parallel_for(calls.size(), threads, [&](std::size_t i) { ++calls[i]; });
    for (const auto& c : calls) REQUIRE(c.load() == 1);
  }
  parallel_for(0, 3, [](std::size_t) { FAIL("no index to run"); });
}

TEST_CASE("parallel_for rethrows the lowest failing index's exception at any thread count",
          "[fit][parallel]") {
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    CHECK_THROWS_WITH(parallel_for(200, threads,
                                   [](std::size_t i) {
                                     if (i == 150) throw std::runtime_error("index 150");
                                     if (i == 37) throw InputError("index 37");
                                   }),
                      "index 37");
    CHECK_THROWS_AS(parallel_for(50, threads,
                                 [](std::size_t i) {
                                   if (i == 3) throw InputError("bad run");
                                 }),
                    InputError);
  }
}

TEST_CASE("resampling is a function of (seed, replicate) alone", "[fit][bootstrap]") {
  auto counts = [](std::uint64_t seed, std::uint64_t replicate) {
    std::mt19937_64 generator = replicate_generator(seed, replicate);
    return resample_counts(240, generator);
  };
  const std::vector<unsigned> first = counts(1, 0);
  unsigned total = 0, distinct = 0;
  for (unsigned c : first) {
    total += c;
    distinct += c > 0;
  }
  CHECK(total == 240);
  // About 1 - 1/e = 63% of the runs appear in a resample of the same size.
  CHECK(distinct > 130);
  CHECK(distinct < 175);
  CHECK(counts(1, 0) == first);
  CHECK(counts(1, 1) != first);
  CHECK(counts(2, 0) != first);
  // The upper 32 bits of seed and replicate count too.
  CHECK(counts(1 + (std::uint64_t{1} << 32), 0) != first);
  CHECK(counts(1, std::uint64_t{1} << 32) != first);
}

TEST_CASE("uniform_below is uniform and stays below its bound", "[fit][bootstrap]") {
  std::mt19937_64 generator = replicate_generator(5, 0);
  std::array<int, 6> histogram{};
  for (int k = 0; k < 60000; ++k) ++histogram[uniform_below(generator, 6)];
  // Binomial(60000, 1/6): mean 10000, sigma 91; 5 sigma.
  for (int count : histogram) CHECK(std::abs(count - 10000) < 5 * 91);
  // A bound just above 2^63 rejects almost half of the draws; results must stay below it.
  const std::uint64_t big = (std::uint64_t{1} << 63) + 1;
  for (int k = 0; k < 1000; ++k) REQUIRE(uniform_below(generator, big) < big);
  CHECK(uniform_below(generator, 1) == 0);
}

TEST_CASE("fit and bootstrap give identical results at 1 and 3 threads",
          "[fit][parallel][bootstrap]") {
  const std::vector<TrainingRun> runs =
      synthetic_runs(loss_law_preset("epoch2024"), 10, 6, 0.02, 11);
  std::array<FitResult, 2> fits;
  std::array<BootstrapResult, 2> boots;
  const unsigned thread_counts[2] = {1, 3};
  for (std::size_t k = 0; k < 2; ++k) {
    FitOptions options;
    options.threads = thread_counts[k];
    fits[k] = fit_scaling_law(runs, options);
    boots[k] = bootstrap_scaling_law(runs, fits[k], options, {.replicates = 100, .seed = 42});
  }
  REQUIRE(fits[0].converged());
  // Bit for bit, not approximately.
  CHECK(fits[0].x == fits[1].x);
  CHECK(fits[0].objective == fits[1].objective);
  CHECK(fits[0].best_start == fits[1].best_start);
  CHECK(fits[0].starts_converged == fits[1].starts_converged);
  CHECK(fits[0].evaluations == fits[1].evaluations);
  CHECK(boots[0].converged == boots[1].converged);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(boots[0].coefficients[i].standard_error == boots[1].coefficients[i].standard_error);
    CHECK(boots[0].coefficients[i].lower == boots[1].coefficients[i].lower);
    CHECK(boots[0].coefficients[i].upper == boots[1].coefficients[i].upper);
  }
  CHECK(boots[0].covariance == boots[1].covariance);
  CHECK(boots[0].tokens_per_param.standard_error == boots[1].tokens_per_param.standard_error);
  // Another seed resamples differently.
  const BootstrapResult other =
      bootstrap_scaling_law(runs, fits[0], FitOptions{}, {.replicates = 100, .seed = 43});
  CHECK(other.coefficients[3].standard_error != boots[0].coefficients[3].standard_error);
}
