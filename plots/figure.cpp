#include "scaleopt/plots/figure.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"

namespace scaleopt::plots {

FigureFormat figure_format_of(std::string_view path, std::string_view flag) {
  const auto dot = path.rfind('.');
  std::string extension(dot == std::string_view::npos ? "" : path.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == "svg") return FigureFormat::svg;
  if (extension == "png") return FigureFormat::png;
  throw InputError(std::string(flag) + ": the format comes from the extension: expected " +
                   "FILE.svg or FILE.png, got '" + std::string(path) + "'");
}

std::string gnuplot_script(const Figure& figure, FigureFormat format, std::string_view output,
                           std::string_view directory) {
  // One font for both terminals: DejaVu Sans ships with Debian's gnuplot dependencies; a
  // browser without it falls back to its sans-serif font.
  const std::string size = std::to_string(figure.width) + "," + std::to_string(figure.height);
  std::string script;
  script += "# " + figure.name + ".gp: written by scaleopt (docs/plots.md). Run it where its\n";
  script += "# data files are: gnuplot " + figure.name + ".gp\n";
  if (!directory.empty()) script += "cd " + gnuplot_path(directory) + "\n";
  script += "set encoding utf8\n";
  if (format == FigureFormat::svg) {
    script += "set terminal svg size " + size + " dynamic noenhanced font 'DejaVu Sans," +
              std::to_string(kSvgFontSize) + "' background rgb 'white'\n";
  } else {
    script += "set terminal pngcairo size " + size + " noenhanced font 'DejaVu Sans," +
              std::to_string(kPngFontSize) + "' background rgb 'white'\n";
  }
  script += "set output " + gnuplot_path(output) + "\n";
  script += figure.commands;
  if (!script.ends_with("\n")) script += "\n";
  script += "unset output\n";
  return script;
}

}  // namespace scaleopt::plots
