#pragma once
// Checks of figures with real decoders: SVG parsed by libxml2 (well-formed XML, its text),
// PNG read by libpng (signature, size, pixels).

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <png.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "file_text.hpp"

// The text of every text node of a well-formed SVG document, one per line; nullopt when
// libxml2 rejects the document (no network access, no entity expansion).
inline std::optional<std::string> svg_text(const std::string& svg) {
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "figure.svg", nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) return std::nullopt;
  const xmlNode* root = xmlDocGetRootElement(doc);
  std::string text;
  if (root && std::string(reinterpret_cast<const char*>(root->name)) == "svg") {
    std::vector<const xmlNode*> stack{root};
    while (!stack.empty()) {
      const xmlNode* node = stack.back();
      stack.pop_back();
      if (node->type == XML_TEXT_NODE && node->content) {
        text += reinterpret_cast<const char*>(node->content);
        text += "\n";
      }
      for (const xmlNode* child = node->last; child; child = child->prev) stack.push_back(child);
    }
  } else {
    xmlFreeDoc(doc);
    return std::nullopt;
  }
  xmlFreeDoc(doc);
  return text;
}

struct PngImage {
  unsigned width = 0, height = 0;
  std::vector<std::uint32_t> pixels;  // RGBA packed, row by row
};

// The PNG signature and the IHDR width and height, read from the bytes (no decoding).
struct PngHeader {
  bool signature = false;
  unsigned width = 0, height = 0;
};
inline PngHeader png_header(const std::string& bytes) {
  PngHeader header;
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 24) return header;
  header.signature =
      std::equal(signature, signature + 8, bytes.begin(),
                 [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); });
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(bytes[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 3]));
  };
  if (bytes.compare(12, 4, "IHDR") == 0) {
    header.width = be32(16);
    header.height = be32(20);
  }
  return header;
}

// Every pixel, decoded by libpng (png_image, the simplified API); nullopt when it fails.
inline std::optional<PngImage> decode_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return std::nullopt;
  image.format = PNG_FORMAT_RGBA;
  PngImage result;
  result.width = image.width;
  result.height = image.height;
  result.pixels.resize(static_cast<std::size_t>(image.width) * image.height);
  if (!png_image_finish_read(&image, nullptr, result.pixels.data(), 0, nullptr)) {
    png_image_free(&image);
    return std::nullopt;
  }
  return result;
}
