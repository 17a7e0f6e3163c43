#include "scaleopt/scenario/runs_csv.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/csv_errors.hpp"
#include "scaleopt/scenario/fccp.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {
namespace {

// Cells may be quoted ("1,000" is one cell); spaces and tabs around a cell are trimmed;
// blank lines are skipped (counted in line numbers all the same).
// Three columns (N, D or C, L), or four with the experts of a joint fit.
template <unsigned Columns>
using Reader = io::CSVReader<Columns, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::empty_line_comment>;

struct Column {
  const std::string* name;
  const char* flag;
  Unit unit;
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  fail_at_line(path, line, what);
}

// Why `value` is no run's number ("must be positive, got -2"), or empty.
std::string value_problem(double value) {
  if (value > 0.0 && std::isfinite(value)) return {};
  std::ostringstream message;
  message << "must be positive, got " << value;
  return message.str();
}

// Why `experts` is no run's expert count ("must be at least 1 (1 = dense), got 0.5"), or
// empty: the joint law's E counts experts, 1 for a dense model (costmodel/joint_loss_law.hpp).
std::string experts_problem(double experts) {
  if (experts >= 1.0) return {};
  std::ostringstream message;
  message << "must be at least 1 (1 = dense), got " << experts;
  return message.str();
}

// D = C / (6 N) for a run given by its compute, or the reason there is no such D.
double tokens_of(double params, double data, bool from_flops, std::string& problem) {
  const double tokens = from_flops ? data / (6.0 * params) : data;
  if (!(std::isfinite(tokens) && tokens > 0.0)) {
    std::ostringstream message;
    message << "D = C / (6 N) = " << data << " / (6 x " << params
            << ") is not a finite positive number of tokens";
    problem = message.str();
  }
  return tokens;
}

double read_cell(const std::string& path, int line, const Column& column, const char* cell) {
  const std::string prefix = "column " + quoted_input(*column.name) + " (" + column.flag + "): ";
  double value = 0.0;
  try {
    value = parse_quantity(cell, column.unit);
  } catch (const InputError& e) {
    fail(path, line, prefix + e.what());
  }
  if (const std::string problem = value_problem(value); !problem.empty()) {
    fail(path, line, prefix + problem);
  }
  return value;
}

}  // namespace

void RunsCsvColumns::validate() const {
  if (params.empty()) throw InputError("params_col: required (the column of model sizes N)");
  if (loss.empty()) throw InputError("loss_col: required (the column of final losses)");
  if (tokens.empty() == flops.empty()) {
    throw InputError(
        "give exactly one of tokens_col (training tokens D) and flops_col (training compute "
        "C = 6 N D)");
  }
  const std::string& data = tokens.empty() ? flops : tokens;
  const char* data_flag = tokens.empty() ? "flops_col" : "tokens_col";
  if (params == loss) throw InputError("loss_col: same column as params_col ('" + loss + "')");
  if (data == params) {
    throw InputError(std::string(data_flag) + ": same column as params_col ('" + data + "')");
  }
  if (data == loss) {
    throw InputError(std::string(data_flag) + ": same column as loss_col ('" + data + "')");
  }
  if (!experts.empty()) {
    for (const auto& [other, flag] : {std::pair{&params, "params_col"}, std::pair{&data, data_flag},
                                      std::pair{&loss, "loss_col"}}) {
      if (experts == *other) {
        throw InputError("experts_col: same column as " + std::string(flag) + " ('" + experts +
                         "')");
      }
    }
  }
}

namespace {

// The rows of the CSV text [begin, end), with every parser error reworded under `name`.
template <unsigned Count>
RunsCsv read_runs(const std::string& name, const RunsCsvColumns& columns, const char* begin,
                  const char* end) {
  columns.validate();
  const bool from_flops = columns.tokens.empty();
  const Column wanted[4] = {{&columns.params, "params_col", Unit::count},
                            {from_flops ? &columns.flops : &columns.tokens,
                             from_flops ? "flops_col" : "tokens_col", Unit::count},
                            {&columns.loss, "loss_col", Unit::number},
                            {&columns.experts, "experts_col", Unit::number}};
  RunsCsv result;
  try {
    Reader<Count> reader(name, begin, end);
    char* cells[4] = {nullptr, nullptr, nullptr, nullptr};
    if constexpr (Count == 4) {
      reader.read_header(io::ignore_extra_column, columns.params,
                         from_flops ? columns.flops : columns.tokens, columns.loss,
                         columns.experts);
    } else {
      reader.read_header(io::ignore_extra_column, columns.params,
                         from_flops ? columns.flops : columns.tokens, columns.loss);
    }
    const auto next_row = [&] {
      if constexpr (Count == 4) {
        return reader.read_row(cells[0], cells[1], cells[2], cells[3]);
      } else {
        return reader.read_row(cells[0], cells[1], cells[2]);
      }
    };
    while (next_row()) {
      const int line = static_cast<int>(reader.get_file_line());
      const double params = read_cell(name, line, wanted[0], cells[0]);
      const double data = read_cell(name, line, wanted[1], cells[1]);
      const double loss = read_cell(name, line, wanted[2], cells[2]);
      double experts = 1.0;
      if constexpr (Count == 4) {
        experts = read_cell(name, line, wanted[3], cells[3]);
        if (const std::string problem = experts_problem(experts); !problem.empty()) {
          fail(name, line,
               "column " + quoted_input(columns.experts) + " (experts_col): " + problem);
        }
      }
      std::string problem;
      const double tokens = tokens_of(params, data, from_flops, problem);
      if (!problem.empty()) fail(name, line, problem);
      result.runs.push_back({params, tokens, loss, experts});
      result.last_line = line;
    }
    result.last_line = std::max(result.last_line, static_cast<int>(reader.get_file_line()));
  } catch (const io::error::base& error) {
    rethrow_csv_error(name, error, [&](const std::string& column) {
      for (const Column& c : wanted) {
        if (*c.name == column) return std::string(c.flag);
      }
      return std::string("a flag");
    });
  }
  if (result.runs.empty())
    fail(name, std::max(result.last_line, 1), "no data rows after the header");
  return result;
}

}  // namespace

RunsCsv read_runs_csv(const std::string& path, const RunsCsvColumns& columns) {
  columns.validate();  // a mistake in the flags is said before the file is read
  return read_runs_csv_text(read_input_file(path, kRunsCsvInput), path, columns);
}

std::vector<TrainingRun> runs_from_columns(const std::string& name, const RunsColumn& params,
                                           const RunsColumn& data, bool data_is_flops,
                                           const RunsColumn& loss, const RunsColumn* experts) {
  const RunsColumn* columns[4] = {&params, &data, &loss, experts};
  const Unit units[4] = {Unit::count, Unit::count, Unit::number, Unit::number};
  const std::size_t count = experts == nullptr ? 3 : 4;
  const std::size_t rows = params.size();
  for (std::size_t c = 0; c < count; ++c) {
    const RunsColumn* column = columns[c];
    if (column->size() != rows) {
      throw InputError(name + ": column '" + column->name + "' (" + column->argument + ") has " +
                       std::to_string(column->size()) + " rows where '" + params.name + "' has " +
                       std::to_string(rows));
    }
  }
  if (rows == 0) throw InputError(name + ": no runs (no rows)");
  std::vector<TrainingRun> runs(rows);
  for (std::size_t row = 0; row < rows; ++row) {
    const auto fail_here = [&](const std::string& what) {
      throw InputError(name + ", row " + std::to_string(row) + ": " + what);
    };
    double values[4] = {0.0, 0.0, 0.0, 1.0};  // no experts column: every run dense
    for (std::size_t c = 0; c < count; ++c) {
      const RunsColumn& column = *columns[c];
      const std::string prefix = "column '" + column.name + "' (" + column.argument + "): ";
      if (column.texts.empty()) {
        values[c] = column.numbers[row];
      } else {
        try {
          values[c] = parse_quantity(column.texts[row], units[c]);
        } catch (const InputError& e) {
          fail_here(prefix + e.what());
        }
      }
      if (const std::string problem = value_problem(values[c]); !problem.empty()) {
        fail_here(prefix + problem);
      }
      if (c == 3) {
        if (const std::string problem = experts_problem(values[c]); !problem.empty()) {
          fail_here(prefix + problem);
        }
      }
    }
    std::string problem;
    const double tokens = tokens_of(values[0], values[1], data_is_flops, problem);
    if (!problem.empty()) fail_here(problem);
    runs[row] = {values[0], tokens, values[2], values[3]};
  }
  return runs;
}

RunsCsv read_runs_csv_text(std::string_view text, const std::string& name,
                           const RunsCsvColumns& columns) {
  // An empty view may hold a null pointer, which the parser would pass to memcpy.
  const char* begin = text.empty() ? "" : text.data();
  if (!columns.experts.empty()) return read_runs<4>(name, columns, begin, begin + text.size());
  return read_runs<3>(name, columns, begin, begin + text.size());
}

}  // namespace scaleopt
