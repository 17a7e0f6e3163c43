#include "scaleopt/server/api_handler.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <new>
#include <numeric>
#include <vector>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/report/sweep_rows_json.hpp"
#include "scaleopt/scenario/input_file.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/server/bundled_examples.hpp"
#include "scaleopt/server/input_catalog.hpp"
#include "scaleopt/solver/stop.hpp"

namespace scaleopt::server {
using report::Json;
namespace {

// A request body is a flat object of a few keys: "set" one level deeper, "vary" a list. Deeper
// JSON is refused while it is parsed, before a deep tree is built (and torn down recursively).
constexpr int kMaxBodyDepth = 4;

// The name a posted scenario's messages and answer carry: it is no file.
constexpr std::string_view kPostedName = "posted scenario";

// Invalid UTF-8 from a request (quoted in a message) is replaced, never thrown over.
std::string dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

ApiAnswer refuse(int status, std::string_view message) {
  return {status, error_body(message)};
}

Json parse_body(std::string_view body) {
  if (body.empty()) throw InputError("body: empty; send a JSON object, e.g. {\"example\": NAME}");
  const Json::parser_callback_t limit_depth = [](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxBodyDepth) {
      throw InputError("body: nested more than " + std::to_string(kMaxBodyDepth) +
                       " levels deep (a request is an object of a few keys)");
    }
    return true;
  };
  Json json;
  try {
    json = Json::parse(body.begin(), body.end(), limit_depth);
  } catch (const Json::parse_error& e) {
    throw InputError(std::string("body: not JSON: ") + e.what());
  }
  if (!json.is_object()) throw InputError("body: expected a JSON object, e.g. {\"example\": NAME}");
  return json;
}

void reject_unknown_keys(const Json& request, const std::vector<std::string_view>& known) {
  for (const auto& item : request.items()) {
    bool found = false;
    std::string list;
    for (std::string_view k : known) {
      found = found || item.key() == k;
      list += (list.empty() ? "" : ", ") + std::string(k);
    }
    if (!found) {
      throw InputError("body: unknown key " + quoted_input(item.key()) + " (expected " + list +
                       ")");
    }
  }
}

// "set": {KEY: VALUE} as the KEY=VALUE arguments of --set, in the object's order. A number is
// written as the shortest text that reads back as the same double.
std::vector<std::string> overrides_of(const Json& request) {
  std::vector<std::string> overrides;
  const auto found = request.find("set");
  if (found == request.end()) return overrides;
  if (!found->is_object()) throw InputError("set: expected an object {KEY: VALUE, ...}");
  for (const auto& item : found->items()) {
    const std::string& key = item.key();
    if (key.find('=') != std::string::npos) {
      throw InputError("set " + quoted_input(key) + ": a key holds no '='");
    }
    const Json& value = item.value();
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_boolean()) {
      text = value.get<bool>() ? "true" : "false";
    } else if (value.is_number_integer() || value.is_number_unsigned()) {
      text = value.dump();
    } else if (value.is_number_float()) {
      char buffer[32];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, value.get<double>());
      text.assign(buffer, result.ptr);
    } else {
      throw InputError("set " + input_excerpt(key) + ": expected a string, number or boolean");
    }
    overrides.push_back(key + "=" + text);
  }
  return overrides;
}

std::string string_field(const Json& request, const char* key) {
  const Json& value = request.at(key);
  if (!value.is_string()) throw InputError(std::string(key) + ": expected a string");
  return value.get<std::string>();
}

}  // namespace

std::string error_body(std::string_view message) {
  return dump(Json{{"error", one_line(std::string(message))}});
}

namespace {

// The scenario a request names, with its overrides applied and validated as --set's are.
Scenario request_scenario(const Json& request, const std::optional<ServedScenario>& served) {
  const std::vector<std::string> overrides = overrides_of(request);
  const bool example = request.contains("example");
  const bool posted = request.contains("scenario");
  if (example && posted) throw InputError("body: give \"example\" or \"scenario\", not both");
  // A stranger's scenario may not name a file: law.file would read one of the server's.
  const LawSource no_files{.law_file = {}, .files_allowed = false};
  if (example) {
    const std::string name = string_field(request, "example");
    const BundledExample& found = find_example(name);
    return load_scenario_text(found.text, example_file_name(found.name), overrides, no_files);
  }
  if (posted) {
    const std::string text = string_field(request, "scenario");
    // The bounded reader's limit for a scenario file, so that text and file agree.
    if (text.size() > kTomlInput.max_bytes) {
      throw InputError(std::string(kPostedName) + ": larger than " +
                       bytes_text(kTomlInput.max_bytes) + ", the limit for " +
                       std::string(kTomlInput.name));
    }
    return load_scenario_text(text, std::string(kPostedName), overrides, no_files);
  }
  if (served) return load_scenario_text(served->text, served->file, overrides);
  throw InputError(
      "body: give \"example\": NAME (GET /api/examples lists them) or \"scenario\": TOML text");
}

// The stop check of a request: true once its time is up.
StopCheck deadline_check(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  return [deadline] { return std::chrono::steady_clock::now() > deadline; };
}

std::string solve(const Json& request, const Api& api,
                  const std::optional<ServedScenario>& served) {
  reject_unknown_keys(request, {"example", "scenario", "set"});
  const Scenario scenario = request_scenario(request, served);
  SolverOptions options;  // solve's defaults: the answer is the command line's
  options.stop = deadline_check(api.options().time_limit);
  const QuestionSolution solution = solve_scenario(scenario, options, SolveMethod::automatic);
  return dump(report::solution_json(scenario, *scenario.law, solution));
}

// "PATH=LO:HI[:...]" as the sweep's "PATH=LO..HI[:...]"; the sweep's own syntax as it is.
std::string vary_argument(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || text.find("..", equals) != std::string::npos) return text;
  const auto colon = text.find(':', equals);
  if (colon == std::string::npos) return text;
  return text.substr(0, colon) + ".." + text.substr(colon + 1);
}

std::vector<std::string> vary_arguments(const Json& request) {
  const auto found = request.find("vary");
  if (found == request.end())
    throw InputError("vary: required, e.g. \"inference.rate=1M/s..1G/s:log:50\"");
  std::vector<std::string> arguments;
  if (found->is_string()) {
    arguments.push_back(found->get<std::string>());
  } else if (found->is_array() && !found->empty()) {
    for (const Json& item : *found) {
      if (!item.is_string()) throw InputError("vary: expected a string or a list of strings");
      arguments.push_back(item.get<std::string>());
    }
  } else {
    throw InputError("vary: expected a string or a non-empty list of strings");
  }
  return arguments;
}

// "columns": [NAME, ...], the answer columns a sweep's rows give (all without it); each must be
// one of this sweep's, so that a misspelt name is refused rather than missing from every row.
std::vector<std::string> wanted_columns(const Json& request, const AnswerLayout& layout) {
  std::vector<std::string> wanted;
  const auto found = request.find("columns");
  if (found == request.end()) return wanted;
  if (!found->is_array() || found->empty()) {
    throw InputError("columns: expected a non-empty list of column names, e.g. [\"params\"]");
  }
  const std::vector<std::string> known = summary_columns(layout);
  for (const Json& item : *found) {
    if (!item.is_string()) throw InputError("columns: expected a list of strings");
    const std::string name = item.get<std::string>();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw InputError("columns: " + quoted_input(name) +
                       " is not a column of this sweep (its columns are the sweep CSV's: " +
                       known.front() + ", ... " + known.back() + ")");
    }
    wanted.push_back(name);
  }
  return wanted;
}

std::string sweep(const Json& request, const Api& api,
                  const std::optional<ServedScenario>& served) {
  reject_unknown_keys(request, {"example", "scenario", "set", "vary", "columns"});
  const std::vector<std::string> arguments = vary_arguments(request);
  const Scenario scenario = request_scenario(request, served);
  // A [law] and a [problem], as `scaleopt sweep` asks, its message naming the scenario as the
  // command line's (cli/analysis_flags.cpp) does.
  try {
    (void)scenario_setup(scenario);
  } catch (const InputError& e) {
    const std::string what = e.what();
    throw InputError(what.starts_with(scenario.file) ? what : scenario.file + ": " + what);
  }
  std::vector<SweepAxis> axes;
  for (const std::string& argument : arguments) {
    axes.push_back(parse_vary(scenario, vary_argument(argument)));
    for (std::size_t a = 0; a + 1 < axes.size(); ++a) {
      if (axes[a].input.path() == axes.back().input.path()) {
        throw InputError("vary " + input_excerpt(argument) + ": " + axes.back().input.path() +
                         " is varied twice");
      }
    }
  }
  // Counted before the grid holds them: a product of counts may be huge.
  double points = 1.0;
  for (const SweepAxis& axis : axes) points *= static_cast<double>(axis.count);
  if (points > static_cast<double>(api.options().max_sweep_points)) {
    throw InputError("vary: " + std::to_string(static_cast<unsigned long long>(points)) +
                     " points, more than the " + std::to_string(api.options().max_sweep_points) +
                     " a request may ask for (scaleopt sweep has no such limit)");
  }
  const SweepGrid grid(std::move(axes));
  check_first_point(scenario, grid);
  SweepOptions options;
  options.threads = 1;  // each request on its own worker: requests share the cores
  options.solver.stop = deadline_check(api.options().time_limit);
  const SweepRunner runner(scenario, grid, options);
  const std::vector<std::string> wanted = wanted_columns(request, runner.layout());
  std::vector<std::size_t> indices(grid.size());
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  std::vector<SweepPoint> answers;
  answers.reserve(grid.size());
  (void)runner.solve(
      indices, nullptr,
      [&](const SweepBlock& block) {
        answers.insert(answers.end(), block.answers.begin(), block.answers.end());
      },
      options.solver.stop, [](std::size_t) {});
  if (answers.size() != grid.size()) throw Interrupted();
  Json columns = Json::array({"point", "points"});
  for (const SweepAxis& axis : grid.axes()) columns.push_back(axis.input.path());
  for (const std::string& column : summary_columns(runner.layout())) {
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), column) != wanted.end()) {
      columns.push_back(column);
    }
  }
  return dump(
      report::json_document({{"scenario", scenario.file},
                             {"columns", std::move(columns)},
                             {"rows", report::sweep_rows_json(grid, runner.layout(), answers,
                                                              options.solver.algorithm, wanted)}}));
}

std::string examples(const std::optional<ServedScenario>& served) {
  Json names = Json::array();
  for (const BundledExample& example : bundled_examples()) names.push_back(example.name);
  return dump(report::json_document(
      {{"examples", std::move(names)}, {"served", served ? Json(served->file) : Json(nullptr)}}));
}

std::string inputs(const Json& request, const std::optional<ServedScenario>& served) {
  reject_unknown_keys(request, {"example", "scenario", "set"});
  return dump(inputs_json(request_scenario(request, served)));
}

// GET /api/example?name=NAME: a bundled example's TOML, found by its name (never a path).
std::string example_text(const QueryParameters& query) {
  const std::string* name = nullptr;
  for (const auto& [key, value] : query) {
    if (key != "name") {
      throw InputError("GET /api/example: unknown parameter " + quoted_input(key) +
                       " (expected name)");
    }
    if (name) throw InputError("GET /api/example: name given more than once");
    name = &value;
  }
  if (!name) throw InputError("GET /api/example: give ?name=NAME (GET /api/examples lists them)");
  const BundledExample& found = find_example(*name);
  return dump(report::json_document(
      {{"name", found.name}, {"file", example_file_name(found.name)}, {"text", found.text}}));
}

// A GET that takes no parameters refuses any, rather than ignoring a misspelt one.
void reject_query(std::string_view path, const QueryParameters& query) {
  if (!query.empty()) {
    throw InputError("GET " + std::string(path) + ": takes no parameters (got " +
                     quoted_input(query.front().first) + ")");
  }
}

}  // namespace

Api::Api(ServeOptions options, std::optional<ServedScenario> served)
    : options_(std::move(options)), served_(std::move(served)) {}

ApiAnswer Api::handle(std::string_view method, std::string_view path, std::string_view body,
                      const QueryParameters& query) const {
  const bool post = method == "POST";
  try {
    for (std::string_view get : {"/api/examples", "/api/example", "/api/served", "/api/keys"}) {
      if (path == get && method != "GET") {
        return refuse(405, "GET " + std::string(path) + ": the method must be GET");
      }
    }
    if (path == "/api/examples") {
      reject_query(path, query);
      return {200, examples(served_)};
    }
    if (path == "/api/example") return {200, example_text(query)};
    if (path == "/api/keys") {
      reject_query(path, query);
      return {200, dump(keys_json())};
    }
    if (path == "/api/served") {
      reject_query(path, query);
      if (!served_) return refuse(404, "GET /api/served: serve was given no scenario file");
      return {200, dump(report::json_document({{"file", served_->file}, {"text", served_->text}}))};
    }
    if (path == "/api/solve" || path == "/api/sweep" || path == "/api/inputs") {
      if (!post) return refuse(405, std::string(path) + ": the method must be POST");
      const Json request = parse_body(body);
      if (path == "/api/inputs") return {200, inputs(request, served_)};
      return {200, path == "/api/solve" ? solve(request, *this, served_)
                                        : sweep(request, *this, served_)};
    }
    return refuse(404, "no such API: " + quoted_input(path) +
                           " (GET /api/examples, /api/example?name=, /api/served, /api/keys; "
                           "POST /api/solve, /api/sweep, /api/inputs)");
  } catch (const InputError& e) {
    return refuse(400, e.what());
  } catch (const Interrupted&) {
    return refuse(503, "time limit: the request ran longer than " +
                           std::to_string(options_.time_limit.count()) + " ms; ask for less");
  } catch (const std::bad_alloc&) {
    return refuse(503, "out of memory: ask for less");
  } catch (const Json::exception& e) {
    // A key or value of the wrong JSON type that a check above missed: the client's input.
    return refuse(400, std::string("body: ") + e.what());
  }
}

}  // namespace scaleopt::server
