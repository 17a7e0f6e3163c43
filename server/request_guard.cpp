#include "scaleopt/server/request_guard.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt::server {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

bool host_allowed(const std::string& host_header, int port, const ServeOptions& options) {
  const std::string host = lower(host_header);
  // Appended, not `":" + std::to_string(port)`: GCC 12 warns (-Wrestrict) on that form.
  std::string suffix(1, ':');
  suffix += std::to_string(port);
  std::vector<std::string> names{"127.0.0.1", "localhost", "[::1]"};
  for (const std::string& name : options.allowed_hosts) names.push_back(lower(name));
  for (const std::string& name : names) {
    if (host == name + suffix) return true;
    if (port == 80 && host == name) return true;  // browsers leave out the default port
  }
  return false;
}

std::optional<Refusal> refuse_request(const RequestHead& head, int port,
                                      const ServeOptions& options) {
  if (!head.host) return Refusal{400, "Host: required (HTTP/1.1)"};
  if (!host_allowed(*head.host, port, options)) {
    return Refusal{421,
                   "Host: " + quoted_input(*head.host) + " is not this server (expected " +
                       "127.0.0.1:" + std::to_string(port) + ", localhost:" + std::to_string(port) +
                       " or [::1]:" + std::to_string(port) + "; other names need --allow-host)"};
  }
  if (head.origin && *head.origin != "http://" + *head.host) {
    return Refusal{403, "Origin: " + quoted_input(*head.origin) +
                            " is another site's: only pages served from http://" + *head.host +
                            " may call this API"};
  }
  if (head.transfer_encoding) {
    return Refusal{411, "Transfer-Encoding: not accepted; send the body with a Content-Length"};
  }
  if (head.content_length) {
    const std::string& text = *head.content_length;
    std::uint64_t bytes = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (!text.empty() && error == std::errc::result_out_of_range) {
      return Refusal{413, "body: larger than " + bytes_text(options.max_body_bytes) +
                              ", the limit of a request"};
    }
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
      return Refusal{400, "Content-Length: not a count of bytes: " + quoted_input(text)};
    }
    if (bytes > options.max_body_bytes) {
      return Refusal{413, "body: " + std::to_string(bytes) + " bytes, larger than " +
                              bytes_text(options.max_body_bytes) + ", the limit of a request"};
    }
  } else if (head.method == "POST") {
    return Refusal{411, "Content-Length: required for a POST"};
  }
  return std::nullopt;
}

}  // namespace scaleopt::server
