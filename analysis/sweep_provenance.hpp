#pragma once
// Where a sweep or Monte Carlo file came from, as comment lines before its CSV header:
//
//   # scaleopt-provenance: schema=2
//   # scaleopt-provenance: version=0.1.0
//   # scaleopt-provenance: command=sweep
//   # scaleopt-provenance: grid=inference.rate=1e+06..1e+09:log:50
//   # scaleopt-provenance: scenario=5f0c1d2e3a4b5c6d
//   # scaleopt-provenance: solver=method=auto algorithm=LD_SLSQP ...
//   # scaleopt-provenance: shard=all
//
// (pandas: read_csv(path, comment="#"); R: read.csv(path, comment.char="#")). `scenario` is the
// fingerprint of the scenario as solved, after --set (scenario/scenario_fingerprint.hpp), less
// the varied inputs; `grid` the axes of --vary in a canonical form (the values in the input's
// base unit, shortest round-trip text), from which a merge recomputes every point's values;
// `shard` is i/n for a shard and "all" for a file holding the whole grid (an unsharded sweep,
// or a merge), so the merge of the shards equals the unsharded sweep byte for byte, these
// lines included. A Monte Carlo file has `samples` and `seed` instead of `grid` and `shard`.
// --resume and merge refuse a file whose lines differ in any field but `shard`, naming the field.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

inline constexpr std::string_view kProvenancePrefix = "# scaleopt-provenance: ";
// The version of the files' layout (these lines and the columns); raised when either changes
// in a way a reader would notice. Not report::kJsonSchemaVersion, which numbers the layout of
// the --json answers (docs/json.md): a CSV file and a JSON answer change independently (a new
// JSON key leaves the files as they were), and a reader of either checks only its own number.
inline constexpr int kSweepFileSchema = 2;

// scaleopt's version (CMake's project version): what `scaleopt --version` prints and the
// provenance lines record.
std::string scaleopt_version();

struct Provenance {
  std::vector<std::pair<std::string, std::string>> fields;     // key, value; in file order
  const std::string* find(std::string_view key) const;         // nullptr when absent
  void set(const std::string& key, const std::string& value);  // replaces, or appends
  std::string text() const;  // the lines, each "# scaleopt-provenance: KEY=VALUE\n"
};

// Adds the field of one line (without its newline) when it is a provenance line; returns
// whether it was one.
bool read_provenance_line(std::string_view line, Provenance& provenance);

// The provenance lines at the start of `text`. Returns the offset of the first line that is
// not one (the CSV header), and fills `provenance` (empty for a file without them).
std::size_t read_provenance(std::string_view text, Provenance& provenance);

// The first field of `expected` that `found` lacks or gives another value, or "" when they
// agree. `ignored` fields are not compared.
std::string provenance_mismatch(const Provenance& found, const Provenance& expected,
                                std::string_view ignored = {});

// What a differing field means, for messages: "another scenario file or --set" for scenario.
std::string provenance_field_meaning(std::string_view field);

// The axes of a grid in the canonical form of the `grid` field.
std::string grid_spec(const SweepGrid& grid);

struct GridSpecAxis {
  std::string path;
  double low = 0.0;
  double high = 0.0;
  bool log_scale = false;
  std::size_t count = 0;
};
// Parses a `grid` field; throws InputError "WHERE: grid: ..." when it is not one.
std::vector<GridSpecAxis> parse_grid_spec(std::string_view spec, const std::string& where);

// "all" for the whole grid (1/1), else "i/n".
std::string shard_text(const Shard& shard);
// Parses a `shard` field ("all" is 1/1); throws InputError "WHERE: shard: ...".
Shard parse_shard_field(std::string_view text, const std::string& where);

// The provenance of a sweep of `scenario` (as solved, after --set) on `grid`.
Provenance sweep_provenance(const Scenario& scenario, const SweepGrid& grid, const Shard& shard,
                            SolveMethod method, const SolverOptions& solver);

// The provenance of a Monte Carlo run's samples file.
Provenance uncertainty_provenance(const Scenario& scenario, const MonteCarloOptions& options);

}  // namespace scaleopt
