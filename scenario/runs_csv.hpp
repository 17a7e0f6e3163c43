#pragma once
// Reading training runs from a CSV file for `scaleopt fit`, with errors that name the file,
// the line and the column ("runs.csv:17: column 'loss' (--loss-col): must be positive, got
// -2"). Rows and columns are split by Ben Strasser's Fast C++ CSV Parser (Debian libfccp-dev);
// each cell is then read by the one quantity parser (costmodel/quantity.hpp), so "70B" and
// "1.4e9" both work and doubles are read correctly rounded.

#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/problems/fit/training_run.hpp"

namespace scaleopt {

// The header names of the columns to read; exactly one of `tokens` and `flops` is set.
// With `flops`, D = C / (6 N) (C = 6 N D, docs/model.md, Training compute). Other columns are
// ignored.
struct RunsCsvColumns {
  std::string params;  // N
  std::string tokens;  // D
  std::string flops;   // C
  std::string loss;    // L
  // The experts of each run (the joint law's E, 1 = dense), for `fit --experts-col`; empty:
  // none read, every run counts as dense.
  std::string experts = {};

  // Throws InputError when a name is missing, both or neither of tokens/flops are given, or
  // two flags name the same column.
  void validate() const;
};

struct RunsCsv {
  std::vector<TrainingRun> runs;  // in file order
  int last_line = 0;              // number of the last line read (the header is line 1)
};

// Reads the file through scenario/input_file.hpp (the runs CSV size limit), then as
// read_runs_csv_text. Throws InputError "FILE: cannot open the file (reason)", "FILE:1: ..."
// (header), "FILE:LINE: ..." (a row with too few or too many cells, an unreadable or
// non-positive number). Blank lines are skipped. A file without any data row is an error.
RunsCsv read_runs_csv(const std::string& path, const RunsCsvColumns& columns);

// Same, from text held in memory (tests, the fuzzer of fuzz/): `name` stands for the file in
// messages ("NAME:LINE: ..."). The text is read exactly as the file would be.
RunsCsv read_runs_csv_text(std::string_view text, const std::string& name,
                           const RunsCsvColumns& columns);

// One column of runs held in memory (a DataFrame's, in the Python module): numbers, or the
// texts of its cells, read as the cells of a file are ("70B", "1.4e9").
struct RunsColumn {
  std::string name;                // the column's name
  std::string argument;            // what chose it, for messages ("params_col")
  std::vector<double> numbers;     // its cells, or when `texts` is not empty,
  std::vector<std::string> texts;  // their texts
  std::size_t size() const { return texts.empty() ? numbers.size() : texts.size(); }
};

// Row i of each column is run i; with `data_is_flops` the data column is C and D = C / (6 N).
// Every cell is checked as a file's are, and a column's name is only a name (it is never
// written into a file): InputError "NAME, row 16: column 'loss' (loss_col): must be positive,
// got -2" (rows counted from 0, as positions in a DataFrame), or for columns of different
// lengths or no rows. `experts`, when given, is each run's expert count (at least 1, as a
// file's experts_col); without it every run is dense.
std::vector<TrainingRun> runs_from_columns(const std::string& name, const RunsColumn& params,
                                           const RunsColumn& data, bool data_is_flops,
                                           const RunsColumn& loss,
                                           const RunsColumn* experts = nullptr);

}  // namespace scaleopt
