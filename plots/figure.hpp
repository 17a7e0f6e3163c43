#pragma once
// A figure as gnuplot draws it: the commands of a script and the data files they read. scaleopt
// computes every number and writes the script; gnuplot only draws (report/gnuplot_runner.hpp runs
// it, or `plot --script DIR` leaves the files for users who restyle).

#include <string>
#include <string_view>
#include <vector>

namespace scaleopt::plots {

enum class FigureFormat { svg, png };

// From a file name's extension, .svg or .png in any case; InputError "FLAG: ..." otherwise.
FigureFormat figure_format_of(std::string_view path, std::string_view flag);

struct DataFile {
  std::string name;  // "isoloss_contours.dat", relative to the script's directory
  std::string text;  // whitespace-separated columns under a '#' line naming them
};

struct Figure {
  std::string name;  // "isoloss": the script is NAME.gp, its data files NAME_*.dat
  int width = 1000;  // pixels (PNG) or SVG user units
  int height = 700;
  std::string commands;  // everything after the terminal and output lines
  std::vector<DataFile> data;
  // What the command prints beside the figure: what the figure leaves out and why ("params
  // falls over the whole range ...: no interior minimum").
  std::vector<std::string> notes;
};

// The terminal's font size in points: SVG (as the report shows figures) and PNG.
inline constexpr int kSvgFontSize = 12;
inline constexpr int kPngFontSize = 11;

// The whole script: a header saying what made it and how to run it, the terminal for `format`
// at the figure's size, `set output 'OUTPUT'` (gnuplot_path), then the figure's commands. When
// `directory` is not empty the script first changes into it (the data files are named relative to
// it).
std::string gnuplot_script(const Figure& figure, FigureFormat format, std::string_view output,
                           std::string_view directory = {});

}  // namespace scaleopt::plots
