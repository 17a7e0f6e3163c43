#include "scaleopt/report/compare_output.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/lifecycle_output.hpp"

namespace scaleopt::report {
namespace {

// The solvers agree to ~1e-9 (KKT tolerance, NLopt against the 1-D reduction): closer than
// this, two figures are the same answer.
constexpr double kSameRelative = 1e-9;

bool differ(double a, double b) {
  if (a == b) return false;
  if (!std::isfinite(a) || !std::isfinite(b)) return true;
  return std::fabs(b - a) > kSameRelative * std::max(std::fabs(a), std::fabs(b));
}

const QuestionAnswer& plan_of(const QuestionSolution& s, bool optimum) {
  return optimum && s.optimum ? *s.optimum : s.answer;
}

std::string label_of(const QuestionSolution& s, bool optimum) {
  return s.kind == ProblemKind::equal_cost && !optimum ? "heuristic" : "optimum";
}

struct Figure {
  const char* key;
  double (*value)(const QuestionAnswer&, const QuestionSolution&);
};

constexpr Figure kFigures[] = {
    {"params", [](const QuestionAnswer& a, const QuestionSolution&) { return a.total_params; }},
    {"active_params",
     [](const QuestionAnswer& a, const QuestionSolution&) { return a.active_params; }},
    {"pretrain_tokens",
     [](const QuestionAnswer& a, const QuestionSolution&) { return a.plan.pretrain_tokens; }},
    {"rl_tokens", [](const QuestionAnswer& a, const QuestionSolution&) { return a.rl_tokens; }},
    {"inference_tokens",
     [](const QuestionAnswer& a, const QuestionSolution&) { return a.inference_tokens; }},
    {"loss", [](const QuestionAnswer& a, const QuestionSolution&) { return a.plan.loss; }},
    {"over_chinchilla",
     [](const QuestionAnswer& a, const QuestionSolution&) { return a.over_chinchilla; }},
    {"cost_total_flops",
     [](const QuestionAnswer& a, const QuestionSolution&) { return a.plan.cost.total().flops; }},
    {"cost_total_usd",
     [](const QuestionAnswer& a, const QuestionSolution& s) {
       return s.kind == ProblemKind::min_lifetime_flops ? NAN : a.plan.cost.total().usd;
     }},
    {"cost_total_gpu_hours", [](const QuestionAnswer& a,
                                const QuestionSolution&) { return a.plan.cost.total().gpu_hours; }},
};

bool any_optimum(const ComparedAnswer& a, const ComparedAnswer& b) {
  return a.solution->optimum.has_value() || b.solution->optimum.has_value();
}

Json figures_json(const ComparedAnswer& a, const ComparedAnswer& b, bool optimum) {
  Json figures = Json::array();
  const QuestionAnswer& pa = plan_of(*a.solution, optimum);
  const QuestionAnswer& pb = plan_of(*b.solution, optimum);
  for (const Figure& figure : kFigures) {
    const double va = figure.value(pa, *a.solution), vb = figure.value(pb, *b.solution);
    figures.push_back({{"key", figure.key},
                       {"a", finite_or_null(va)},
                       {"b", finite_or_null(vb)},
                       {"ratio", va != 0.0 ? finite_or_null(vb / va) : Json(nullptr)},
                       {"differs", differ(va, vb)}});
  }
  return figures;
}

// The rows of solve's table for one plan (its column), by label, in order.
std::vector<std::pair<std::string, std::string>> rows_of(const ComparedAnswer& answer,
                                                         bool optimum) {
  const Table table = solution_table(*answer.scenario, *answer.solution);
  const auto& rows = table.rows();
  // Column 1 is the answer (the heuristic of equal-cost), column 2 its optimum when there is one.
  const std::size_t column = optimum && answer.solution->optimum ? 2 : 1;
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t r = table.has_header() ? 1 : 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    out.emplace_back(row[0], column < row.size() ? row[column] : "");
  }
  return out;
}

Table side_by_side(const ComparedAnswer& a, const ComparedAnswer& b, bool optimum) {
  const auto ra = rows_of(a, optimum), rb = rows_of(b, optimum);
  std::vector<std::string> labels;
  for (const auto& [label, value] : ra) labels.push_back(label);
  for (const auto& [label, value] : rb) {
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  }
  const auto value_of = [](const std::vector<std::pair<std::string, std::string>>& rows,
                           const std::string& label) {
    for (const auto& [l, v] : rows) {
      if (l == label) return v;
    }
    return std::string("-");
  };
  Table table(optimum ? "The true optimum of each (same loss as its heuristic, where it has one)"
                      : "The answer of each");
  table.header(
      {"", "", "A: " + label_of(*a.solution, optimum), "B: " + label_of(*b.solution, optimum)});
  table.cells({inference_assumption(*a.scenario) != inference_assumption(*b.scenario) ? "*" : "",
               "inference priced by", inference_assumption(*a.scenario),
               inference_assumption(*b.scenario)});
  for (const std::string& label : labels) {
    const std::string va = value_of(ra, label), vb = value_of(rb, label);
    table.cells({va != vb ? "*" : "", label, va, vb});
  }
  return table;
}

}  // namespace

std::string inference_assumption(const Scenario& scenario) {
  const ServingSetup& s = scenario.serving;
  const auto number = [](double v) { return format_quantity(v, Unit::number, 3); };
  if (scenario.problem_given && scenario.problem.kind == ProblemKind::min_lifetime_flops) {
    return "FLOPs, not dollars: 2 N per token (a FLOPs problem)";
  }
  if (s.pricing == InferencePricing::mfu) {
    return "typed MFUs: prefill " + number(s.prefill_mfu) + ", decode " +
           (s.decode_mfu ? number(*s.decode_mfu) : std::string("none")) + " of " + s.chip.id +
           "'s peak";
  }
  std::string text = "the roofline: " + number(s.chips) + " x " + s.chip.id + ", " +
                     std::string(to_string(s.precision)) + ", " +
                     format_quantity(s.context_tokens, Unit::count) + " context";
  if (s.latency_per_token_seconds) {
    text += ", " + format_scientific(*s.latency_per_token_seconds * 1e3, 3) + "ms per token";
  }
  return text;
}

Json compare_json(const ComparedAnswer& a, const ComparedAnswer& b) {
  Json json;
  json["scenarios"] = {a.scenario->file, b.scenario->file};
  json["inference"] = {inference_assumption(*a.scenario), inference_assumption(*b.scenario)};
  json["plans"] = Json::array();
  const auto plan = [&](bool optimum) {
    return Json{{"plan", optimum ? "optimum" : "answer"},
                {"a_label", label_of(*a.solution, optimum)},
                {"b_label", label_of(*b.solution, optimum)},
                {"figures", figures_json(a, b, optimum)}};
  };
  json["plans"].push_back(plan(false));
  if (any_optimum(a, b)) json["plans"].push_back(plan(true));
  json["differences"] = Json::array();
  for (const Json& figure : json["plans"][0]["figures"]) {
    if (figure["differs"].get<bool>()) json["differences"].push_back(figure["key"]);
  }
  const bool converged =
      a.solution->status() == Status::converged && b.solution->status() == Status::converged;
  json["status"] = converged ? "converged" : "not_converged";
  for (const auto& [key, answer] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
    Json solved = solution_json(*answer->scenario, *answer->scenario->law, *answer->solution);
    solved.erase("schema_version");
    json[key] = std::move(solved);
  }
  return json_document(json);
}

std::string compare_text(const ComparedAnswer& a, const ComparedAnswer& b) {
  std::ostringstream out;
  out << "Compare: A = " << a.scenario->file << ", B = " << b.scenario->file << "\n";
  for (const auto* answer : {&a, &b}) {
    if (answer->solution->status() != Status::converged) {
      out << "STATUS: " << (answer == &a ? "A" : "B") << ": "
          << to_string(answer->solution->status()) << ": " << answer->solution->message() << "\n"
          << "Its numbers below are the solver's last iterate, not an optimum.\n";
    }
  }
  side_by_side(a, b, false).print(out);
  if (any_optimum(a, b)) {
    out << "\n";
    side_by_side(a, b, true).print(out);
  }
  for (const auto* answer : {&a, &b}) {
    for (const std::string& note : chinchilla_notes(*answer->solution)) {
      out << wrap_words((answer == &a ? "A: " : "B: ") + note);
    }
  }
  out << "  * the lines that differ. Each answer in full: scaleopt solve A (or B).\n";
  return out.str();
}

}  // namespace scaleopt::report
