#pragma once
// Random numbers for Monte Carlo samples, reproducible from (seed, sample index) alone, so that
// samples can be drawn on any thread in any order and the same seed gives the same answer at
// any thread count (as problems/fit/bootstrap_resample.hpp does for bootstrap replicates).
//
// Each sample gets its own SplitMix64 stream (Steele, Lea & Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014; the generator Java's SplittableRandom and
// Vigna's xoshiro seeding use): a 64-bit counter stepped by the golden ratio and a fixed
// mixing function, specified exactly here, so every platform draws the same numbers. Seeding
// it costs nothing, where a std::mt19937_64 seeded through std::seed_seq (the bootstrap's
// choice, fine for a thousand refits) costs ~3 microseconds: more than a whole solve of the
// fast path, for each of 10^5 samples.
//
// Uniform doubles take the top 53 bits; normal deviates use the Box-Muller transform with one
// of its two outputs (so each deviate takes exactly two draws and a sample's n-th number does
// not depend on what else was drawn).

#include <cmath>
#include <cstdint>

namespace scaleopt {

class SampleGenerator {
 public:
  // The stream of sample `index` of a run seeded with `seed`.
  SampleGenerator(std::uint64_t seed, std::uint64_t index)
      : state_(mix(seed ^ mix(index + kGolden))) {}

  std::uint64_t next() {
    state_ += kGolden;
    return mix(state_);
  }
  // Uniform in [0, 1), multiples of 2^-53.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Standard normal (Box-Muller: sqrt(-2 ln u1) cos(2 pi u2), u1 in (0, 1]).
  double normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
  }

 private:
  static constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
  // SplitMix64's finaliser (the variant of Stafford's Mix13 in the paper above).
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

}  // namespace scaleopt
