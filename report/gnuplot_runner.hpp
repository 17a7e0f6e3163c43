#pragma once
// Drawing a figure (plots/figure.hpp) with gnuplot, or leaving its script and data files for
// users who restyle. gnuplot is looked up on PATH; when it is missing the error says how to
// install it. No half-written file is ever left: images go to a temporary sibling of the
// target, renamed over it only when gnuplot succeeded.

#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt::report {

// How gnuplot is run: with a UTF-8 locale of its own (LC_ALL=C.UTF-8, which every Debian has),
// whatever ours is. Every script says `set encoding utf8`; under a locale that is not UTF-8
// (containers, cron, `env -i`) gnuplot warns that it cannot convert the degree sign, a warning
// that would be passed on as if the figure were wrong.
ProcessOptions gnuplot_process_options();

// Draws `figure` into `out` (format from its extension; scenario/atomic_file.hpp, which refuses any
// of `inputs`). Returns what gnuplot printed (its warnings; empty when all went well). Throws
// InputError naming `flag` for an unwritable target, or quoting gnuplot when it fails.
std::string draw_figure(const plots::Figure& figure, const std::string& out,
                        const std::vector<ReadFile>& inputs, std::string_view flag = "out");

// The SVG text of `figure` (for the HTML report), drawn in a temporary directory.
std::string figure_svg(const plots::Figure& figure);

// Writes DIRECTORY/NAME.gp and the figure's data files, each atomically (none may be one of
// `inputs`). DIRECTORY is created when its parent exists, never more than that one folder (a
// mistyped path must not grow a tree of folders), and removed again when a write fails. The
// script draws into `output` (a file name relative to DIRECTORY) in `format`. Returns the paths
// written, the script first.
std::vector<std::string> write_figure_script(const plots::Figure& figure,
                                             const std::string& directory,
                                             const std::string& output, plots::FigureFormat format,
                                             const std::vector<ReadFile>& inputs);

}  // namespace scaleopt::report
