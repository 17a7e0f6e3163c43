// The checks that a figure is whole before it is given its name (report/figure_file_check.hpp):
// gnuplot's own PNG and SVG pass; the same cut where a full disk cuts them, cut just before
// their end, or with one byte changed, are named with the decoder's reason.

#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/report/figure_file_check.hpp"
#include "scaleopt/report/report_html.hpp"
#include "temp_file.hpp"

using scaleopt::plots::FigureFormat;
using scaleopt::report::figure_file_defect;
using scaleopt::report::png_file_defect;
using scaleopt::report::svg_text_defect;

namespace {

// A figure gnuplot drew, through `plot`.
std::string drawn(const TempDir& dir, const std::string& name) {
  const CliRun run =
      run_cli({"plot", "isoloss", example("frontier_100x.toml"), "--out", dir.file(name)});
  INFO(run.err);
  REQUIRE(run.status == 0);
  return read_file(dir.file(name));
}

// The defect of `bytes` written as a PNG file.
std::string png_defect_of(const TempDir& dir, const std::string& bytes) {
  write_text(dir.file("damaged.png"), bytes);
  return png_file_defect(dir.file("damaged.png"));
}

}  // namespace

TEST_CASE("figure check: an SVG must parse to the end of its <svg> root", "[figures][files]") {
  const TempDir dir("figure_check_svg");
  const std::string svg = drawn(dir, "f.svg");
  REQUIRE(svg.size() > 8192);
  CHECK(svg_text_defect(svg).empty());
  CHECK(figure_file_defect(dir.file("f.svg"), FigureFormat::svg).empty());
  // What a full disk leaves: the first pages.
  CHECK_THAT(svg_text_defect(svg.substr(0, 4096)), Catch::StartsWith("libxml2, line "));
  // Everything but the closing tag.
  const std::size_t closing = svg.rfind("</svg>");
  REQUIRE(closing != std::string::npos);
  CHECK_THAT(svg_text_defect(svg.substr(0, closing)), Catch::Contains("libxml2"));
  // One tag broken in the middle.
  std::string broken = svg;
  broken[broken.find("<g ", svg.size() / 2) + 1] = '#';
  CHECK_THAT(svg_text_defect(broken), Catch::Contains("libxml2"));
  CHECK(svg_text_defect("<html></html>") == "its root element is not <svg>");
  CHECK(svg_text_defect("") == "empty");
  write_text(dir.file("cut.svg"), svg.substr(0, 4096));
  CHECK_THAT(figure_file_defect(dir.file("cut.svg"), FigureFormat::svg),
             Catch::Contains("libxml2"));
}

TEST_CASE("figure check: a PNG must decode to its IEND chunk, every CRC right",
          "[figures][files]") {
  const TempDir dir("figure_check_png");
  const std::string png = drawn(dir, "f.png");
  REQUIRE(png.size() > 4096);
  CHECK(png_file_defect(dir.file("f.png")).empty());
  CHECK(figure_file_defect(dir.file("f.png"), FigureFormat::png).empty());
  CHECK(png_defect_of(dir, png).empty());
  // Cut where a full disk cuts it, and just before its end (the IEND chunk is the last 12
  // bytes: length, type, CRC).
  CHECK_THAT(png_defect_of(dir, png.substr(0, 4096)), Catch::StartsWith("libpng: "));
  REQUIRE(png.compare(png.size() - 8, 4, "IEND") == 0);
  CHECK_THAT(png_defect_of(dir, png.substr(0, png.size() - 12)), Catch::StartsWith("libpng: "));
  CHECK_THAT(png_defect_of(dir, png.substr(0, png.size() - 1)), Catch::StartsWith("libpng: "));
  // One byte of the image data changed: zlib's stream breaks before the chunk's CRC is read.
  const std::size_t idat = png.find("IDAT");
  REQUIRE(idat != std::string::npos);
  std::string flipped = png;
  flipped[idat + 40] = static_cast<char>(flipped[idat + 40] ^ 0x20);
  CHECK_THAT(png_defect_of(dir, flipped), Catch::StartsWith("libpng: IDAT: "));
  // One byte of the header (the width's last): its CRC no longer matches.
  REQUIRE(png.compare(12, 4, "IHDR") == 0);
  std::string header = png;
  header[19] = static_cast<char>(header[19] ^ 0x01);
  CHECK(png_defect_of(dir, header) == "libpng: IHDR: CRC error");
  // The CRC of IEND itself changed.
  std::string bad_end = png;
  bad_end.back() = static_cast<char>(bad_end.back() ^ 0x01);
  CHECK_THAT(png_defect_of(dir, bad_end), Catch::Contains("CRC error"));
  // Not a PNG at all, empty, missing.
  CHECK(png_defect_of(dir, "<svg/>") == "not a PNG file (no PNG signature)");
  CHECK(png_defect_of(dir, "") == "empty");
  CHECK_THAT(png_file_defect(dir.file("missing.png")), Catch::StartsWith("cannot open it ("));
}

TEST_CASE("report check: the page closed, each figure's <svg> closed", "[figures][files]") {
  using scaleopt::report::report_html_defect;
  const std::string figure = "<figure><svg width=\"1\"><g/></svg></figure>\n";
  const std::string page =
      "<!DOCTYPE html>\n<html>\n<body>\n" + figure + figure + "</body>\n</html>\n";
  CHECK(report_html_defect(page, 2).empty());
  // What a full TMPDIR gave: three figures, one cut short.
  const std::string cut = "<figure><svg width=\"1\"><g/>\n";
  CHECK(report_html_defect("<html>\n<body>\n" + figure + cut + figure + "</body>\n</html>\n", 3) ==
        "3 <svg> and 2 </svg> for 3 figures");
  CHECK(report_html_defect(page.substr(0, page.size() / 2), 2) ==
        "the page is not closed by </html>");
}
