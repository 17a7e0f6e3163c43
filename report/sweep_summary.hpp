#pragma once
// What `scaleopt sweep --json` prints when it stops: the file written, how many points were
// solved and how they ended (the rows themselves are the file).

#include <cstddef>
#include <string>

#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

struct SweepSummary {
  std::string file;       // the sweep file, or its partial file when not complete
  bool complete = false;  // false: interrupted or stopped by --stop-after
  std::size_t grid_points = 0;
  std::string shard;  // "1/1"
  std::size_t resumed_points = 0;
  SweepTally tally;  // the points solved in this run, by status
  double seconds = 0.0;
};

// {schema_version, file, complete, grid_points, shard, resumed_points, solved_points,
// converged, infeasible, not_converged, invalid_input, fast_path, seconds}
Json sweep_summary_json(const SweepSummary& summary);

}  // namespace scaleopt::report
