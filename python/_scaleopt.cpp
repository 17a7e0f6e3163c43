// The compiled half of the Python module `scaleopt` (docs/python.md): the library's answers as
// Python objects. Argument handling that is plain Python (keyword names, defaults, building a
// DataFrame) lives in scaleopt/__init__.py; this file turns the library's results into Python
// objects without a text round trip where speed matters (a loaded scenario's solve, a sweep's
// columns), and runs the other commands in-process so that their keys and messages are the
// command line's by construction.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/scenario/runs_csv.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_document.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/stop.hpp"

namespace py = pybind11;

namespace scaleopt::python {
namespace {

// nlohmann's JSON as the Python objects json.loads would give (dicts keep the key order).
// Built with CPython's own calls (PyDict_SetItem, PyUnicode_FromStringAndSize): pybind11's
// dict[key] = value goes through a generic accessor and PyObject_SetItem, which made this
// conversion ~90k instructions for `solve --json`'s answer (the budget is 20 us over the
// C++ solve, docs/performance.md); each object here is owned by a py::object as soon as it exists,
// so an exception leaks nothing.
py::object to_python(const report::Json& json);

py::object checked(PyObject* object) {
  if (object == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(object);
}

py::object text_object(const std::string& text) {
  return checked(PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size())));
}

py::object object_to_python(const report::Json& json) {
  py::object dict = checked(PyDict_New());
  for (auto it = json.begin(); it != json.end(); ++it) {
    const py::object key = text_object(it.key());
    const py::object value = to_python(it.value());
    if (PyDict_SetItem(dict.ptr(), key.ptr(), value.ptr()) != 0) throw py::error_already_set();
  }
  return dict;
}

py::object to_python(const report::Json& json) {
  switch (json.type()) {
    case report::Json::value_t::null:
      return py::none();
    case report::Json::value_t::boolean:
      return py::bool_(json.get<bool>());
    case report::Json::value_t::number_integer:
      return checked(PyLong_FromLongLong(json.get<std::int64_t>()));
    case report::Json::value_t::number_unsigned:
      return checked(PyLong_FromUnsignedLongLong(json.get<std::uint64_t>()));
    case report::Json::value_t::number_float:
      return checked(PyFloat_FromDouble(json.get<double>()));
    case report::Json::value_t::string:
      return text_object(json.get_ref<const std::string&>());
    case report::Json::value_t::array: {
      py::object list = checked(PyList_New(static_cast<Py_ssize_t>(json.size())));
      Py_ssize_t i = 0;
      for (const auto& item : json) {
        // PyList_SET_ITEM steals the reference: release it from its owner only then.
        PyList_SET_ITEM(list.ptr(), i++, to_python(item).release().ptr());
      }
      return list;
    }
    case report::Json::value_t::object:
      return object_to_python(json);
    default:  // binary and discarded values: never in a report's JSON
      return py::none();
  }
}

// Ctrl-C while the library works with the GIL released. Python runs its signal handlers only on
// the main thread, holding the GIL, between bytecodes: never while a call is in C++. The work's
// stop check (solver/stop.hpp) is this watch: on the thread that called the library (which runs
// its share of the work: parallel_for, SweepRunner), at most every 100 ms, it takes the GIL for
// a moment and lets Python run its handlers (PyErr_CheckSignals). When one raises
// (KeyboardInterrupt), the check says stop from then on, to every thread: the work throws
// Interrupted within a step (a point, a sample, an objective evaluation), and the call raises
// the handler's exception instead of returning. On another Python thread the check costs the
// GIL for a moment every 100 ms and finds nothing (signals go to the main thread).
class SignalWatch {
 public:
  // Called by the work, from any of its threads.
  bool operator()() {
    if (raised_.load(std::memory_order_relaxed)) return true;
    if (std::this_thread::get_id() != caller_) return false;
    // The clock read every 16th call only: NLopt asks before each evaluation (~1 us).
    if (++calls_ % 16 != 0) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_poll_ < std::chrono::milliseconds(100)) return false;
    last_poll_ = now;
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) raised_.store(true, std::memory_order_relaxed);
    return raised_.load(std::memory_order_relaxed);
  }
  // Whether a handler raised: its exception is Python's error indicator on the calling thread.
  bool raised() const { return raised_.load(std::memory_order_relaxed); }
  StopCheck check() {
    return [this] { return (*this)(); };
  }

 private:
  const std::thread::id caller_ = std::this_thread::get_id();
  std::chrono::steady_clock::time_point last_poll_ = std::chrono::steady_clock::now();
  unsigned calls_ = 0;
  std::atomic<bool> raised_{false};
};

// `work(stop)` with the GIL released and `stop` watching for Python's signals; its result, or
// the exception a signal handler raised (whatever the work made is dropped), or the work's own.
template <class Work>
auto interruptible(Work work) {
  SignalWatch watch;
  std::optional<decltype(work(watch.check()))> result;
  try {
    const py::gil_scoped_release release;
    result.emplace(work(watch.check()));
  } catch (...) {
    // Interrupted, or whatever else the work met as it stopped: the handler's exception wins.
    if (!watch.raised()) throw;
  }
  // A handler may have raised after the work's last step: the call is interrupted all the same.
  if (watch.raised()) throw py::error_already_set();
  return std::move(*result);
}

// The solver flags of the command line, as keyword arguments; validate() names a bad field.
SolverOptions solver_options(const std::string& algorithm, int max_evaluations, int starts,
                             double kkt_tolerance, bool polish) {
  SolverOptions options;
  options.algorithm = algorithm;
  options.max_evaluations = max_evaluations;
  options.starts = starts;
  options.kkt_tolerance = kkt_tolerance;
  options.polish = polish;
  options.validate();
  return options;
}

SolveMethod method_of(const std::string& method) {
  if (method == "auto") return SolveMethod::automatic;
  if (method == "nlopt") return SolveMethod::nlopt;
  throw InputError("method: expected auto or nlopt, got '" + method + "'");
}

// `solve --json` of a loaded scenario.
py::object solve(const Scenario& scenario, const SolverOptions& options,
                 const std::string& method) {
  const SolveMethod chosen = method_of(method);
  const report::Json json = interruptible([&](const StopCheck& stop) {
    SolverOptions stoppable = options;
    stoppable.stop = stop;
    const QuestionSolution solution = solve_scenario(scenario, stoppable, chosen);
    return report::solution_json(scenario, *scenario.law, solution);
  });
  return to_python(json);
}

// One column of a DataFrame's runs: (its name, the keyword that chose it, its cells as
// float64 or as texts).
using RunsColumnSpec = std::tuple<std::string, std::string,
                                  std::variant<std::vector<double>, std::vector<std::string>>>;

RunsColumn runs_column(RunsColumnSpec spec) {
  RunsColumn column;
  column.name = std::move(std::get<0>(spec));
  column.argument = std::move(std::get<1>(spec));
  if (auto* numbers = std::get_if<std::vector<double>>(&std::get<2>(spec))) {
    column.numbers = std::move(*numbers);
  } else {
    column.texts = std::move(std::get<std::vector<std::string>>(std::get<2>(spec)));
  }
  return column;
}

// A command run in-process with its arguments (after "scaleopt"), as the command line runs it:
// (exit status, the JSON printed or None, the text printed, the error line). `runs`, for fit:
// (params, data, loss, whether data is compute, experts or None) columns, fitted in place of
// RUNS.csv.
py::tuple run_command(const std::vector<std::string>& args,
                      std::optional<std::tuple<RunsColumnSpec, RunsColumnSpec, RunsColumnSpec, bool,
                                               std::optional<RunsColumnSpec>>>
                          runs) {
  cli::RunContext context;
  if (runs) {
    auto& [params, data, loss, flops, experts] = *runs;
    std::optional<RunsColumn> experts_column;
    if (experts) experts_column = runs_column(std::move(*experts));
    context.runs = runs_from_columns(
        "the DataFrame", runs_column(std::move(params)), runs_column(std::move(data)), flops,
        runs_column(std::move(loss)), experts_column ? &*experts_column : nullptr);
  }
  std::ostringstream out;
  std::ostringstream err;
  const int status = interruptible([&](const StopCheck& stop) {
    context.stop = stop;
    return cli::run(args, out, err, context);
  });
  const std::string text = out.str();
  py::object json = py::none();
  const report::Json parsed = report::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) json = to_python(parsed);
  return py::make_tuple(status, json, text, err.str());
}

// One axis of vary=: a range as the command line writes it ("1M/s..1G/s:log:50") or values.
using AxisSpec = std::variant<std::string, std::vector<double>>;

struct SweepColumns {
  std::vector<std::string> names;  // point, points, the varied paths, summary_columns(layout)
  py::list arrays;                 // one numpy array per name
  py::list status_categories;      // the texts of the status codes, by code
  py::list algorithm_categories;   // the texts of the algorithm codes (-1: no algorithm)
};

// The bytes a sweep's DataFrame takes: per row, 8 for each int64 and float64 column (point,
// points, the varied inputs, the answer's numbers), 1 for each int8 code (status, algorithm),
// and 8 for the row's index in the list of points solved. Refused above in_memory_limit_bytes
// (solver/limits.hpp) before anything is allocated: a grid of 10^9 points asks for ~300 GB.
void check_frame_bytes(const SweepGrid& grid, const Shard& shard, const AnswerLayout& layout) {
  double numbers = 2.0 + static_cast<double>(grid.axes().size()), codes = 0.0;
  for (const AnswerFieldKind kind : summary_column_kinds(layout)) {
    (kind == AnswerFieldKind::number ? numbers : codes) += 1.0;
  }
  const double rows = static_cast<double>(shard_points(grid.size(), shard));
  const double bytes = rows * (8.0 * numbers + codes + 8.0);
  const auto limit = static_cast<double>(in_memory_limit_bytes());
  if (bytes > limit) {
    throw InputError("vary: " + format_exact_count(rows) + " rows of " +
                     std::to_string(static_cast<int>(numbers + codes)) + " columns would take " +
                     format_quantity(bytes, Unit::bytes) + " in memory, more than " +
                     format_quantity(limit, Unit::bytes) +
                     " (the limit: half of this machine's memory); sweep fewer points, split the "
                     "grid with shard=(i, n), or write it to a file (scaleopt sweep --out)");
  }
}

// The columns of `sweep`'s CSV as numpy arrays, solved with the GIL released: int64 point and
// points, float64 numbers (NaN for an empty cell), int8 codes for status and algorithm.
py::tuple sweep(const Scenario& scenario, const std::vector<std::pair<std::string, AxisSpec>>& vary,
                int threads, const SolverOptions& solver, const std::string& method,
                long long shard_index, long long shard_count) {
  if (vary.empty()) throw InputError("vary: give at least one PATH=LO..HI");
  std::vector<SweepAxis> axes;
  for (const auto& [path, spec] : vary) {
    if (const auto* range = std::get_if<std::string>(&spec)) {
      axes.push_back(parse_vary(scenario, path + "=" + *range));
    } else {
      axes.push_back(listed_axis(scenario, path, std::get<std::vector<double>>(spec)));
    }
  }
  if (shard_count < 1 || shard_index < 1 || shard_index > shard_count) {
    throw InputError("shard: shard index out of range: expected i/n with 1 <= i <= n, got '" +
                     std::to_string(shard_index) + "/" + std::to_string(shard_count) + "'");
  }
  const SweepGrid grid(std::move(axes));
  check_first_point(scenario, grid);
  SweepOptions options;
  kThreadsLimit.check(threads);
  options.threads = static_cast<unsigned>(threads);
  options.solver = solver;
  // The points' NLopt solves ask the call's stop check too (SolverOptions::stop), so that one
  // slow point does not hold up an interrupt; `stop` is set when the work starts, below.
  StopCheck stop;
  options.solver.stop = [&stop] { return stop && stop(); };
  options.method = method_of(method);
  const SweepRunner runner(scenario, grid, options);
  const Shard shard{static_cast<std::size_t>(shard_index), static_cast<std::size_t>(shard_count)};
  check_frame_bytes(grid, shard, runner.layout());
  const std::vector<std::size_t> points = shard_point_list(grid.size(), shard);
  const auto rows = static_cast<py::ssize_t>(points.size());

  SweepColumns columns;
  columns.names = {"point", "points"};
  py::array_t<std::int64_t> point_array(rows), points_array(rows);
  columns.arrays.append(point_array);
  columns.arrays.append(points_array);
  std::vector<double*> axis_data;
  for (const SweepAxis& axis : grid.axes()) {
    columns.names.push_back(axis.input.path());
    py::array_t<double> array(rows);
    axis_data.push_back(array.mutable_data());
    columns.arrays.append(array);
  }
  // The answer's cells, in visit_summary_cells's order: a pointer per cell, to a float64 column
  // for numbers and to an int8 column for the two texts.
  std::vector<double*> numbers;
  std::vector<std::int8_t*> codes;
  const std::vector<std::string> names = summary_columns(runner.layout());
  const std::vector<AnswerFieldKind> kinds = summary_column_kinds(runner.layout());
  for (std::size_t c = 0; c < names.size(); ++c) {
    columns.names.push_back(names[c]);
    if (kinds[c] != AnswerFieldKind::number) {
      py::array_t<std::int8_t> array(rows);
      codes.push_back(array.mutable_data());
      columns.arrays.append(array);
    } else {
      py::array_t<double> array(rows);
      numbers.push_back(array.mutable_data());
      columns.arrays.append(array);
    }
  }
  for (Status s : {Status::converged, Status::infeasible, Status::not_converged,
                   Status::invalid_input, Status::not_identifiable}) {
    columns.status_categories.append(py::str(std::string(to_string(s))));
  }
  for (SolvePath p : {SolvePath::closed_form, SolvePath::newton, SolvePath::nlopt}) {
    columns.algorithm_categories.append(
        py::str(std::string(algorithm_name(p, options.solver.algorithm))));
  }

  std::int64_t* point_data = point_array.mutable_data();
  std::int64_t* points_data = points_array.mutable_data();
  const auto grid_points = static_cast<std::int64_t>(grid.size());
  const SweepTally tally = interruptible([&](const StopCheck& watch) {
    stop = watch;
    // On the worker that solved a block: its rows are consecutive in `points`.
    const auto fill = [&](SweepBlock& block) {
      if (block.answers.empty()) return;
      const auto first = static_cast<std::size_t>(
          std::lower_bound(points.begin(), points.end(), block.answers.front().point) -
          points.begin());
      for (std::size_t i = 0; i < block.answers.size(); ++i) {
        const SweepPoint& answer = block.answers[i];
        const std::size_t row = first + i;
        point_data[row] = static_cast<std::int64_t>(answer.point);
        points_data[row] = grid_points;
        for (std::size_t a = 0; a < axis_data.size(); ++a) axis_data[a][row] = answer.values[a];
        if (answer.invalid_input) {  // as append_unsolved_cells: numbers empty, status given
          for (double* column : numbers) column[row] = NAN;
          for (std::size_t c = 0; c < codes.size(); c += 2) {
            codes[c][row] = static_cast<std::int8_t>(Status::invalid_input);
            codes[c + 1][row] = -1;
          }
          continue;
        }
        std::size_t number = 0;
        std::size_t code = 0;
        visit_summary_cells(
            answer.summary, runner.layout(), [&](double v) { numbers[number++][row] = v; },
            [&](Status s) { codes[code++][row] = static_cast<std::int8_t>(s); },
            [&](SolvePath p) { codes[code++][row] = static_cast<std::int8_t>(p); });
      }
    };
    return runner.solve(
        points, fill, [](const SweepBlock&) {}, stop, [](std::size_t) {});
  });
  py::dict counts;
  counts["points"] = tally.points;
  counts["converged"] = tally.converged;
  counts["infeasible"] = tally.infeasible;
  counts["not_converged"] = tally.not_converged;
  counts["invalid_input"] = tally.invalid_input;
  counts["fast_path"] = tally.fast_path;
  return py::make_tuple(columns.names, columns.arrays, columns.status_categories,
                        columns.algorithm_categories, counts);
}

}  // namespace
}  // namespace scaleopt::python

PYBIND11_MODULE(_scaleopt, m) {
  using namespace scaleopt;
  using namespace scaleopt::python;
  m.doc() = "The compiled half of scaleopt; use the functions of the scaleopt package.";
  // Bad input a user can correct, with the command line's message (a ValueError).
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  // Shards deal blocks of this many consecutive points round-robin (--shard i/n): what
  // scaleopt.dask checks each shard's rows against.
  m.attr("SHARD_BLOCK_POINTS") = kShardBlock;
  // The counts the library limits, by parameter (solver/limits.hpp): {name: (lowest, highest)}.
  py::dict limits;
  for (const CountLimit& limit : count_limits()) {
    limits[py::str(std::string(limit.parameter))] = py::make_tuple(limit.lowest, limit.highest);
  }
  m.attr("COUNT_LIMITS") = limits;

  py::class_<Scenario>(m, "Scenario",
                       "A scenario file loaded once, with its overrides: pass it to solve, "
                       "sweep and the analyses to skip reading the file again.")
      .def_property_readonly("file", [](const Scenario& s) { return s.file; })
      .def_property_readonly("warnings", [](const Scenario& s) { return s.warnings; })
      .def("__repr__", [](const Scenario& s) { return "<scaleopt.Scenario " + s.file + ">"; });

  py::class_<ScenarioDocument>(m, "ScenarioDocument",
                               "A scenario file's text, read once: scenarios with overrides are "
                               "made from it without reading the file again.")
      .def(
          "load",
          [](const ScenarioDocument& document, const std::vector<std::string>& overrides) {
            return document.load(overrides);
          },
          py::arg("overrides"))
      .def_property_readonly("file", &ScenarioDocument::file)
      .def_property_readonly("text", &ScenarioDocument::text);
  m.def("read_document", &ScenarioDocument::read, py::arg("path"));
  py::class_<SolverOptions>(m, "SolverOptions");
  m.def("solver_options", &solver_options, py::arg("algorithm"), py::arg("max_evaluations"),
        py::arg("starts"), py::arg("kkt_tolerance"), py::arg("polish"));
  m.def("solve", &scaleopt::python::solve, py::arg("scenario"), py::arg("options"),
        py::arg("method"));
  m.def("run_command", &run_command, py::arg("args"), py::arg("runs") = py::none());
  // A count given as a keyword, against the library's limit for it (solver/limits.hpp):
  // InputError naming it. An int too large for a double is above every limit.
  m.def(
      "check_count",
      [](const std::string& parameter, const py::int_& count) {
        const CountLimit* limit = find_count_limit(parameter);
        if (!limit) throw std::invalid_argument("no limit is named " + parameter);
        double value = PyLong_AsDouble(count.ptr());
        if (value == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();  // OverflowError
          value = count.attr("__gt__")(0).cast<bool>() ? INFINITY : -INFINITY;
        }
        limit->check(value);
      },
      py::arg("parameter"), py::arg("count"));
  m.def("sweep", &scaleopt::python::sweep, py::arg("scenario"), py::arg("vary"), py::arg("threads"),
        py::arg("solver"), py::arg("method"), py::arg("shard_index"), py::arg("shard_count"));
}
