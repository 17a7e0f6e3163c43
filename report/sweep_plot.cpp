#include "scaleopt/report/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "scaleopt/analysis/sweep_csv.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/solver/limits.hpp"

namespace scaleopt::report {
namespace {

bool ends_with(std::string_view text, std::string_view end) {
  return text.ends_with(end);
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

plots::SweepAxis sweep_axis(const std::string& column) {
  plots::SweepAxis axis;
  axis.name = column;
  auto quantity = [](Unit unit) {
    return [unit](double v) {
      return unit == Unit::count ? plots::count_text(v, 3) : format_quantity(v, unit, 3);
    };
  };
  // Inputs: their unit and meaning from the key registry (chip fields from the catalog's).
  if (const ScenarioKey* key = find_scenario_key(column); key && key->kind == KeyKind::number) {
    axis.label = column + ": " + std::string(key->doc);
    axis.format = quantity(key->unit);
    return axis;
  }
  if (column.starts_with("hardware.")) {
    if (const HardwareField* field = find_hardware_field(column.substr(column.rfind('.') + 1))) {
      axis.label = column + ": " + std::string(field->doc);
      axis.format = quantity(field->unit);
      return axis;
    }
  }
  // Outputs: solve's keys (the equal-cost optimum's under "optimum.").
  const std::string key = column.starts_with("optimum.") ? column.substr(8) : column;
  auto percent = [](double v) { return format_quantity(100 * v, Unit::number, 3) + "%"; };
  if (key == "params" || key == "active_params" || key == "vs_chinchilla.chinchilla_params") {
    axis.label = column + " (parameters)";
    axis.format = quantity(Unit::count);
  } else if (key.find("tokens") != std::string::npos && !key.starts_with("vs_chinchilla.tokens")) {
    axis.label = column + " (tokens)";
    axis.format = quantity(Unit::count);
  } else if (ends_with(key, ".usd")) {
    axis.label = column + " (USD)";
    axis.format = quantity(Unit::usd);
  } else if (ends_with(key, ".flops")) {
    axis.label = column + " (FLOPs)";
    axis.format = [](double v) { return format_scientific(v, 3); };
  } else if (ends_with(key, ".gpu_hours")) {
    axis.label = column + " (accelerator-hours)";
    axis.format = quantity(Unit::count);
  } else if (key == "loss") {
    axis.label = column + " (nats per token)";
    axis.format = [](double v) { return format_quantity(v, Unit::number, 4); };
  } else if (key.starts_with("cost_shares.") || key == "heuristic_overpay") {
    axis.label = column + " (share)";
    axis.format = percent;
  } else if (key == "over_chinchilla" || key.starts_with("vs_chinchilla.")) {
    axis.label = column + " (ratio)";
    axis.format = [](double v) { return format_quantity(v, Unit::number, 3) + "x"; };
  } else {
    axis.label = column;
    axis.format = [](double v) { return format_scientific(v, 3); };
  }
  return axis;
}

plots::Figure sweep_of(const std::string& csv, const SweepChoice& choice) {
  kMarksLimit.check(static_cast<double>(choice.marks.size()));
  for (const plots::SweepMark& mark : choice.marks) {
    if (mark.label.size() > kMaxMarkLabelBytes) {
      throw InputError("marks: a label of at most " + std::to_string(kMaxMarkLabelBytes) +
                       " bytes, got " + std::to_string(mark.label.size()));
    }
  }
  const std::string file_text = read_sweep_file(csv);
  const SweepHeader header = read_sweep_header(file_text, csv);
  auto is_input = [&](const std::string& name) {
    return std::find(header.inputs.begin(), header.inputs.end(), name) != header.inputs.end();
  };
  const std::string x = choice.x.empty() ? header.inputs.front() : choice.x;
  if (!is_input(x)) {
    throw InputError("x: '" + x + "' is not an input varied by " + csv + " (" +
                     list(header.inputs) + ")");
  }
  std::optional<std::string> series;
  if (choice.series.empty()) {
    for (const std::string& input : header.inputs) {
      if (input != x) {
        series = input;
        break;
      }
    }
  } else if (choice.series != "none") {
    if (!is_input(choice.series) || choice.series == x) {
      throw InputError("series: '" + choice.series + "' is not another input varied by " + csv +
                       " (" + list(header.inputs) + "), or none");
    }
    series = choice.series;
  }
  if (std::find(header.columns.begin(), header.columns.end(), choice.y) == header.columns.end()) {
    throw InputError("y: no column '" + choice.y + "' in " + csv + " (e.g. params, " +
                     "pretrain_tokens, loss, cost.total.usd, over_chinchilla)");
  }
  const std::vector<SweepRow> rows = read_sweep_rows(file_text, csv, x, choice.y, series);
  std::vector<std::array<double, 3>> kept;
  for (const SweepRow& row : rows) {
    if (row.status == "converged" && std::isfinite(row.x) && std::isfinite(row.y)) {
      kept.push_back({row.x, row.y, series ? row.series : NAN});
    }
  }
  if (kept.empty()) {
    throw InputError(csv + ": no converged row has a number in column '" + choice.y + "'");
  }
  plots::SweepText text;
  text.x = sweep_axis(x);
  text.y = sweep_axis(choice.y);
  if (series) text.series = sweep_axis(*series);
  text.marks = choice.marks;
  const std::string file = std::filesystem::path(csv).filename().string();
  text.title = "Sweep: " + choice.y + " of each optimum against " + x +
               (series ? ", one line per " + *series : "");
  text.assumptions = file + ": " + std::to_string(kept.size()) + " of " +
                     std::to_string(rows.size()) + " rows drawn";
  if (kept.size() < rows.size()) {
    text.assumptions += "; " + std::to_string(rows.size() - kept.size()) +
                        " not converged or without a value left out";
  }
  return plots::sweep_figure(plots::sweep_lines(kept), text);
}

}  // namespace scaleopt::report
