#include "scaleopt/report/report_html.hpp"
#include "scaleopt/report/report_text.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/html_text.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt::report {
namespace {

// Print-friendly, no web fonts, nothing fetched.
constexpr const char* kStyle = R"(body{font-family:"DejaVu Sans",Arial,sans-serif;margin:2em auto;
max-width:62em;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #ccc;
padding-bottom:.2em;margin-top:1.8em}.lead{font-size:1.1em;color:#444;margin-top:0}
table{border-collapse:collapse;margin:1em 0;font-size:.92em}caption{text-align:left;
font-weight:bold;padding:.3em 0}th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left;
vertical-align:top}thead th{background:#f3f3f3}tbody th,tr>th{font-weight:normal;
background:#fafafa;white-space:pre}figure{margin:1.2em 0}figure svg{width:100%;height:auto;
border:1px solid #eee}figcaption{font-size:.9em;color:#555}code{background:#f4f4f4;
padding:0 .25em}.note{color:#555}.status{background:#fde8e8;border:1px solid #d33;
padding:.5em}blockquote{margin:1em 0;padding:.2em 1em;border-left:3px solid #ccc;color:#333}
footer{margin-top:3em;font-size:.85em;color:#666})";

std::string paragraph(const std::string& text) {
  return "<p>" + html_escape(text) + "</p>\n";
}

std::string code(const std::string& text) {
  return "<code>" + html_escape(text) + "</code>";
}

const Hardware* chip_with_id(const Scenario& scenario, std::string_view id) {
  if (scenario.training.chip.id == id) return &scenario.training.chip;
  if (scenario.serving.chip.id == id) return &scenario.serving.chip;
  return nullptr;
}

std::string figure_html(const ReportFigure& figure) {
  return "<figure id=\"figure-" + html_escape(figure.id) + "\">\n" +
         inline_svg(figure.svg, figure.id + "-") + "\n<figcaption>" + html_escape(figure.heading) +
         ". Drawn alone by " + code(figure.command) + ".</figcaption>\n</figure>\n";
}

const ReportFigure* find_figure(const ReportInputs& inputs, std::string_view id) {
  for (const ReportFigure& figure : inputs.figures) {
    if (figure.id == id) return &figure;
  }
  return nullptr;
}

std::string unit_words(CostUnit unit) {
  switch (unit) {
    case CostUnit::usd:
      return "in dollars";
    case CostUnit::gpu_hours:
      return "in accelerator-hours";
    case CostUnit::flops:
      return "in FLOPs";
  }
  return "";
}

constexpr std::string_view kAssumptionPrefix = "assumption: ";

// A source longer than this is listed once under the tables, and cited by its number.
constexpr std::size_t kLongSource = 60;

// The long sources of the assumption tables, numbered in order of first use: the H100's
// datasheet, say, is given once for every row it is the source of.
class SourceList {
 public:
  // `text` itself when short; else with the longest listed source inside it (the law's source
  // in "law epoch2024: ...") replaced by "source k below", or the whole of it listed anew.
  std::string cite(const std::string& text) {
    if (text.size() <= kLongSource) return text;
    std::size_t best = sources_.size();
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      if (text.find(sources_[k]) != std::string::npos &&
          (best == sources_.size() || sources_[k].size() > sources_[best].size())) {
        best = k;
      }
    }
    if (best == sources_.size()) {
      sources_.push_back(text);
      return reference(best);
    }
    std::string cited = text;
    cited.replace(cited.find(sources_[best]), sources_[best].size(), reference(best));
    return cited;
  }

  // <ol> of the sources cited, empty when none was.
  std::string html() const {
    if (sources_.empty()) return "";
    std::string h = "<p>Sources cited by number above:</p>\n<ol class=\"sources\">\n";
    for (const std::string& source : sources_) h += "<li>" + html_escape(source) + "</li>\n";
    return h + "</ol>\n";
  }

 private:
  static std::string reference(std::size_t index) {
    return "source " + std::to_string(index + 1) + " below";
  }
  std::vector<std::string> sources_;
};

// Where the law, the model and the chips come from.
Table choices_table(const Scenario& scenario, SourceList& sources) {
  Table table("Choices and their sources");
  table.header({"choice", "value", "source"});
  const LossLaw& law = *scenario.law;
  table.cells(
      {"loss law", law.name, law.source.empty() ? "scenario file" : sources.cite(law.source)});
  if (!scenario.architecture.source.empty() || scenario.architecture.name != "custom") {
    table.cells({"architecture", scenario.architecture.name,
                 scenario.architecture.source.empty()
                     ? "scenario file"
                     : sources.cite(scenario.architecture.source)});
  }
  const bool priced = scenario.problem.kind != ProblemKind::min_lifetime_flops;
  if (priced) {
    table.cells({"training chip",
                 scenario.training.chip.name + " (" + scenario.training.chip.id + ")",
                 sources.cite(scenario.training.chip.source)});
    table.cells({"serving chip", scenario.serving.chip.name + " (" + scenario.serving.chip.id + ")",
                 sources.cite(scenario.serving.chip.source)});
    table.cells({"inference pricing", std::string(to_string(scenario.serving.pricing)),
                 scenario.serving.pricing == InferencePricing::mfu
                     ? "fixed prefill and decode MFUs (as Sardana et al. 2024)"
                     : "the inference roofline at the best batch (docs/model.md)"});
  }
  return table;
}

// Whether an input enters the scenario's problem: the shares only equal-cost, budgets only
// max-quality; a FLOPs problem no prices, chips or setups (only the law, the demand and RL
// tokens); inference priced at fixed MFUs no roofline settings (as the loader's assumptions).
bool enters_problem(const Scenario& scenario, std::string_view path) {
  const ProblemKind kind = scenario.problem.kind;
  auto any_prefix = [&](std::initializer_list<std::string_view> prefixes) {
    for (const std::string_view prefix : prefixes) {
      if (path.starts_with(prefix)) return true;
    }
    return false;
  };
  if (path == "training.tokens") return false;  // the problem chooses D
  if (path == "rl.rollout_tokens" && kind == ProblemKind::equal_cost) return false;  // its shares
  if (path.starts_with("problem.shares.")) return kind == ProblemKind::equal_cost;
  if (any_prefix({"problem.budget", "problem.fleet", "problem.min_params"})) {
    return kind == ProblemKind::max_quality;
  }
  if (any_prefix({"problem.pretraining_budget"})) {
    return kind == ProblemKind::best_at_pretraining_budget;
  }
  if (any_prefix({"problem.target"})) {
    return kind == ProblemKind::min_lifetime_flops || kind == ProblemKind::min_lifetime_cost;
  }
  if (path.starts_with("problem.params")) return kind == ProblemKind::equal_cost;
  if (kind == ProblemKind::min_lifetime_flops) {
    return any_prefix({"law.", "problem.", "inference.tokens", "inference.rate",
                       "inference.duration", "inference.requests", "inference.input_tokens",
                       "inference.output_tokens", "inference.output_fraction", "rl.rollout_tokens",
                       "rl.trained_fraction", "rl.extra_forward_passes"});
  }
  if (scenario.serving.pricing == InferencePricing::mfu) {
    return !any_prefix({"inference.chips", "inference.context", "inference.batch",
                        "inference.latency", "inference.compute_efficiency",
                        "inference.bandwidth_efficiency"});
  }
  return !any_prefix({"inference.prefill_mfu", "inference.decode_mfu"});
}

}  // namespace

std::string input_source(const Scenario& scenario, const std::string& path,
                         const std::vector<std::string>& overrides) {
  for (const std::string& argument : overrides) {
    std::string_view key = std::string_view(argument).substr(0, argument.find('='));
    while (!key.empty() && key.front() == ' ') key.remove_prefix(1);
    while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
    if (key == path) return "--set " + argument;
  }
  if (path.starts_with("law.") && scenario.law) {
    return "law " + scenario.law->name +
           (scenario.law->source.empty() ? "" : ": " + scenario.law->source) +
           (scenario.law_file.empty() ? "" : " (read from " + scenario.law_file + ")");
  }
  if (path.starts_with("hardware.")) {
    const std::string rest = path.substr(9);
    const std::string id = rest.substr(0, rest.rfind('.'));
    if (const Hardware* chip = chip_with_id(scenario, id)) {
      if (path.ends_with(".usd_per_hour")) {
        // The catalog's notes start "assumption: " already (costmodel/data/hardware.toml).
        std::string_view note = chip->price_note;
        if (note.starts_with(kAssumptionPrefix)) note.remove_prefix(kAssumptionPrefix.size());
        return "price (an assumption): " + std::string(note);
      }
      return chip->source;
    }
  }
  if (std::find(scenario.keys_given.begin(), scenario.keys_given.end(), path) !=
      scenario.keys_given.end()) {
    return "scenario file";
  }
  for (const std::string& line : scenario.assumptions) {
    if (line.starts_with(path + " =")) return "default (assumed): " + line;
  }
  if (path.starts_with("architecture.") && !scenario.architecture.source.empty()) {
    return scenario.architecture.name + ": " + scenario.architecture.source;
  }
  return "default";
}

std::vector<std::string> scenario_notes(const std::string& scenario_text) {
  std::vector<std::string> paragraphs;
  std::istringstream lines(scenario_text);
  std::string line, current;
  while (std::getline(lines, line)) {
    if (!line.starts_with("#")) break;  // the leading comment only
    std::string text = line.substr(1);
    if (text.starts_with("   ")) continue;  // an indented command line
    if (!text.empty() && text.front() == ' ') text.erase(0, 1);
    if (text.empty()) {
      if (!current.empty()) paragraphs.push_back(current);
      current.clear();
      continue;
    }
    current += (current.empty() ? "" : " ") + text;
  }
  if (!current.empty()) paragraphs.push_back(current);
  return paragraphs;
}

std::string report_html(const ReportInputs& inputs) {
  const Scenario& scenario = *inputs.scenario;
  const QuestionSolution& solution = *inputs.solution;
  const Table answer = solution_table(scenario, solution);
  const std::string name = file_name(scenario);
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<title>scaleopt report: " + html_escape(name) + "</title>\n";
  h += "<style>\n" + std::string(kStyle) + "\n</style>\n</head>\n<body>\n";
  h += "<h1>scaleopt report: " + html_escape(name) + "</h1>\n";
  h += "<p class=\"lead\">" + html_escape(answer.title()) + "</p>\n";

  h += "<section id=\"question\">\n<h2>The question</h2>\n";
  const auto notes = scenario_notes(inputs.scenario_text);
  if (!notes.empty()) {
    h += "<blockquote>\n";
    for (const std::string& note : notes) h += paragraph(note);
    h += "</blockquote>\n";
  }
  h += "<p>Problem " + code(std::string(to_string(solution.kind))) + " of " + code(name) +
       ", reproduced by " + code("scaleopt solve " + scenario.file) +
       ". Every input and its source is " +
       "listed under <a href=\"#assumptions\">Assumptions</a>.</p>\n</section>\n";

  h += "<section id=\"answer\">\n<h2>The answer</h2>\n";
  if (solution.status() != Status::converged) {
    h += "<p class=\"status\">STATUS: " + html_escape(std::string(to_string(solution.status()))) +
         ": " + html_escape(solution.message()) +
         ". The numbers below are the solver's last iterate, not an optimum.</p>\n";
  }
  h += html_table(answer);
  h += "<ul>\n";
  for (const std::string& note : solution_notes(scenario, *scenario.law, solution)) {
    h += "<li>" + html_escape(note) + "</li>\n";
  }
  h += "</ul>\n</section>\n";

  h += "<section id=\"phases\">\n<h2>Cost by phase</h2>\n";
  const QuestionAnswer& best = solution.optimum ? *solution.optimum : solution.answer;
  h +=
      paragraph("At the " + std::string(solution.optimum ? "optimum" : "answer") +
                ", pretraining takes " + percent(best.shares.pretrain, 4) +
                " of the lifetime cost, " + "RL " + percent(best.shares.rl, 4) + " and inference " +
                percent(best.shares.inference, 4) + " (" + unit_words(solution.unit) + ").");
  if (const ReportFigure* figure = find_figure(inputs, "phases")) h += figure_html(*figure);
  h += "</section>\n";

  h += "<section id=\"chinchilla\">\n<h2>Against Chinchilla</h2>\n";
  const ChinchillaComparison& vs = best.vs_chinchilla;
  if (vs.chinchilla.solve.status != Status::infeasible && vs.chinchilla.params > 0.0) {
    h += paragraph("The Chinchilla-style model that reaches the same loss has " +
                   format_quantity(vs.chinchilla.params, Unit::count, 4) + " parameters and " +
                   format_quantity(vs.chinchilla.pretrain_tokens, Unit::count, 4) +
                   " pretraining tokens. The plan has " + percent(vs.params_ratio, 4) +
                   " of its parameters, " + percent(vs.tokens_ratio, 4) + " of its tokens and " +
                   percent(vs.cost_ratio, 4) + " of its lifetime cost, and trains " +
                   format_quantity(best.over_chinchilla, Unit::number, 4) +
                   "x the rule's tokens for its own size.");
  } else {
    h += paragraph("No Chinchilla-style model reaches this loss: " + vs.chinchilla.solve.message);
  }
  h += html_table(chinchilla_table(scenario, solution));
  if (const ReportFigure* figure = find_figure(inputs, "isoloss")) h += figure_html(*figure);
  h += "</section>\n";

  // Sections without a figure or a table are left out, and named under Assumptions.
  std::vector<std::pair<std::string, std::string>> not_shown;  // what, and why
  const ReportFigure* serving = find_figure(inputs, "cost-vs-context");
  const ReportFigure* serving_models = find_figure(inputs, "cost-vs-context-models");
  if (serving || serving_models) {
    h += "<section id=\"serving\">\n<h2>Serving cost against context</h2>\n";
    if (serving) {
      h += figure_html(*serving);
    } else {
      h += "<p class=\"note\">" + html_escape(inputs.serving_figure_note) + "</p>\n";
    }
    if (serving_models) h += figure_html(*serving_models);
    h += "</section>\n";
  } else {
    not_shown.push_back({"serving cost against context", inputs.serving_figure_note});
  }

  auto analysis = [&](const char* id, const char* heading, const std::string& note,
                      const std::vector<ReportTable>& tables, const char* figure_id) {
    if (tables.empty()) return;
    h += "<section id=\"" + std::string(id) + "\">\n<h2>" + heading + "</h2>\n";
    h += paragraph(note);
    if (const ReportFigure* figure = find_figure(inputs, figure_id)) h += figure_html(*figure);
    for (const ReportTable& table : tables) {
      h += html_table(table.table);
      if (!table.notes.empty()) {
        h += "<ul class=\"note\">\n";
        for (const std::string& line : table.notes) h += "<li>" + html_escape(line) + "</li>\n";
        h += "</ul>\n";
      }
    }
    h += "</section>\n";
  };
  analysis("sensitivity", "Sensitivity", inputs.sensitivity_note, inputs.sensitivity, "tornado");
  analysis("uncertainty", "Uncertainty", inputs.uncertainty_note, inputs.uncertainty,
           "uncertainty");
  if (inputs.sensitivity.empty()) {
    not_shown.push_back({"sensitivity", "The analysis did not converge."});
  }
  if (inputs.uncertainty.empty()) {
    not_shown.push_back({"uncertainty", "The scenario has no [uncertainty] table."});
  }

  h += "<section id=\"assumptions\">\n<h2>Assumptions</h2>\n";
  SourceList sources;
  h += html_table(choices_table(scenario, sources));
  Table table("Every numeric input of this problem, its value and where it comes from");
  table.header({"input", "value", "source", "meaning"});
  std::size_t rows = 0;
  for (const NumericInput& input : numeric_inputs(scenario)) {
    if (!enters_problem(scenario, input.path)) continue;
    table.cells({input.path, format_quantity(input.value, input.unit, 4),
                 sources.cite(input_source(scenario, input.path, inputs.overrides)),
                 std::string(input.doc)});
    ++rows;
  }
  // Folded: the full table is as long as the rest of the page.
  h += "<details>\n<summary>Every numeric input (" + std::to_string(rows) +
       "), its value and source</summary>\n" + html_table(table) + "</details>\n";
  h += sources.html();
  if (!scenario.assumptions.empty()) {
    h += "<p>Defaults the scenario did not set, which are assumptions:</p>\n<ul>\n";
    for (const std::string& line : scenario.assumptions) {
      h += "<li>" + html_escape(line) + "</li>\n";
    }
    h += "</ul>\n";
  }
  if (!not_shown.empty()) {
    std::string line = "Not shown: ";
    for (std::size_t i = 0; i < not_shown.size(); ++i) {
      line += (i ? "; " : "") + not_shown[i].first;
    }
    h += "<p class=\"note\">" + html_escape(line + ".") + "</p>\n<ul class=\"note\">\n";
    for (auto [what, why] : not_shown) {
      if (why.empty()) continue;
      what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
      h += "<li>" + html_escape(what + ". " + why) + "</li>\n";
    }
    h += "</ul>\n";
  }
  h += "</section>\n";
  h += "<footer>Written by scaleopt report from " + html_escape(name) +
       ". Figures drawn by gnuplot from data scaleopt computed; equations and sources in the "
       "project's docs/model.md.</footer>\n";
  h += "</body>\n</html>\n";
  return h;
}

std::string report_html_defect(std::string_view html, std::size_t figures) {
  if (!html.ends_with("</body>\n</html>\n")) return "the page is not closed by </html>";
  const auto count = [&](std::string_view tag) {
    std::size_t n = 0;
    for (std::size_t at = html.find(tag); at != std::string_view::npos; at = html.find(tag, at + 1))
      ++n;
    return n;
  };
  const std::size_t opened = count("<svg"), closed = count("</svg>");
  if (opened != figures || closed != figures) {
    return std::to_string(opened) + " <svg> and " + std::to_string(closed) + " </svg> for " +
           std::to_string(figures) + " figures";
  }
  return "";
}

}  // namespace scaleopt::report
