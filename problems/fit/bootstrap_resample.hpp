#pragma once
// Resampling with replacement for the bootstrap, reproducible from (seed, replicate) alone:
// each replicate draws from its own std::mt19937_64, seeded through std::seed_seq with the
// seed and the replicate index, so replicates can run on any thread in any order. Both
// std::mt19937_64 and std::seed_seq are specified exactly by the C++ standard, and the
// integers are drawn below without std::uniform_int_distribution (whose algorithm is left to
// each standard library), so the same seed gives the same replicates everywhere.

#include <cstdint>
#include <random>
#include <vector>

namespace scaleopt {

// The generator of replicate `replicate` of a bootstrap seeded with `seed`.
std::mt19937_64 replicate_generator(std::uint64_t seed, std::uint64_t replicate);

// A uniform integer in [0, bound), bound > 0, without modulo bias: 64-bit draws at or above
// the largest multiple of `bound` are rejected (at most one in two draws, and almost never for
// small bounds).
std::uint64_t uniform_below(std::mt19937_64& generator, std::uint64_t bound);

// How many times each of `count` items is drawn in `count` draws with replacement (the counts
// sum to `count`).
std::vector<unsigned> resample_counts(std::size_t count, std::mt19937_64& generator);

}  // namespace scaleopt
