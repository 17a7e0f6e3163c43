#pragma once
// Joining the CSV files of a sharded sweep (scaleopt merge): the headers must be equal, and
// every point from 0 to points - 1 present exactly once. The rows are kept as they are (text),
// ordered by point, so the merge of the shards equals the unsharded sweep byte for byte.

#include <string>
#include <vector>

namespace scaleopt {

// The merged file's text. Throws InputError naming the file (and line) for a header that
// differs, a row that is not "point,points,...", a point given twice or missing, or files of
// different grids.
std::string merge_sweep_files(const std::vector<std::string>& paths);

}  // namespace scaleopt
