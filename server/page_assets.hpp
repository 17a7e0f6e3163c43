#pragma once
// The files of the page at "/" (server/page/: index.html, page.js, page.css) and Debian's
// Chart.js (libjs-chart.js), compiled into the binary (server/CMakeLists.txt), so that an
// installed `scaleopt serve` draws its charts with nothing fetched at run time, and no request
// ever opens a file: a path is looked up among these by name.

#include <span>
#include <string_view>

namespace scaleopt::server {

struct PageAsset {
  std::string_view path;          // the URL path it is served at: "/", "/page.js"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view text;
};

// Every asset, "/" first.
std::span<const PageAsset> page_assets();

// The asset served at `path`, or nullptr.
const PageAsset* find_page_asset(std::string_view path);

// The Content-Security-Policy the page is served with: its own scripts, styles and API only
// (no inline script, no other origin, no frames), so that nothing is fetched from elsewhere
// even if an answer's text ever held markup.
inline constexpr std::string_view kPageSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace scaleopt::server
