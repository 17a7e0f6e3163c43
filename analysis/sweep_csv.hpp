#pragma once
// Reading a sweep file (scaleopt sweep --out, docs/cli.md) for `plot sweep`: its comment lines
// ('#', the provenance of analysis/sweep_provenance.hpp) are skipped, then its header
// (point, points, the varied inputs, then solve's keys flattened with dots) and the columns of
// one figure. Cells are split by libfccp; numbers are read as the sweep wrote them (the
// shortest text that reads back as the same double, empty where there is no number).

#include <optional>
#include <string>
#include <vector>

namespace scaleopt {

struct SweepHeader {
  std::vector<std::string> columns;  // every column, in order
  std::vector<std::string> inputs;   // the varied inputs: between "points" and "params"
};

// The text of a sweep file, read once through scenario/input_file.hpp (the sweep file size limit):
// a FIFO cannot be read twice.
std::string read_sweep_file(const std::string& path);

// `text` is the file's, `path` its name in messages. Throws InputError "FILE:1: not a sweep
// file: ..." when the header does not start with point,points and name a varied input before
// params.
SweepHeader read_sweep_header(const std::string& text, const std::string& path);

struct SweepRow {
  double x = 0.0;
  double y = 0.0;       // NaN when the cell is empty (no number: infeasible, or not priced)
  double series = 0.0;  // NaN without a series column
  std::string status;   // "converged", "infeasible", ...
};

// The rows of columns `x`, `y` and `series` (optional), with each row's status. Throws
// InputError "FILE:LINE: column 'y' (--y): ..." for a cell that is not a number, and the
// reader's errors (missing column, ragged row) with the flag that named the column.
std::vector<SweepRow> read_sweep_rows(const std::string& text, const std::string& path,
                                      const std::string& x, const std::string& y,
                                      const std::optional<std::string>& series);

}  // namespace scaleopt
