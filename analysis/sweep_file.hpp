#pragma once
// The files of a sweep. Rows go to OUT.partial as chunks of points are solved (written and
// flushed each time), so an interrupted or killed sweep keeps what it has done; a finished
// sweep renames the partial file to OUT, sorting the rows first when a resumed sweep wrote them
// out of order. Readers of OUT thus see a whole file or none (rename is atomic, POSIX).

#include <cstddef>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {

// OUT + ".partial".
std::string partial_path(const std::string& out);

struct PartialRows {
  std::vector<std::size_t> points;  // points already in the file, increasing
  bool ordered = true;              // the file lists them in increasing order
};

// Reads a partial file for --resume. Its provenance lines must equal `provenance` (else an
// InputError naming the first field that differs: another scenario or --set, another grid, ...),
// and the header `header`; each row must start with
// "point,points" (points = `grid_points`), with `accept(point)` true (the point is in this
// sweep's shard) and `values_text(point)` next (the grid's values as the rows print them). A
// last line without its newline (a kill in the middle of a write) is cut off the file. Throws
// InputError "FILE:LINE: ..." for anything else.
PartialRows read_partial(const std::string& path, const Provenance& provenance,
                         const std::string& header, std::size_t grid_points,
                         const std::function<bool(std::size_t)>& accept,
                         const std::function<std::string(std::size_t)>& values_text);

// Appends rows to the partial file, flushing each time.
class PartialFile {
 public:
  // Creates the file with `header` (the provenance lines and the CSV header, without the last
  // newline), or (append) opens it at its end.
  PartialFile(const std::string& path, const std::string& header, bool append);
  void append(const std::string& rows);  // throws InputError when the write fails

 private:
  std::string path_;
  std::ofstream stream_;
};

// The sweep is complete: `partial` becomes `out` (its rows sorted by point unless `ordered`):
// renamed when `out` is a regular file or new, else (a symbolic link) written through
// scenario/atomic_file.hpp, which refuses any of `inputs`.
void finish_partial(const std::string& partial, const std::string& out, bool ordered,
                    const std::vector<ReadFile>& inputs);

// Throws InputError "PATH: provenance field 'F' differs from this sweep's (what F means): ..."
// when `found` differs from `expected`, or "PATH: no provenance lines" when it has none.
void check_provenance(const std::string& path, const Provenance& found, const Provenance& expected);

// The point of a row (its first cell), or npos when the row does not start with a number.
std::size_t row_point(const std::string& text, std::size_t begin, std::size_t end);

}  // namespace scaleopt
