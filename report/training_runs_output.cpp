#include "scaleopt/report/training_runs_output.hpp"

#include <cstdio>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

std::string fraction(double value, const char* format = "%.3f") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string signed_percent(double value) {
  return fraction(100.0 * value, "%+.0f%%");
}

constexpr const char* kBasis =
    "6ND (no attention) against the bf16 dense peak, goodput 1: the default training setup's "
    "definition (training.precision bf16, no training.context)";

}  // namespace

std::string mfu_uncertainty_line(const MfuSpread& spread) {
  return "training.mfu = { dist = \"lognormal\", median = " + fraction(spread.geometric_mean) +
         ", sigma = " + fraction(spread.log_sd) + " }";
}

Json training_runs_json(const PublishedRunsCheck& check) {
  Json runs = Json::array();
  for (const PublishedRunCheck& row : check.runs) {
    const PublishedRun& run = row.run;
    Json by_peak = Json::array();
    for (const ImpliedMfu& mfu : row.efficiency.implied) {
      by_peak.push_back(Json{{"precision", std::string(to_string(mfu.precision))},
                             {"peak_flop_per_second", mfu.peak_flop_per_second},
                             {"matmul_only", mfu.matmul_only},
                             {"with_attention", optional_or_null(mfu.with_attention)}});
    }
    runs.push_back(Json{{"id", run.id},
                        {"name", run.name},
                        {"hardware", run.hardware_id},
                        {"precision", std::string(to_string(run.precision))},
                        {"active_params", run.active_params},
                        {"total_params", run.total_params},
                        {"tokens", run.tokens},
                        {"sequence_tokens", optional_or_null(run.sequence_tokens)},
                        {"gpu_hours_published", run.gpu_hours},
                        {"matmul_flops", row.efficiency.matmul_flops},
                        {"attention_flops", optional_or_null(row.efficiency.attention_flops)},
                        {"implied_mfu", row.efficiency.implied.front().matmul_only},
                        {"implied_mfu_by_peak", by_peak},
                        {"default_basis_mfu", row.default_basis_mfu},
                        {"predicted_gpu_hours", row.predicted_gpu_hours},
                        {"prediction_error", row.prediction_error},
                        {"leave_one_out_mfu", row.leave_one_out_mfu},
                        {"leave_one_out_gpu_hours", row.leave_one_out_gpu_hours},
                        {"leave_one_out_error", row.leave_one_out_error},
                        {"note", run.note},
                        {"source", run.source}});
  }
  return json_document(Json{{"default_mfu", check.default_mfu},
                            {"basis", kBasis},
                            {"runs", runs},
                            {"spread", Json{{"geometric_mean", check.spread.geometric_mean},
                                            {"log_sd", check.spread.log_sd},
                                            {"lowest", check.spread.lowest},
                                            {"highest", check.spread.highest}}},
                            {"leave_one_out_rms_log_error", check.leave_one_out_rms_log_error},
                            {"default_rms_log_error", check.default_rms_log_error},
                            {"uncertainty", mfu_uncertainty_line(check.spread)}});
}

std::string training_runs_text(const PublishedRunsCheck& check) {
  Table table("Published pretraining runs: the MFU their GPU-hours imply");
  table.header({"run", "chip", "trained in", "N (active)", "tokens", "GPU-hours", "MFU 6ND",
                "+attention", "MFU fp8 peak", "at " + fraction(check.default_mfu, "%.2f"), "error",
                "leave-one-out", "error"});
  for (const PublishedRunCheck& row : check.runs) {
    const PublishedRun& run = row.run;
    const ImpliedMfu& bf16 = row.efficiency.at(Precision::bf16);
    std::string fp8 = "-";
    for (const ImpliedMfu& mfu : row.efficiency.implied) {
      if (mfu.precision == Precision::fp8) fp8 = fraction(mfu.matmul_only);
    }
    table.cells({run.id, run.hardware_id, std::string(to_string(run.precision)),
                 format_quantity(run.active_params, Unit::count),
                 format_quantity(run.tokens, Unit::count),
                 format_quantity(run.gpu_hours, Unit::count, 4), fraction(bf16.matmul_only),
                 bf16.with_attention ? fraction(*bf16.with_attention) : "-", fp8,
                 format_quantity(row.predicted_gpu_hours, Unit::count, 4),
                 signed_percent(row.prediction_error), fraction(row.leave_one_out_mfu),
                 signed_percent(row.leave_one_out_error)});
  }
  std::ostringstream out;
  table.print(out);
  out << "MFU columns: model FLOPs / (published GPU-hours x 3600 x the bf16 dense peak), 6ND "
         "alone and with the attention FLOPs of the pretraining sequence length; \"MFU fp8 "
         "peak\" against the fp8 peak for runs trained in fp8.\n";
  out << "Predictions: the default training setup (MFU " << fraction(check.default_mfu, "%.2f")
      << ", bf16 peak, 6ND) and, leave-one-out, the geometric mean of the other runs' MFUs; "
         "error = predicted / published - 1.\n";
  out << "RMS of ln(predicted / published): " << fraction(check.default_rms_log_error)
      << " at the default, " << fraction(check.leave_one_out_rms_log_error) << " leave-one-out.\n";
  out << "Spread of the MFUs: " << fraction(check.spread.lowest) << " to "
      << fraction(check.spread.highest) << ", geometric mean "
      << fraction(check.spread.geometric_mean) << ". For Monte Carlo, in [uncertainty]:\n  "
      << mfu_uncertainty_line(check.spread) << "\n";
  out << "Published GPU-hours are paid hours: these MFUs already hold the runs' goodput losses "
         "(restarts, failures); use them with training.goodput = 1.\n";
  out << "Notes:\n";
  for (const PublishedRunCheck& row : check.runs) {
    if (!row.run.note.empty()) out << wrap_words(row.run.id + ": " + row.run.note);
  }
  out << "Sources:\n";
  for (const PublishedRunCheck& row : check.runs) {
    out << wrap_words(row.run.id + ": " + row.run.source);
  }
  return out.str();
}

}  // namespace scaleopt::report
