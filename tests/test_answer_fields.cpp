// The table of answer fields (problems/question/answer_fields.hpp) against what the fronts print,
// in both directions: every key of `solve --json` and every column of a sweep is a field of the
// table, and every field the layout has is in both; nulls carry their reasons; docs/json.md and
// docs/schema/solve.json list the same fields.

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/report/answer_fields_markdown.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "temp_file.hpp"

using namespace scaleopt;
using nlohmann::json;

namespace {

// The keys of a solution that belong to the solution, not to an answer.
const std::set<std::string> kSolutionOnlyKeys = {
    "schema_version", "optimum",     "heuristic_overpay",  "unit",     "law",        "rule",
    "scenario",       "assumptions", "decode_mfu_implied", "warnings", "unavailable"};

// The dotted keys of the leaves of `object`, under `prefix`.
void answer_leaf_keys(const json& object, const std::string& prefix, std::set<std::string>& keys) {
  for (const auto& [key, value] : object.items()) {
    if (prefix.empty() && kSolutionOnlyKeys.count(key)) continue;
    // Lists beside the table's numbers: the reasons of nulls, and what lies outside the law's
    // fitted range (costmodel/law_reach.hpp), checked by the cases below.
    if (key == "unavailable" || key == "extrapolated") continue;
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      answer_leaf_keys(value, path, keys);
    } else {
      keys.insert(path);
    }
  }
}

std::set<std::string> answer_table_keys(const AnswerLayout& layout, bool csv) {
  std::set<std::string> keys;
  for (const AnswerField& field : answer_fields()) {
    if (layout.has(field.presence) && (!csv || field.in_csv())) keys.emplace(field.key);
  }
  return keys;
}

// A JSON value at a dotted key, or null when a part is missing.
const json* json_at_key(const json& object, const std::string& key) {
  const json* node = &object;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot - start);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
}

// Every null number has its reason under "unavailable", and every reason a null number.
void check_unavailable_reasons(const json& answer, const AnswerLayout& layout) {
  const json reasons = answer.value("unavailable", json::object());
  for (const AnswerField& field : answer_fields()) {
    if (!layout.has(field.presence) || field.kind != AnswerFieldKind::number) continue;
    const json* value = json_at_key(answer, std::string(field.key));
    REQUIRE(value);
    INFO(field.key);
    CHECK(value->is_null() == reasons.contains(std::string(field.key)));
    if (value->is_null()) CHECK_FALSE(reasons[std::string(field.key)].get<std::string>().empty());
  }
  for (const auto& [key, reason] : reasons.items()) {
    if (key == "heuristic_overpay") continue;
    const json* value = json_at_key(answer, key);
    INFO(key);
    REQUIRE(value);
    CHECK(value->is_null());
  }
}

struct FieldsCase {
  const char* example;
  std::vector<std::string> overrides;
  AnswerLayout layout;
};

const std::vector<FieldsCase> kFieldsCases = {
    {"frontier_100x.toml", {}, {ProblemKind::equal_cost, false}},
    {"sardana_compute.toml", {}, {ProblemKind::min_lifetime_flops, false}},
    {"sardana_cost.toml", {}, {ProblemKind::min_lifetime_cost, false}},
    {"frontier_rl.toml", {}, {ProblemKind::equal_cost, true}},
    {"frontier_rl.toml",
     {"--set", "problem.kind=min-lifetime-cost", "--set", "problem.target_loss=1.9"},
     {ProblemKind::min_lifetime_cost, true}},
    {"budget_plan.toml", {}, {ProblemKind::max_quality, false}},
    // Limited data: the fields of data.unique_tokens and problem.max_pretrain_tokens.
    {"frontier_100x.toml",
     {"--set", "data.unique_tokens=30T"},
     {ProblemKind::equal_cost, false, true}},
    {"budget_plan.toml",
     {"--set", "data.unique_tokens=200B"},
     {ProblemKind::max_quality, false, true}},
    {"sardana_cost.toml",
     {"--set", "problem.max_pretrain_tokens=500B"},
     {ProblemKind::min_lifetime_cost, false, true}},
};

}  // namespace

TEST_CASE("solve --json has exactly the table's fields, nulls with their reasons",
          "[answer_fields]") {
  for (const FieldsCase& c : kFieldsCases) {
    INFO(c.example);
    std::vector<std::string> args{"solve", example(c.example), "--json"};
    args.insert(args.end(), c.overrides.begin(), c.overrides.end());
    const CliRun run = run_cli(args);
    REQUIRE(!run.out.empty());
    const json answer = run.json();
    std::set<std::string> printed;
    answer_leaf_keys(answer, "", printed);
    CHECK(printed == answer_table_keys(c.layout, false));
    check_unavailable_reasons(answer, c.layout);
    REQUIRE(answer.contains("extrapolated"));
    CHECK(answer["extrapolated"].is_array());
    if (c.layout.has_optimum()) CHECK(answer["optimum"]["extrapolated"].is_array());
    if (c.layout.has_optimum()) {
      REQUIRE(answer.contains("optimum"));
      std::set<std::string> optimum;
      answer_leaf_keys(answer["optimum"], "", optimum);
      CHECK(optimum == answer_table_keys(c.layout, false));
      check_unavailable_reasons(answer["optimum"], c.layout);
      for (const SolutionField& field : solution_fields()) {
        CHECK(answer.contains(std::string(field.key)));
      }
    } else {
      CHECK_FALSE(answer.contains("optimum"));
    }
  }
}

TEST_CASE("an infeasible plan prints null, not 0, for what does not exist", "[answer_fields]") {
  // solve refuses an infeasible question (exit 2); its JSON is what a library caller builds.
  const Scenario scenario =
      load_scenario(example("sardana_cost.toml"), {"problem.target_loss=1.5"});
  const QuestionSolution solution = solve_question(scenario_setup(scenario));
  REQUIRE(solution.status() == Status::infeasible);
  const json answer = json::parse(report::solution_json(scenario, *scenario.law, solution).dump());
  CHECK(answer["status"] == "infeasible");
  for (const char* key : {"params", "pretrain_tokens", "loss", "over_chinchilla"}) {
    CHECK(answer[key].is_null());
  }
  CHECK(answer["cost_shares"]["pretrain"].is_null());
  CHECK(answer["vs_chinchilla"]["params"].is_null());
  CHECK(answer["cost"]["total"]["usd"].is_null());
  CHECK_THAT(answer["unavailable"]["params"].get<std::string>(), Catch::Contains("infeasible"));
  // The demand is the question's and exists whatever the plan.
  CHECK(answer["inference_tokens"].is_number());
  check_unavailable_reasons(answer, {ProblemKind::min_lifetime_cost, false});
}

TEST_CASE("a FLOPs question has no dollars and no serving hours, and says why", "[answer_fields]") {
  const json answer = run_cli({"solve", example("sardana_compute.toml"), "--json"}).json();
  CHECK(answer["cost"]["inference"]["usd"].is_null());
  CHECK(answer["cost"]["inference"]["gpu_hours"].is_null());
  CHECK(answer["cost"]["pretrain"]["gpu_hours"].is_number());
  CHECK_THAT(answer["unavailable"]["cost.inference.gpu_hours"].get<std::string>(),
             Catch::Contains("FLOPs question"));
}

TEST_CASE("sweep columns are the table's CSV fields, the RL gain included", "[answer_fields]") {
  for (const FieldsCase& c : {kFieldsCases[0], kFieldsCases[3], kFieldsCases[6]}) {
    INFO(c.example);
    const TempDir dir("answer_fields");
    const std::string out = dir.file("sweep.csv");
    std::vector<std::string> args{
        "sweep", example(c.example), "--vary", "inference.rate=10M/s..100M/s:2", "--out", out};
    args.insert(args.end(), c.overrides.begin(), c.overrides.end());
    const CliRun run = run_cli(args);
    REQUIRE(run.status == 0);
    std::istringstream file(read_file(out));
    std::string header;
    while (std::getline(file, header) && header.starts_with("#")) {
    }
    std::vector<std::string> columns;
    for (std::size_t start = 0;;) {
      const std::size_t comma = header.find(',', start);
      columns.push_back(header.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    REQUIRE(columns.size() > 3);
    CHECK(columns[0] == "point");
    CHECK(columns[1] == "points");
    CHECK(columns[2] == "inference.rate");
    const std::vector<std::string> answer(columns.begin() + 3, columns.end());
    CHECK(answer == summary_columns(c.layout));
    std::set<std::string> seen;
    for (const std::string& column : answer) {
      const std::string key = column.starts_with("optimum.") ? column.substr(8) : column;
      if (key == "heuristic_overpay") continue;
      seen.insert(key);
    }
    CHECK(seen == answer_table_keys(c.layout, true));
    CHECK((std::find(answer.begin(), answer.end(), "rl_returns.gain") != answer.end()) ==
          c.layout.rl_returns);
  }
}

TEST_CASE("docs/json.md lists the table's fields, and the solve schema has each",
          "[answer_fields]") {
  const std::string doc = read_file(std::string(SCALEOPT_SOURCE_DIR) + "/docs/json.md");
  CHECK_THAT(doc, Catch::Contains(report::answer_fields_markdown()));
  const json schema =
      json::parse(read_file(std::string(SCALEOPT_SOURCE_DIR) + "/docs/schema/solve.json"));
  for (const json* level : {&schema, &schema["properties"]["optimum"]}) {
    for (const AnswerField& field : answer_fields()) {
      const std::string key(field.key);
      const json* node = level;
      std::size_t start = 0;
      bool found = true;
      while (found) {
        const std::size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot - start);
        found = (*node)["properties"].contains(part);
        if (!found) break;
        node = &(*node)["properties"][part];
        if (dot == std::string::npos) break;
        start = dot + 1;
      }
      INFO(key);
      CHECK(found);
      if (found && field.kind == AnswerFieldKind::number) {
        CHECK((*node)["type"] == json({"number", "null"}));
      }
    }
  }
}
