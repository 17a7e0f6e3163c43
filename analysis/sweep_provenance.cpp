#include "scaleopt/analysis/sweep_provenance.hpp"

#include <charconv>

#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario_fingerprint.hpp"
#include "scaleopt/solver/limits.hpp"

#ifndef SCALEOPT_VERSION
#error "SCALEOPT_VERSION (CMake's project version) must be defined for this file"
#endif

namespace scaleopt {
namespace {

std::string number_text(double value) {
  std::string text;
  append_number(text, value);
  return text;
}

// Every option that can change a row: the method and the NLopt path's settings.
std::string solver_text(SolveMethod method, const SolverOptions& solver) {
  std::string text = method == SolveMethod::nlopt ? "method=nlopt" : "method=auto";
  text += " algorithm=" + solver.algorithm;
  text += " xtol_rel=" + number_text(solver.relative_x_tolerance);
  text += " ftol_rel=" + number_text(solver.relative_f_tolerance);
  text += solver.polish ? " polish=on" : " polish=off";
  text += " max_evaluations=" + std::to_string(solver.max_evaluations);
  text += " constraint_tolerance=" + number_text(solver.constraint_tolerance);
  text += " kkt_tolerance=" + number_text(solver.kkt_tolerance);
  text += " reference_tolerance=" + number_text(solver.reference_tolerance);
  text += " starts=" + std::to_string(solver.starts);
  text += " fallback_starts=" + std::to_string(solver.fallback_starts);
  return text;
}

Provenance common(const std::string& command) {
  Provenance p;
  p.set("schema", std::to_string(kSweepFileSchema));
  p.set("version", scaleopt_version());
  p.set("command", command);
  return p;
}

[[noreturn]] void bad_grid(const std::string& where, std::string_view axis) {
  throw InputError(where + ": grid: expected PATH=LO..HI:lin|log:COUNT, got '" + std::string(axis) +
                   "'");
}

double parse_double(std::string_view text, const std::string& where, std::string_view axis) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    bad_grid(where, axis);
  }
  return value;
}

}  // namespace

std::string scaleopt_version() {
  return SCALEOPT_VERSION;
}

const std::string* Provenance::find(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

void Provenance::set(const std::string& key, const std::string& value) {
  for (auto& [k, v] : fields) {
    if (k == key) {
      v = value;
      return;
    }
  }
  fields.emplace_back(key, value);
}

std::string Provenance::text() const {
  std::string text;
  for (const auto& [k, v] : fields) {
    text += kProvenancePrefix;
    text += k + "=" + v + "\n";
  }
  return text;
}

bool read_provenance_line(std::string_view line, Provenance& provenance) {
  if (!line.starts_with(kProvenancePrefix)) return false;
  line.remove_prefix(kProvenancePrefix.size());
  if (line.ends_with('\r')) line.remove_suffix(1);
  const std::size_t equals = line.find('=');
  if (equals == std::string_view::npos) {
    provenance.fields.emplace_back(std::string(line), "");
  } else {
    provenance.fields.emplace_back(std::string(line.substr(0, equals)),
                                   std::string(line.substr(equals + 1)));
  }
  return true;
}

std::size_t read_provenance(std::string_view text, Provenance& provenance) {
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) break;  // cut short: not a line
    if (!read_provenance_line(text.substr(begin, end - begin), provenance)) break;
    begin = end + 1;
  }
  return begin;
}

std::string provenance_mismatch(const Provenance& found, const Provenance& expected,
                                std::string_view ignored) {
  for (const auto& [key, value] : expected.fields) {
    if (key == ignored) continue;
    const std::string* other = found.find(key);
    if (!other || *other != value) return key;
  }
  for (const auto& [key, value] : found.fields) {
    if (key != ignored && !expected.find(key)) return key;
  }
  return "";
}

std::string provenance_field_meaning(std::string_view field) {
  if (field == "schema") return "a file layout of another scaleopt version";
  if (field == "version") return "written by another scaleopt version";
  if (field == "command") return "written by another command";
  if (field == "scenario") return "another scenario file or --set";
  if (field == "solver") return "another --method or solver option";
  if (field == "grid") return "another --vary";
  if (field == "shard") return "another --shard";
  if (field == "samples") return "another --samples";
  if (field == "seed") return "another --seed";
  return "an unknown field";
}

std::string grid_spec(const SweepGrid& grid) {
  std::string spec;
  for (const SweepAxis& axis : grid.axes()) {
    if (!spec.empty()) spec += ' ';
    spec += axis.input.path() + "=" + number_text(axis.low) + ".." + number_text(axis.high) +
            (axis.log_scale ? ":log:" : ":lin:") + std::to_string(axis.count);
  }
  return spec;
}

std::vector<GridSpecAxis> parse_grid_spec(std::string_view spec, const std::string& where) {
  std::vector<GridSpecAxis> axes;
  std::size_t points = 1;
  while (!spec.empty()) {
    const std::size_t space = spec.find(' ');
    const std::string_view axis_text = spec.substr(0, space);
    spec = space == std::string_view::npos ? std::string_view() : spec.substr(space + 1);
    const std::size_t equals = axis_text.find('=');
    const std::size_t dots = axis_text.find("..", equals);
    const std::size_t colon = axis_text.find(':', dots);
    const std::size_t colon2 = axis_text.find(':', colon + 1);
    if (equals == 0 || equals == std::string_view::npos || dots == std::string_view::npos ||
        colon == std::string_view::npos || colon2 == std::string_view::npos) {
      bad_grid(where, axis_text);
    }
    GridSpecAxis axis;
    axis.path = std::string(axis_text.substr(0, equals));
    axis.low = parse_double(axis_text.substr(equals + 1, dots - equals - 1), where, axis_text);
    axis.high = parse_double(axis_text.substr(dots + 2, colon - dots - 2), where, axis_text);
    const std::string_view scale = axis_text.substr(colon + 1, colon2 - colon - 1);
    if (scale != "lin" && scale != "log") bad_grid(where, axis_text);
    axis.log_scale = scale == "log";
    const std::string_view count = axis_text.substr(colon2 + 1);
    const auto [end, error] =
        std::from_chars(count.data(), count.data() + count.size(), axis.count);
    if (error != std::errc() || end != count.data() + count.size() || axis.count < 2 ||
        axis.count > kMaxAxisPoints) {
      bad_grid(where, axis_text);
    }
    // The grid's size must not overflow (a sweep refuses more than 1e12 points).
    if (static_cast<double>(points) * static_cast<double>(axis.count) > kMaxGridPoints) {
      bad_grid(where, axis_text);
    }
    points *= axis.count;
    axes.push_back(std::move(axis));
  }
  if (axes.empty()) throw InputError(where + ": grid: no axis");
  return axes;
}

std::string shard_text(const Shard& shard) {
  if (shard.count == 1) return "all";
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

Shard parse_shard_field(std::string_view text, const std::string& where) {
  if (text == "all") return {};
  try {
    return parse_shard(std::string(text));
  } catch (const InputError&) {
    throw InputError(where + ": shard: expected all or i/n, got '" + std::string(text) + "'");
  }
}

Provenance sweep_provenance(const Scenario& scenario, const SweepGrid& grid, const Shard& shard,
                            SolveMethod method, const SolverOptions& solver) {
  std::vector<std::string> varied;
  for (const SweepAxis& axis : grid.axes()) varied.push_back(axis.input.path());
  // The grid before the scenario: the fingerprint leaves the varied inputs out, so another
  // grid changes both, and the grid is the field to name.
  Provenance p = common("sweep");
  p.set("grid", grid_spec(grid));
  p.set("scenario", scenario_fingerprint(scenario, varied));
  p.set("solver", solver_text(method, solver));
  p.set("shard", shard_text(shard));
  return p;
}

Provenance uncertainty_provenance(const Scenario& scenario, const MonteCarloOptions& options) {
  Provenance p = common("uncertainty");
  p.set("scenario", scenario_fingerprint(scenario));
  p.set("solver", solver_text(options.method, options.solver));
  p.set("samples", std::to_string(options.samples));
  p.set("seed", std::to_string(options.seed));
  return p;
}

}  // namespace scaleopt
