#include "scaleopt/report/stress_output.hpp"
#include "scaleopt/report/json.hpp"

#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/stress_reproduction.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

// Failing instances shown in full in the table output (all are in the JSON).
constexpr std::size_t kFailuresShown = 10;

constexpr StressOutcome kOutcomes[] = {StressOutcome::agreed, StressOutcome::infeasible,
                                       StressOutcome::disagreed, StressOutcome::failed};

std::uint64_t total(const StressClassSummary& c) {
  std::uint64_t sum = 0;
  for (const std::uint64_t count : c.counts) sum += count;
  return sum;
}

std::string count_text(std::uint64_t count) {
  return std::to_string(count);
}

}  // namespace

Json stress_json(const StressSummary& summary, const StressRunOptions& options,
                 const StressTiming& timing) {
  Json json{{"instances", summary.instances}};
  for (const StressOutcome outcome : kOutcomes) {
    json[std::string(to_string(outcome))] = summary.count(outcome);
  }
  json["seed"] = summary.seed;
  json["tolerance"] = options.check.tolerance;
  json["largest_difference"] = summary.largest_difference;
  json["fast_path_checked"] = summary.fast_path_checked;
  Json classes = Json::object();
  for (int k = 0; k < kStressClassCount; ++k) {
    const StressClassSummary& c = summary.by_class[static_cast<std::size_t>(k)];
    Json entry{{"instances", total(c)}};
    for (const StressOutcome outcome : kOutcomes) {
      entry[std::string(to_string(outcome))] = c.counts[static_cast<std::size_t>(outcome)];
    }
    entry["largest_difference"] = c.largest_difference;
    entry["fast_path_checked"] = c.fast_path_checked;
    classes[std::string(to_string(static_cast<StressClass>(k)))] = entry;
  }
  json["classes"] = classes;
  Json failures = Json::array();
  for (const StressFailure& f : summary.failures) {
    failures.push_back(
        {{"index", f.index},
         {"class", std::string(to_string(f.kind))},
         {"outcome", std::string(to_string(f.outcome))},
         {"message", f.message},
         {"reproduction", stress_reproduction(stress_instance(summary.seed, f.index))}});
  }
  json["failures"] = failures;
  // Beyond StressRunOptions::failures_kept, failing instances are counted but not kept.
  json["failures_not_listed"] = summary.failure_count() - summary.failures.size();
  json["seconds"] = timing.seconds;
  json["threads"] = timing.threads;
  return json_document(json);
}

std::string stress_text(const StressSummary& summary, const StressRunOptions& options,
                        const StressTiming& timing) {
  std::ostringstream out;
  Table table("scaleopt selftest: " + std::to_string(summary.instances) +
              " random problems (seed " + std::to_string(summary.seed) +
              "), each solved by NLopt and by an independent method");
  table.header({"class", "instances", "agreed", "infeasible", "disagreed", "failed",
                "largest difference", "fast path too"});
  auto add = [&](const std::string& name, const std::array<std::uint64_t, 4>& counts,
                 std::uint64_t instances, double largest, std::uint64_t fast_path) {
    std::vector<std::string> cells{name, count_text(instances)};
    for (const StressOutcome outcome : kOutcomes) {
      cells.push_back(count_text(counts[static_cast<std::size_t>(outcome)]));
    }
    cells.push_back(format_scientific(largest, 2));
    cells.push_back(count_text(fast_path));
    table.cells(cells);
  };
  for (int k = 0; k < kStressClassCount; ++k) {
    const StressClassSummary& c = summary.by_class[static_cast<std::size_t>(k)];
    add(std::string(to_string(static_cast<StressClass>(k))), c.counts, total(c),
        c.largest_difference, c.fast_path_checked);
  }
  add("all", summary.counts, summary.instances, summary.largest_difference,
      summary.fast_path_checked);
  table.print(out);
  out << "  agreed: N and D within " << format_scientific(options.check.tolerance, 2)
      << " relative of the independent method; infeasible: reported so by both\n"
      << "  fast path too: also answered by the fast path of sweeps and Monte Carlo (Newton on\n"
      << "  the 1-D reduction), held to the same verdict and reference\n"
      << "  " << format_quantity(timing.seconds, Unit::seconds) << " on " << timing.threads
      << (timing.threads == 1 ? " thread" : " threads") << "\n";
  std::size_t shown = 0;
  for (const StressFailure& f : summary.failures) {
    if (shown++ == kFailuresShown) {
      out << "(" << summary.failure_count() - kFailuresShown
          << " more failing instances: --json lists the first " << summary.failures.size() << ")\n";
      break;
    }
    out << "\n== instance " << f.index << " (" << to_string(f.kind) << "): " << to_string(f.outcome)
        << ": " << f.message << "\n"
        << stress_reproduction(stress_instance(summary.seed, f.index));
  }
  return out.str();
}

}  // namespace scaleopt::report
