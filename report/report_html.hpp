#pragma once
// The HTML report of a solved scenario: one self-contained page (inline CSS and SVG, no
// script, nothing fetched) with the question, the answer, costs by phase, the comparison with
// the Chinchilla-style model of equal quality, the figures, and every input with where it
// came from. Numbers print as `scaleopt solve` prints them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

struct ReportFigure {
  std::string id;       // "isoloss": the figure's anchor and the prefix of its SVG ids
  std::string heading;  // what it shows
  std::string svg;      // gnuplot's SVG text
  std::string command;  // the scaleopt command that draws it alone
};

// A table with the lines printed under it ("n/a: why", "no effect: ...").
struct ReportTable {
  Table table;
  std::vector<std::string> notes;
};

struct ReportInputs {
  const Scenario* scenario = nullptr;
  const QuestionSolution* solution = nullptr;
  std::vector<std::string> overrides;  // --set KEY=VALUE, listed as sources
  std::string scenario_text;           // the file, for the question in its author's words
  std::vector<ReportFigure> figures;   // in the order they appear
  // Why the serving-cost figure is missing, when it is ("inference is priced at fixed MFUs"):
  // under the models' figure, or under "Not shown" when neither is drawn.
  std::string serving_figure_note;
  // The sensitivity analysis (scaleopt sensitivity): the tornado and the elasticities, with a
  // sentence on how they were computed; empty when not computed.
  std::string sensitivity_note;
  std::vector<ReportTable> sensitivity;
  // The Monte Carlo analysis (scaleopt uncertainty) when the scenario has [uncertainty].
  std::string uncertainty_note;
  std::vector<ReportTable> uncertainty;
};

// Where an input's value comes from: "scenario file", "--set", "default (assumed)", the law's,
// the architecture's or the chip's source.
std::string input_source(const Scenario& scenario, const std::string& path,
                         const std::vector<std::string>& overrides);

// The leading comment of a scenario file, without its '#' marks, as paragraphs (a blank
// comment line separates them); command lines (indented) are left out.
std::vector<std::string> scenario_notes(const std::string& scenario_text);

std::string report_html(const ReportInputs& inputs);

// Empty when `html` is a whole page: closed by </html>, with `figures` inline SVGs each closed
// by </svg> (each was parsed whole when drawn: report/figure_file_check.hpp); else what is
// wrong.
std::string report_html_defect(std::string_view html, std::size_t figures);

}  // namespace scaleopt::report
