#include "scaleopt/problems/fit/bootstrap_resample.hpp"

#include <limits>

namespace scaleopt {

std::mt19937_64 replicate_generator(std::uint64_t seed, std::uint64_t replicate) {
  // seed_seq takes 32-bit words: both 64-bit numbers go in whole.
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(replicate),
                         static_cast<std::uint32_t>(replicate >> 32)};
  return std::mt19937_64(sequence);
}

std::uint64_t uniform_below(std::mt19937_64& generator, std::uint64_t bound) {
  // 2^64 mod bound, computed without overflow as (2^64 - bound) mod bound.
  const std::uint64_t excess = (std::numeric_limits<std::uint64_t>::max() - bound + 1) % bound;
  // Draws in [0, excess) would make the low residues more likely; rejecting them leaves
  // 2^64 - excess values, a multiple of bound.
  for (;;) {
    const std::uint64_t draw = generator();
    if (draw >= excess) return draw % bound;
  }
}

std::vector<unsigned> resample_counts(std::size_t count, std::mt19937_64& generator) {
  std::vector<unsigned> counts(count, 0);
  for (std::size_t k = 0; k < count; ++k) ++counts[uniform_below(generator, count)];
  return counts;
}

}  // namespace scaleopt
