// Fuzzes the JSON API of `scaleopt serve` (server/api_handler.hpp) and its request checks
// (server/request_guard.hpp), calling them directly (no sockets). Input: the first byte picks
// the path (/api/solve, /api/sweep, /api/examples or another) and the method; then the Host
// header, a NUL, and the request body. Invariants: the guard refuses with 400, 403, 411, 413 or
// 421 or lets the request on; the handler never throws and answers 200, 400, 404, 405 or 503
// with a body that parses as JSON; a refusal is {"error": ONE LINE}; a 200 of /api/solve
// carries the status of its answer and of /api/sweep one row per point.

#include <nlohmann/json.hpp>

#include <string>

#include "fuzz/fuzz_checks.hpp"
#include "scaleopt/server/api_handler.hpp"
#include "scaleopt/server/request_guard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt::server;
  if (size == 0) return 0;
  static constexpr const char* kPaths[] = {"/api/solve", "/api/sweep", "/api/examples", "/x"};
  const char* path = kPaths[data[0] & 3];
  const char* method = (data[0] & 4) ? "GET" : "POST";
  const std::vector<std::string> parts =
      scaleopt::fuzz::split_at_nul(scaleopt::fuzz::as_text(data + 1, size - 1), 1);
  const std::string host = parts[0];
  const std::string body = parts.size() > 1 ? parts[1] : parts[0];

  ServeOptions options;
  // Small enough that every input runs fast: an input that asks for more is refused the same
  // way as one that asks for 10^6 points.
  options.max_sweep_points = 20;
  options.time_limit = std::chrono::milliseconds{2'000};
  RequestHead head{method, path, host, std::nullopt, std::to_string(body.size()), std::nullopt};
  if (const auto refusal = refuse_request(head, 8080, options)) {
    const int s = refusal->status;
    if (s != 400 && s != 403 && s != 411 && s != 413 && s != 421) {
      scaleopt::fuzz::invariant_broken("the guard refused with an unexpected status",
                                       std::to_string(s) + " " + refusal->message);
    }
  }

  const Api api(options);
  const ApiAnswer answer = api.handle(method, path, body);
  const int s = answer.status;
  if (s != 200 && s != 400 && s != 404 && s != 405 && s != 503) {
    scaleopt::fuzz::invariant_broken("an unexpected status", std::to_string(s) + " " + answer.body);
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(answer.body);
  } catch (const nlohmann::json::exception&) {
    scaleopt::fuzz::invariant_broken("the answer is not JSON", answer.body);
  }
  if (s != 200) {
    const auto error = json.find("error");
    if (error == json.end() || !error->is_string() ||
        error->get<std::string>().find('\n') != std::string::npos) {
      scaleopt::fuzz::invariant_broken("a refusal without a one-line error", answer.body);
    }
  } else if (std::string_view(path) == "/api/solve" && !json.contains("status")) {
    scaleopt::fuzz::invariant_broken("a solve without its status", answer.body);
  } else if (std::string_view(path) == "/api/sweep" &&
             (!json.contains("rows") || json["rows"].empty() ||
              json["rows"].size() != json["rows"][0]["points"].get<std::size_t>())) {
    scaleopt::fuzz::invariant_broken("a sweep without one row per point", answer.body);
  }
  return 0;
}
