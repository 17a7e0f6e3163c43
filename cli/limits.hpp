#pragma once
// The largest count each flag accepts (docs/cli.md, "Limits"). Work, memory or threads grow
// with these counts, so a mistyped 1000000000 must be refused at once, with the limit in the
// message, rather than die of bad_alloc or run for days. Where memory does not grow with a
// count (the stress run and sweeps stream their records) the limit bounds the time only. The
// counts the library checks itself (Monte Carlo samples, sweep points) are in
// analysis/limits.hpp, included here.

#include <cstddef>
#include <cstdint>

#include "scaleopt/analysis/limits.hpp"

namespace scaleopt::cli {

// --threads: far above any machine's cores, low enough that a typo does not start a million.
inline constexpr std::uint64_t kMaxThreads = 1024;

// --starts: each start is an NLopt run of up to --max-evaluations; 100 starts already take
// seconds on the largest problems.
inline constexpr std::uint64_t kMaxStarts = 100;

// --max-evaluations (per start): SLSQP needs tens; a million is a generous ceiling that still
// ends within minutes.
inline constexpr std::uint64_t kMaxEvaluations = 1'000'000;

// selftest --instances: the summary and the failures kept are bounded whatever the count, so
// this bounds the time only.
inline constexpr std::uint64_t kMaxInstances = 1'000'000'000;

// selftest: failing instances kept with their reproduction (the table prints the first ten,
// --json these); the rest are counted.
inline constexpr std::uint64_t kMaxFailuresKept = 1000;

// uncertainty --samples, plot uncertainty --samples: kMaxSamples (analysis/limits.hpp).

// fit --bootstrap: each replicate is a warm-started refit, and each is kept for the spreads.
inline constexpr std::uint64_t kMaxBootstrap = 100'000;

// plot sweep --mark: each is a label drawn over the figure; more than a handful would hide the
// lines they annotate.
inline constexpr std::uint64_t kMaxMarks = 20;
inline constexpr std::size_t kMaxMarkLabelBytes = 200;

// pricing curve --points: every row is held as JSON before it is printed (~2 KB).
inline constexpr std::uint64_t kMaxCurvePoints = 10'000;

// sweep --vary PATH=LO..HI:COUNT, and the grid: kMaxAxisPoints and kMaxGridPoints
// (analysis/limits.hpp).

// Counts that cost no work (--chips, --batch, --kv-heads, --share-layers, --model-layers,
// --drop-highest-loss): the limit only keeps a typo from reading as a number of chips or heads
// no system has.
inline constexpr std::uint64_t kMaxShapeCount = 1'000'000'000;

// A sweep of more points than this prints its estimated file size on stderr before it starts.
inline constexpr std::uint64_t kSweepSizeNotePoints = 10'000'000;

}  // namespace scaleopt::cli
