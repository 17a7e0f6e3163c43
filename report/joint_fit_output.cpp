#include "scaleopt/report/joint_fit_output.hpp"

#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/fit_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/report_text.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {

Json joint_fit_json(const JointFitReport& report) {
  const JointFitResult& fit = report.fit;
  const std::array<double, 9> values = fit.law.coefficients();
  Json json{{"form", "joint"}};
  for (std::size_t i = 0; i < values.size(); ++i) json[kJointCoefficientNames[i]] = values[i];
  json["experts_start"] = fit.law.experts_start;
  json["experts_max"] = fit.law.experts_max;
  json["objective"] = fit.objective;
  json["runs"] = fit.runs;
  json["runs_read"] = report.runs_read;
  json["runs_dropped"] = report.runs_dropped;
  json["starts"] = fit.starts;
  json["starts_converged"] = fit.starts_converged;
  json["status"] = std::string(to_string(fit.status));
  json["message"] = fit.message;
  json["huber_delta"] = report.huber_delta;
  json["gradient_norm"] = fit.gradient_norm;
  json["evaluations"] = fit.evaluations;
  json["best_start"] = fit.best_start;
  if (fit.law.fitted_range) {
    const FittedRange& range = *fit.law.fitted_range;
    json["fitted_range"] = Json{{"min_params", optional_or_null(range.min_params)},
                                {"max_params", optional_or_null(range.max_params)},
                                {"min_tokens", optional_or_null(range.min_tokens)},
                                {"max_tokens", optional_or_null(range.max_tokens)},
                                {"min_experts", optional_or_null(range.min_experts)},
                                {"max_experts", optional_or_null(range.max_experts)}};
  }
  if (report.bootstrap) {
    const JointBootstrapResult& boot = *report.bootstrap;
    Json spread;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const Spread& s = boot.coefficients[i];
      spread[kJointCoefficientNames[i]] =
          Json{{"standard_error", s.standard_error}, {"lower", s.lower}, {"upper", s.upper}};
    }
    json["bootstrap"] = Json{{"replicates", boot.replicates},
                             {"converged", boot.converged},
                             {"seed", boot.seed},
                             {"spread", spread}};
  }
  if (!report.law_file.empty()) json["law_file"] = report.law_file;
  return json_document(json);
}

std::string joint_fit_text(const JointFitReport& report) {
  std::ostringstream out;
  const JointFitResult& fit = report.fit;
  if (fit.status == Status::not_identifiable) {
    out << "STATUS: " << to_string(fit.status) << ": " << fit.message << "\n"
        << "No law fitted: add runs at more model sizes, token counts and expert counts "
           "(docs/fitting.md).\n";
    return out.str();
  }
  if (!fit.converged()) {
    out << "STATUS: " << to_string(fit.status) << ": " << fit.message << "\n"
        << "The numbers below are the best point found, not an optimum.\n";
  }
  const JointBootstrapResult* boot = report.bootstrap ? &*report.bootstrap : nullptr;
  Table coefficients(std::string(fit.converged() ? "" : "Best point, NOT an optimum: ") +
                     "L = a E^^delta N^(alpha + gamma ln E^) + b E^^omega D^(beta + zeta ln E^) "
                     "+ E fitted to " +
                     report.file);
  std::vector<std::string> header{"", "fit"};
  if (boot) header.insert(header.end(), {"std error", "10%", "90%"});
  coefficients.header(header);
  const std::array<double, 9> values = fit.law.coefficients();
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> row{kJointCoefficientNames[i], plain(values[i], 6)};
    if (boot) {
      const Spread& s = boot->coefficients[i];
      row.insert(row.end(), {plain(s.standard_error, 3), plain(s.lower, 4), plain(s.upper, 4)});
    }
    coefficients.cells(row);
  }
  coefficients.print(out);
  Table summary;
  summary.row("runs", std::to_string(fit.runs), runs_note(report.runs_read, report.runs_dropped));
  summary.row("E^",
              "E_start " + plain(fit.law.experts_start) + ", E_max " + plain(fit.law.experts_max),
              "held at Ludziejewski et al. 2025's values (Eq. 4, Table 3)");
  summary.row("objective", plain(fit.objective, 8),
              "summed Huber loss (delta " + plain(report.huber_delta) + ") of ln L residuals");
  summary.row(
      "starts",
      std::to_string(fit.starts_converged) + " of " + std::to_string(fit.starts) + " converged",
      "L-BFGS from the joint grid; best start " + std::to_string(fit.best_start));
  if (fit.converged()) summary.row("status", "converged", fit.message);
  if (boot) {
    summary.row("bootstrap",
                std::to_string(boot->converged) + " of " + std::to_string(boot->replicates) +
                    " refits converged",
                "runs resampled with replacement, seed " + std::to_string(boot->seed));
  }
  if (!report.law_file.empty()) {
    summary.row("law file", report.law_file,
                "[law] with [law.joint] (use with --law-file; law.experts picks the experts)");
  }
  out << "\n";
  summary.print(out);
  return out.str();
}

}  // namespace scaleopt::report
