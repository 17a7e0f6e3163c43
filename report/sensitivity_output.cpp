#include "scaleopt/report/sensitivity_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

Json outputs_json(const OutputValues& values) {
  Json json = Json::object();
  for (std::size_t j = 0; j < values.size(); ++j) {
    json[std::string(kElasticityOutputs[j])] = finite_or_null(values[j]);
  }
  return json;
}

Json elasticity_json(const InputSensitivity& s, const Elasticity& e) {
  Json json{{"input", s.path},
            {"value", finite_or_null(s.value)},
            {"status", std::string(to_string(e.status))}};
  if (e.status == Status::converged) {
    json["stencil"] = std::string(e.stencil);
    for (std::size_t j = 0; j < e.values.size(); ++j) {
      json[std::string(kElasticityOutputs[j])] = finite_or_null(e.values[j]);
    }
  } else {
    json["message"] = e.message;
  }
  return json;
}

// Elasticities to 3 significant digits; below 1e-6 they are rounding noise of the method.
std::string elasticity_text(double value) {
  return std::fabs(value) < 1e-6 ? "0" : format_scientific(value, 3);
}

std::string side_text(const TornadoSide& side, const InputSensitivity& s, std::size_t k,
                      const std::string& label, std::vector<std::string>& notes) {
  std::string text = format_quantity(side.value, s.unit) + " -> ";
  if (side.status != Status::converged) {
    notes.push_back(s.path + " " + label + ": " + side.message);
    return text + "n/a";
  }
  return text + format_scientific(side.outputs[k], 4);
}

// Swings below 1e-10 are the solver's rounding, not the input's effect.
std::string swing_text(double swing) {
  if (std::isnan(swing)) return "n/a";
  return swing < 1e-10 ? "0%" : format_quantity(100 * swing, Unit::number, 3) + "%";
}

}  // namespace

bool no_effect(const InputSensitivity& s) {
  const auto zero = [](const Elasticity& e) {
    return e.status == Status::converged &&
           std::all_of(e.values.begin(), e.values.end(), [](double v) { return v == 0.0; });
  };
  return zero(s.optimum) && (!s.heuristic || zero(*s.heuristic));
}

Table elasticity_table(const std::string& title, const SensitivityReport& report, bool heuristic,
                       std::vector<std::string>& notes) {
  Table table(title);
  table.header({"input", "value", "params", "tokens", "loss", "cost", "over Chinchilla"});
  std::string unused, whole;
  for (const InputSensitivity& s : report.inputs) {
    if (no_effect(s)) {
      unused += (unused.empty() ? "" : ", ") + s.path;
      continue;
    }
    const Elasticity& e = heuristic ? *s.heuristic : s.optimum;
    if (e.status != Status::converged) {
      notes.push_back("n/a, left out: " + s.path + ": " + e.message);
      continue;
    }
    std::vector<std::string> cells{s.path, format_quantity(s.value, s.unit)};
    for (double v : e.values) cells.push_back(elasticity_text(v));
    table.cells(cells);
    if (s.whole_number) whole += (whole.empty() ? "" : ", ") + s.path;
  }
  if (!whole.empty()) {
    notes.push_back(
        "whole numbers, as secants over one whole step down and up (re-solved), not "
        "derivatives: " +
        whole);
  }
  if (!unused.empty()) notes.push_back("no effect (elasticities exactly 0): " + unused);
  if (report.replica_chips_held) {
    notes.push_back("inference.chips: chosen with N, " +
                    format_quantity(*report.replica_chips_held, Unit::count) +
                    " chips at the optimum; a discrete choice has no derivative, so the "
                    "elasticities hold it there (the tornado re-solves, choosing again)");
  }
  return table;
}

Table tornado_table(const SensitivityReport& report, const SensitivityAnalysisOptions& options,
                    std::vector<std::string>& notes, bool law_group) {
  const std::size_t k = options.rank_by;
  const std::string percent = format_quantity(100 * options.tornado_fraction, Unit::number) + "%";
  const std::string what =
      law_group ? "the law's coefficients (a fit's uncertainty, not a choice of the plan)"
                : "each input";
  Table tornado("Tornado: " + what + " -" + percent + " and +" + percent + ", re-solved; " +
                std::string(kElasticityOutputs[k]) +
                " at the base: " + format_scientific(report.base[k], 4) + "; ranked by swing");
  tornado.header({"", "input", "-" + percent, "+" + percent, "swing"});
  std::size_t rank = 0;
  std::string whole;
  for (std::size_t i : report.tornado) {
    const InputSensitivity& s = report.inputs[i];
    if (no_effect(s) || law_coefficient(s.path) != law_group) continue;
    if (s.low.status != Status::converged && s.high.status != Status::converged) {
      notes.push_back("n/a either way, left out: " + s.path + ": " + s.low.message);
      continue;
    }
    if (s.whole_number) whole += (whole.empty() ? "" : ", ") + s.path;
    std::vector<std::string> side_notes;
    tornado.cells({std::to_string(++rank), s.path,
                   side_text(s.low, s, k, "-" + percent, side_notes),
                   side_text(s.high, s, k, "+" + percent, side_notes), swing_text(s.swing)});
    for (const std::string& note : side_notes) notes.push_back("n/a: " + note);
  }
  if (!whole.empty()) {
    notes.push_back("whole numbers, moved to whole values at least one step away: " + whole);
  }
  return tornado;
}

bool has_rows(const Table& table) {
  return table.rows().size() > (table.has_header() ? 1u : 0u);
}

Json sensitivity_json(const Scenario& scenario, const SensitivityReport& report,
                      const SensitivityAnalysisOptions& options) {
  Json json{{"problem", std::string(to_string(report.kind))},
            {"unit", std::string(to_string(report.unit))},
            {"scenario", scenario.file}};
  json["outputs"] = Json::array();
  for (std::string_view name : kElasticityOutputs) json["outputs"].push_back(std::string(name));
  json["base"] = outputs_json(report.base);
  if (report.heuristic) json["heuristic_base"] = outputs_json(*report.heuristic);
  json["replica_chips_held"] =
      report.replica_chips_held ? Json(*report.replica_chips_held) : Json(nullptr);
  json["tornado_fraction"] = options.tornado_fraction;
  json["rank_by"] = std::string(kElasticityOutputs[options.rank_by]);
  json["elasticities"] = Json::array();
  for (const InputSensitivity& s : report.inputs) {
    json["elasticities"].push_back(elasticity_json(s, s.optimum));
  }
  if (report.heuristic) {
    json["heuristic_elasticities"] = Json::array();
    for (const InputSensitivity& s : report.inputs) {
      json["heuristic_elasticities"].push_back(elasticity_json(s, *s.heuristic));
    }
  }
  json["tornado"] = Json::array();
  for (std::size_t i : report.tornado) {
    const InputSensitivity& s = report.inputs[i];
    Json row{{"input", s.path},
             {"value", finite_or_null(s.value)},
             {"low_value", finite_or_null(s.low.value)},
             {"high_value", finite_or_null(s.high.value)},
             {"low_status", std::string(to_string(s.low.status))},
             {"high_status", std::string(to_string(s.high.status))},
             {"group", law_coefficient(s.path) ? "law" : "inputs"},
             {"whole_number", s.whole_number}};
    if (s.low.status == Status::converged) row["low"] = outputs_json(s.low.outputs);
    if (s.high.status == Status::converged) row["high"] = outputs_json(s.high.outputs);
    row["swing"] = finite_or_null(s.swing);
    json["tornado"].push_back(row);
  }
  return json_document(json);
}

std::string sensitivity_text(const Scenario& scenario, const SensitivityReport& report,
                             const SensitivityAnalysisOptions& options) {
  std::ostringstream out;
  auto print = [&out](const Table& table, const std::vector<std::string>& notes) {
    table.print(out);
    for (const std::string& note : notes) out << "  " << note << "\n";
  };
  const bool equal_cost = report.heuristic.has_value();
  std::vector<std::string> notes;
  print(elasticity_table(
            "Elasticities d ln y / d ln p at the " +
                std::string(equal_cost ? "true optimum (same loss as the heuristic)" : "optimum") +
                " (implicit-function theorem on the KKT system), " + scenario.file,
            report, false, notes),
        notes);
  if (equal_cost) {
    out << "\n";
    notes.clear();
    print(elasticity_table("Elasticities of the equal-cost heuristic's plan (closed form)", report,
                           true, notes),
          notes);
  }
  out << "\n";
  notes.clear();
  print(tornado_table(report, options, notes), notes);
  notes.clear();
  const Table law = tornado_table(report, options, notes, true);
  if (has_rows(law)) {
    out << "\n";
    print(law, notes);
  }
  out << "  elasticities below 1e-6 are shown as 0 (the method's noise is ~1e-9); an input at 0 "
         "has elasticity 0\n";
  return out.str();
}

}  // namespace scaleopt::report
