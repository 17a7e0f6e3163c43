#pragma once
// The JSON API of `scaleopt serve` (docs/serve.md), as a function from a request to an answer,
// with no sockets: http_server.cpp calls it for every request that passed
// server/request_guard.hpp, and the tests and fuzz/fuzz_api.cpp call it directly.
//
//   GET  /api/examples  {"examples": [NAME, ...], "served": PATH or null}
//   GET  /api/example?name=NAME  {"name", "file": "examples/NAME.toml", "text": its TOML}
//   GET  /api/served    {"file", "text"}: the scenario given on the command line (404 without)
//   GET  /api/keys      the key registry as the page draws it (server/input_catalog.hpp)
//   POST /api/inputs    the body of /api/solve -> the scenario's numeric inputs with their
//                       values, and its menus (chips, presets) with their current choice
//   POST /api/solve     {"example": NAME} or {"scenario": TOML} (or neither: the scenario given
//                       on the command line), "set": {KEY: VALUE, ...} optional -> exactly what
//                       `scaleopt solve --json` prints for the same inputs (report/
//                       lifecycle_output.hpp builds both)
//   POST /api/sweep     the same, and "vary": "PATH=LO..HI[:lin|log][:COUNT]" (or
//                       "PATH=LO:HI:COUNT", or a list of either) -> {"scenario", "columns",
//                       "rows"}, each row an object keyed like the sweep CSV's columns
//                       (report/sweep_rows_json.hpp)
//
// Bad input is 400 {"error": "<the library's one-line message>"}, never a crash; a posted
// scenario is read like a file (its size bounded, its depth checked, its keys checked by the
// registry) but may not name a file (law.file); a question that did not converge is 200 with
// its status; a request that outruns ServeOptions::time_limit is 503.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scaleopt/server/serve_options.hpp"

namespace scaleopt::server {

// The parameters of a GET's query string, decoded, in their order.
using QueryParameters = std::vector<std::pair<std::string, std::string>>;

struct ApiAnswer {
  int status = 200;
  std::string body;  // JSON text
};

// The scenario given on the command line (`scaleopt serve FILE`): read once at start-up, so no
// request makes the server open a file. Its own law.file may name a file (the user gave it).
struct ServedScenario {
  std::string file;  // its path, as the answers name it
  std::string text;
};

class Api {
 public:
  explicit Api(ServeOptions options, std::optional<ServedScenario> served = std::nullopt);

  // The answer to `method` `path` with `body`. Never throws for any input (a failure of the
  // server itself, such as memory, is 503).
  ApiAnswer handle(std::string_view method, std::string_view path, std::string_view body,
                   const QueryParameters& query = {}) const;

  const ServeOptions& options() const { return options_; }

 private:
  ServeOptions options_;
  std::optional<ServedScenario> served_;
};

// {"error": message} as the body of a refusal.
std::string error_body(std::string_view message);

}  // namespace scaleopt::server
