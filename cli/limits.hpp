#pragma once
// The limits of the flags: the library's (solver/limits.hpp), whose counts every flag reads, and
// the thresholds only the command line has.

#include <cstdint>

#include "scaleopt/solver/limits.hpp"

namespace scaleopt::cli {

// A sweep of more points than this prints its estimated file size on stderr before it starts.
inline constexpr std::uint64_t kSweepSizeNotePoints = 10'000'000;

}  // namespace scaleopt::cli
