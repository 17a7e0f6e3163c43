#include "scaleopt/report/figure_file_check.hpp"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <limits>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt::report {
namespace {

// gnuplot's figures are at most a few thousand pixels a side; a header claiming more is damage.
constexpr png_uint_32 kMaxPngSide = 1u << 16;

// What libpng's error callback leaves for the caller: its message, then a longjmp back.
struct PngErrors {
  char message[256] = {};
};

void png_failed(png_structp png, png_const_charp message) {
  auto* errors = static_cast<PngErrors*>(png_get_error_ptr(png));
  std::snprintf(errors->message, sizeof errors->message, "%s", message ? message : "error");
  png_longjmp(png, 1);
}

void png_warned(png_structp, png_const_charp) {}  // every problem that matters is an error

// The decoding itself, between setjmp and libpng's longjmp: only plain C objects live here
// (a longjmp skips destructors). Returns whether the file decoded to its end.
bool decode_png(std::FILE* file, PngErrors& errors) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors, png_failed, png_warned);
  if (!png) {
    std::snprintf(errors.message, sizeof errors.message, "cannot start libpng");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  png_bytep volatile row = nullptr;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_free(png, row);
    png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    if (errors.message[0] == '\0') std::snprintf(errors.message, sizeof errors.message, "error");
    return false;
  }
  png_init_io(png, file);
  // A CRC error in any chunk, and anything libpng would otherwise pass over with a warning (too
  // much or too little image data), is an error.
  png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  png_set_benign_errors(png, 0);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (width == 0 || height == 0 || width > kMaxPngSide || height > kMaxPngSide) {
    png_error(png, "implausible image size");
  }
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  row = static_cast<png_bytep>(png_malloc(png, png_get_rowbytes(png, info)));
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, row, nullptr);
  }
  png_read_end(png, info);  // every chunk up to IEND, with its CRC
  png_free(png, row);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

}  // namespace

std::string png_file_defect(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return std::string("cannot open it (") + std::strerror(errno) + ")";
  unsigned char signature[8] = {};
  const std::size_t read = std::fread(signature, 1, sizeof signature, file);
  std::string defect;
  if (read != sizeof signature || png_sig_cmp(signature, 0, sizeof signature) != 0) {
    defect = read == 0 ? "empty" : "not a PNG file (no PNG signature)";
  } else {
    PngErrors errors;
    std::rewind(file);
    if (!decode_png(file, errors)) defect = std::string("libpng: ") + errors.message;
  }
  std::fclose(file);
  return defect;
}

std::string svg_text_defect(std::string_view svg) {
  if (svg.empty()) return "empty";
  if (svg.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return "too large to parse";
  }
  xmlParserCtxtPtr context = xmlNewParserCtxt();
  if (!context) return "cannot start libxml2";
  // No network, no external entities or DTD loaded, no messages printed: errors come back here.
  xmlDocPtr document =
      xmlCtxtReadMemory(context, svg.data(), static_cast<int>(svg.size()), "figure.svg", nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  std::string defect;
  if (!document) {
    const xmlError* error = xmlCtxtGetLastError(context);
    defect = "libxml2";
    if (error) {
      defect += ", line " + std::to_string(error->line) + ": ";
      std::string message = error->message ? error->message : "not well-formed";
      while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
      defect += message;
    } else {
      defect += ": not well-formed";
    }
  } else {
    const xmlNode* root = xmlDocGetRootElement(document);
    if (!root || std::strcmp(reinterpret_cast<const char*>(root->name), "svg") != 0) {
      defect = "its root element is not <svg>";
    }
    xmlFreeDoc(document);
  }
  xmlFreeParserCtxt(context);
  return defect;
}

std::string figure_file_defect(const std::string& path, plots::FigureFormat format) {
  if (format == plots::FigureFormat::png) return png_file_defect(path);
  try {
    return svg_text_defect(read_input_file(path, kFigureInput));
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace scaleopt::report
