#pragma once
// The checks every request passes before anything else looks at it (docs/serve.md, "Safety"),
// from its head alone, so that a refused body is never read:
//   - Host must name this server: 127.0.0.1:PORT, localhost:PORT, [::1]:PORT or an
//     --allow-host name with the port (421 otherwise). A page of another site that resolves its
//     own name to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
//   - Origin, when sent, must be this server's own ("http://" + the Host): a cross-site page's
//     fetch carries its origin and is refused (403); scripts (curl, Python) send none.
//   - A POST must say its length (411 without Content-Length, or with Transfer-Encoding,
//     which would let a body's size be learnt only by reading it) and at most the limit (413).

#include <optional>
#include <string>

#include "scaleopt/server/serve_options.hpp"

namespace scaleopt::server {

// What the guard reads of a request: absent headers are nullopt.
struct RequestHead {
  std::string method;  // "GET", "POST", ...
  std::string path;    // "/api/solve"
  std::optional<std::string> host;
  std::optional<std::string> origin;
  std::optional<std::string> content_length;
  std::optional<std::string> transfer_encoding;
};

// A request answered without going further: the HTTP status and a one-line message.
struct Refusal {
  int status = 400;
  std::string message;
};

// Whether `host_header` names this server on `port` (the port bound, which with --port 0 the
// kernel chose): the three loopback names, or `options.allowed_hosts`, each as NAME:PORT (and
// NAME alone when the port is 80, as browsers send it). Case-insensitive, as DNS names are.
bool host_allowed(const std::string& host_header, int port, const ServeOptions& options);

// The refusal `head` gets, or nullopt when it may go on.
std::optional<Refusal> refuse_request(const RequestHead& head, int port,
                                      const ServeOptions& options);

}  // namespace scaleopt::server
