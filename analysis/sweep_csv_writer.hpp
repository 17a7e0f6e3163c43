#pragma once
// The CSV of `scaleopt sweep` from the answers of analysis/sweep_runner.hpp: a header
// "point,points,<the varied inputs>,<the answer's columns>" and a row per point, the answer's
// cells as analysis/lifecycle_csv.hpp writes them. Numbers are the shortest text that reads
// back as the same double, so a point's row is the same byte for byte whatever thread, chunk
// or shard solved it (analysis/sweep_csv.hpp reads such a file back).

#include <cstddef>
#include <span>
#include <string>

#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"

namespace scaleopt {

class SweepCsvWriter {
 public:
  // `layout`: the question's answers (their columns); `nlopt_algorithm`: the algorithm named in the
  // rows of answers found by NLopt.
  SweepCsvWriter(const SweepGrid& grid, AnswerLayout layout, std::string nlopt_algorithm);

  // "point,points,PATH...,COLUMN..." (no newline).
  std::string header() const;

  // The grid values of `point` as the row prints them (for checking a partial file).
  std::string values_text(std::size_t point) const;

  // A line per point, in the order given.
  std::string rows(std::span<const SweepPoint> points) const;
  // The same appended to `text`, whose capacity a caller may keep from block to block.
  void append_rows(std::string& text, std::span<const SweepPoint> points) const;

 private:
  const SweepGrid& grid_;
  AnswerLayout layout_;
  std::string nlopt_algorithm_;
};

}  // namespace scaleopt
