#pragma once
// Whether a figure gnuplot drew is whole. gnuplot does not check its writes: on a full disk it
// exits 0 having written the first 4,096 bytes of a 110 KB figure. So a figure is decoded to
// its end before anything is given its name: a PNG by libpng to its IEND chunk, the CRC of
// every chunk checked (ancillary chunks too) and every row of pixels inflated; an SVG parsed by
// libxml2 to the closing tag of its <svg> root.

#include <string>
#include <string_view>

#include "scaleopt/plots/figure.hpp"

namespace scaleopt::report {

// Empty when the PNG file at `path` decodes whole; else why not, on one line ("libpng: IDAT:
// CRC error", "libpng: Read Error" for a file cut short, "cannot open it (reason)").
std::string png_file_defect(const std::string& path);

// Empty when `svg` is a well-formed XML document whose root is <svg>; else why not ("libxml2,
// line 40: Premature end of data in tag svg line 2").
std::string svg_text_defect(std::string_view svg);

// The defect of the figure file at `path` in `format` (an SVG is read through the bounded
// reader, scenario/input_file.hpp), or empty.
std::string figure_file_defect(const std::string& path, plots::FigureFormat format);

}  // namespace scaleopt::report
