#pragma once
// Joining the CSV files of a sharded sweep (scaleopt merge), streamed: a k-way merge of the
// files in point order (each file lists its points in increasing order), so memory is a line
// per file whatever the number of points (10^7 points in 8 shards: docs/scaling-out.md).
//
// The merge proves the files answer one question and cover it:
// - their provenance lines (analysis/sweep_provenance.hpp) agree in every field but `shard`:
//   the same scenario as solved (after --set), grid, solver options, version and schema;
// - the headers are equal;
// - every row is a point of its file's shard, with the grid's values for that point
//   (recomputed from the recorded grid, compared as text);
// - every point from 0 to points - 1 is there exactly once.
// The rows are copied as they are (text), so the merge of the shards equals the unsharded
// sweep byte for byte; its provenance says shard=all, as the unsharded sweep's does.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace scaleopt {

// Streams the merged file to `write` in pieces and returns the number of points. Throws
// InputError naming the file (and line) and the field for anything above that fails.
std::size_t merge_sweep_files(const std::vector<std::string>& paths,
                              const std::function<void(std::string_view)>& write);

}  // namespace scaleopt
