#include "scaleopt/report/fit_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

// %g with `significant` digits, the plain-number form of costmodel/quantity.hpp.
// `significant` digits without an exponent for 1e-3 <= |value| < 1e6 (1279, 0.0255, 331.1:
// columns of spreads read better that way), the exponent form beyond.
std::string digits(double value, int significant) {
  const double magnitude = std::fabs(value);
  if (!(magnitude >= 1e-3 && magnitude < 1e6)) return format_scientific(value, significant);
  const int integer_digits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  std::ostringstream s;
  s << std::fixed << std::setprecision(std::max(0, significant - integer_digits)) << value;
  return s.str();
}

Json spread_json(const Spread& spread) {
  return Json{
      {"standard_error", spread.standard_error}, {"lower", spread.lower}, {"upper", spread.upper}};
}

// One row of the coefficient table: name, fitted value, and the spread when bootstrapped.
std::vector<std::string> coefficient_row(const std::string& name, double value,
                                         const Spread* spread) {
  std::vector<std::string> row{name, digits(value, 6)};
  if (spread) {
    row.push_back(digits(spread->standard_error, 3));
    row.push_back(digits(spread->lower, 4));
    row.push_back(digits(spread->upper, 4));
  }
  return row;
}

}  // namespace

std::string runs_note(std::size_t runs_read, std::size_t runs_dropped) {
  std::string note = std::to_string(runs_read) + " read";
  if (runs_dropped > 0) {
    note +=
        ", the " + std::to_string(runs_dropped) + " of highest loss dropped (--drop-highest-loss)";
  }
  return note;
}

Json fit_json(const FitReport& report) {
  const FitResult& fit = report.fit;
  Json json{{"E", fit.law.E},
            {"A", fit.law.A},
            {"B", fit.law.B},
            {"alpha", fit.law.alpha},
            {"beta", fit.law.beta},
            {"objective", fit.objective},
            {"runs", fit.runs},
            {"runs_read", report.runs_read},
            {"runs_dropped", report.runs_dropped},
            {"starts", fit.starts},
            {"starts_converged", fit.starts_converged},
            {"status", std::string(to_string(fit.status))},
            {"message", fit.message},
            {"huber_delta", report.huber_delta},
            {"gradient_norm", fit.gradient_norm},
            {"evaluations", fit.evaluations},
            {"best_start", fit.best_start},
            {"subsample_runs", fit.subsample_runs},
            {"refined_starts", fit.refined_starts},
            {"a", report.implied.a},
            {"b", report.implied.b},
            {"tokens_per_param_at_1e24_flops", report.implied.tokens_per_param},
            {"law", law_json(fit.law)}};
  if (report.bootstrap) {
    const BootstrapResult& boot = *report.bootstrap;
    Json spread;
    for (std::size_t i = 0; i < 5; ++i) {
      spread[kLawCoefficientNames[i]] = spread_json(boot.coefficients[i]);
    }
    spread["a"] = spread_json(boot.a);
    spread["b"] = spread_json(boot.b);
    spread["tokens_per_param_at_1e24_flops"] = spread_json(boot.tokens_per_param);
    json["bootstrap"] = Json{{"replicates", boot.replicates},
                             {"converged", boot.converged},
                             {"seed", boot.seed},
                             {"quantiles", Json::array({kLowerQuantile, kUpperQuantile})},
                             {"spread", spread},
                             {"covariance", boot.covariance}};
  }
  if (!report.law_file.empty()) json["law_file"] = report.law_file;
  return json_document(json);
}

std::string fit_text(const FitReport& report) {
  std::ostringstream out;
  const FitResult& fit = report.fit;
  const bool converged = fit.converged();
  if (fit.status == Status::not_identifiable) {
    // No start was run: there is no point to show, only why the data cannot give one.
    out << "STATUS: " << to_string(fit.status) << ": " << fit.message << "\n"
        << "No law fitted: add runs at more model sizes and token counts (docs/fitting.md).\n";
    std::string note = std::to_string(report.runs_read) + " read from " + report.file;
    if (report.runs_dropped > 0) {
      note += ", the " + std::to_string(report.runs_dropped) +
              " of highest loss dropped (--drop-highest-loss)";
    }
    Table summary;
    summary.row("runs", std::to_string(fit.runs), note);
    summary.print(out);
    return out.str();
  }
  if (!converged) {
    out << "STATUS: " << to_string(fit.status) << ": " << fit.message << "\n";
    out << "The numbers below are the best point found, not an optimum.\n";
  }
  const BootstrapResult* boot = report.bootstrap ? &*report.bootstrap : nullptr;
  Table coefficients((converged ? "" : "Best point, NOT an optimum: ") +
                     std::string("L(N, D) = E + A / N^alpha + B / D^beta fitted to ") +
                     report.file);
  std::vector<std::string> header{"", "fit"};
  if (boot) header.insert(header.end(), {"std error", "10%", "90%"});
  coefficients.header(header);
  for (std::size_t i = 0; i < 5; ++i) {
    const double values[5] = {fit.law.E, fit.law.A, fit.law.B, fit.law.alpha, fit.law.beta};
    coefficients.cells(coefficient_row(kLawCoefficientNames[i], values[i],
                                       boot ? &boot->coefficients[i] : nullptr));
  }
  coefficients.cells(
      coefficient_row("a = beta/(alpha+beta)", report.implied.a, boot ? &boot->a : nullptr));
  coefficients.cells(
      coefficient_row("b = alpha/(alpha+beta)", report.implied.b, boot ? &boot->b : nullptr));
  coefficients.cells(coefficient_row("D/N at 1e24 FLOPs", report.implied.tokens_per_param,
                                     boot ? &boot->tokens_per_param : nullptr));
  coefficients.print(out);

  Table summary;
  summary.row("runs", std::to_string(fit.runs), runs_note(report.runs_read, report.runs_dropped));
  summary.row("objective", plain(fit.objective, 8),
              "summed Huber loss (delta " + plain(report.huber_delta) +
                  ") of ln L residuals (Hoffmann et al. 2022, App. D.2)");
  summary.row(
      "starts",
      std::to_string(fit.starts_converged) + " of " + std::to_string(fit.starts) + " converged",
      "L-BFGS from Hoffmann's grid; best start " + std::to_string(fit.best_start));
  if (converged) summary.row("status", "converged", fit.message);
  if (boot) {
    summary.row("bootstrap",
                std::to_string(boot->converged) + " of " + std::to_string(boot->replicates) +
                    " refits converged",
                "runs resampled with replacement, seed " + std::to_string(boot->seed) +
                    "; spreads over the converged refits");
  }
  if (!report.law_file.empty()) {
    summary.row("law file", report.law_file,
                boot ? "[law] with [law.uncertainty] (use with --law-file)"
                     : "[law] without uncertainty (add --bootstrap for it; use with --law-file)");
  }
  out << "\n";
  summary.print(out);
  return out.str();
}

}  // namespace scaleopt::report
