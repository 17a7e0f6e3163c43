#pragma once
// The largest counts the analyses accept (docs/cli.md, "Limits"), checked by the library itself
// so that a program calling it is bounded like the command line: a Monte Carlo run's samples
// (monte_carlo.hpp) and a sweep's points (sweep_grid.hpp). The flags' own maxima are in
// cli/limits.hpp.

#include <cstdint>

namespace scaleopt {

// Monte Carlo samples (uncertainty --samples, plot uncertainty --samples): the quantiles need
// every converged sample's outputs in memory (~100 bytes each), and --out holds every row
// (~0.5 KB).
inline constexpr std::uint64_t kMaxSamples = 1'000'000;

// The points of one sweep axis (--vary PATH=LO..HI:COUNT), and of the grid (the product of the
// counts). Rows stream to the file, so these bound the time and the file's size, not memory.
inline constexpr std::uint64_t kMaxAxisPoints = 1'000'000'000;
inline constexpr double kMaxGridPoints = 1e12;

}  // namespace scaleopt
