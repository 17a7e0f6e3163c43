#pragma once
// The largest count every front end accepts (docs/cli.md, "Limits"): one definition each, for
// the command line, the Python module and any program calling the library. Work, memory or
// threads grow with these counts, so a mistyped 1000000000 must be refused at once, with the
// limit in the message, rather than die of bad_alloc or run for days. Where memory does not
// grow with a count (the stress run and sweeps stream their records) the limit bounds the time
// only.
//
// The library call that takes a count checks it (`kStartsLimit.check(options.starts)` in
// SolverOptions::validate, and so on), so that no front end can forget one; its InputError
// names the library's parameter ("starts: at most 100 (the limit), got 1000000000"), which is
// also the Python module's keyword. The command line reads the same numbers for its flags
// (cli/flags.hpp count_check), so its messages name the flag (--starts), and it maps a refusal
// by the library to the flag (cli/app.cpp). Here in solver/, the lowest layer that does work a
// count multiplies, so that every layer above checks its counts against this one table.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace scaleopt {

// A count a library call takes, with the range it accepts.
struct CountLimit {
  std::string_view parameter;  // the library's name of the count, and Python's keyword
  std::uint64_t lowest = 0;
  std::uint64_t highest = 0;

  // Throws InputError "PARAMETER: at most HIGHEST (the limit), got COUNT" above the range,
  // "PARAMETER: must be from LOWEST to HIGHEST, got COUNT" below it, "PARAMETER: must be a whole
  // number (from LOWEST to HIGHEST), got 4.5" for a fraction or NaN. A double, so that a front
  // end passes any number it was given (a Python int of 10^30) unharmed.
  void check(double count) const;
};

// Threads of any parallel work (--threads, threads=): far above any machine's cores, low
// enough that a typo does not start a million. 0 means one per hardware thread.
inline constexpr std::uint64_t kMaxThreads = 1024;
inline constexpr CountLimit kThreadsLimit{"threads", 0, kMaxThreads};

// Starts of an NLopt solve (--starts): each is a run of up to max_evaluations; 100 starts
// already take seconds on the largest problems.
inline constexpr std::uint64_t kMaxStarts = 100;
inline constexpr CountLimit kStartsLimit{"starts", 1, kMaxStarts};

// Further starts tried while no start has verified (SolverOptions::fallback_starts; no flag):
// the same cost per start as `starts`.
inline constexpr CountLimit kFallbackStartsLimit{"fallback_starts", 0, kMaxStarts};

// Objective evaluations per start (--max-evaluations): SLSQP needs tens; a million is a
// generous ceiling that still ends within minutes.
inline constexpr std::uint64_t kMaxEvaluations = 1'000'000;
inline constexpr CountLimit kEvaluationsLimit{"max_evaluations", 1, kMaxEvaluations};

// Bootstrap replicates of a fit (fit --bootstrap): each is a warm-started refit, and each is
// kept for the spreads. 0 is none; 1 is refused by BootstrapOptions (no spread from one).
inline constexpr std::uint64_t kMaxBootstrap = 100'000;
inline constexpr CountLimit kBootstrapLimit{"bootstrap", 0, kMaxBootstrap};

// Monte Carlo samples (uncertainty --samples, plot uncertainty --samples): the quantiles need
// every converged sample's outputs in memory (~100 bytes each), and --out holds every row
// (~0.5 KB).
inline constexpr std::uint64_t kMaxSamples = 1'000'000;
inline constexpr CountLimit kSamplesLimit{"samples", 1, kMaxSamples};

// Instances of the stress run (selftest --instances): the summary and the failures kept are
// bounded whatever the count, so this bounds the time only.
inline constexpr std::uint64_t kMaxInstances = 1'000'000'000;
inline constexpr CountLimit kInstancesLimit{"instances", 1, kMaxInstances};

// The stress run's failing instances kept with their reproduction (the table prints the first
// ten, --json these); the rest are counted.
inline constexpr std::uint64_t kMaxFailuresKept = 1000;
inline constexpr CountLimit kFailuresKeptLimit{"failures_kept", 0, kMaxFailuresKept};

// The points of one sweep axis (--vary PATH=LO..HI:COUNT, or the values listed for it), and of
// the grid (the product of the counts). Rows stream to the file, so these bound the time and
// the file's size, not memory; a sweep held in memory is bounded by in_memory_limit_bytes too.
inline constexpr std::uint64_t kMaxAxisPoints = 1'000'000'000;
inline constexpr double kMaxGridPoints = 1e12;

// The contexts of a pricing curve (pricing curve --points): every row is held as JSON before
// it is printed (~2 KB).
inline constexpr std::uint64_t kMaxCurvePoints = 10'000;
inline constexpr CountLimit kCurvePointsLimit{"points", 1, kMaxCurvePoints};

// Points marked on a sweep's figure (plot sweep --mark): each is a label drawn over the
// figure; more than a handful would hide the lines they annotate.
inline constexpr std::uint64_t kMaxMarks = 20;
inline constexpr CountLimit kMarksLimit{"marks", 0, kMaxMarks};
inline constexpr std::size_t kMaxMarkLabelBytes = 200;

// Counts that cost no work (--chips, --batch, --kv-heads, --share-layers, --model-layers,
// --drop-highest-loss): the limit only keeps a typo from reading as a number of chips or heads
// no system has.
inline constexpr std::uint64_t kMaxShapeCount = 1'000'000'000;

// Every CountLimit above, for a front end that checks a count by its parameter's name (the
// Python module's keywords) and for the docs' table.
std::span<const CountLimit> count_limits();

// The CountLimit of `parameter`, or nullptr.
const CountLimit* find_count_limit(std::string_view parameter);

// The most memory one answer may take while it is built in memory (a sweep's columns for a
// DataFrame): half of the machine's physical memory (sysconf _SC_PHYS_PAGES x _SC_PAGESIZE),
// since what holds the answer may copy it once (pandas does, into its blocks). An estimate
// above it would end in bad_alloc, or in the machine swapping for hours. Not the memory free
// now (_SC_AVPHYS_PAGES): that leaves out the page cache, which the kernel gives back, so it
// would refuse a sweep that fits, and differently from one minute to the next.
std::uint64_t in_memory_limit_bytes();

// Why `count` is no count from `lowest` to `highest` ("at most 100 (the limit), got SHOWN", "must
// be from 1 to 100, got SHOWN", "must be a whole number (from 1 to 100), got SHOWN"), or empty:
// the words of every refusal of a count, the library's (CountLimit::check) and the flags'
// (cli/flags.hpp), where `shown` is the count as its caller was given it.
std::string count_problem(double count, std::uint64_t lowest, std::uint64_t highest,
                          std::string_view shown);

// `count` as limits are written in messages and --help: "1e9" where it is a power of ten of at
// least 1e6, its digits otherwise.
std::string count_text(std::uint64_t count);

}  // namespace scaleopt
