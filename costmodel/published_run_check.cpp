#include "scaleopt/costmodel/published_run_check.hpp"

#include <cmath>

#include "scaleopt/costmodel/field_name.hpp"

namespace scaleopt {

PublishedRunsCheck check_published_runs(const std::vector<PublishedRun>& runs,
                                        const std::vector<Hardware>& chips, double default_mfu) {
  require_positive("", "mfu", default_mfu);
  PublishedRunsCheck check;
  check.default_mfu = default_mfu;
  std::vector<double> basis;
  std::vector<double> bf16_peaks;
  for (const PublishedRun& run : runs) {
    const Hardware& chip = find_hardware(chips, run.hardware_id);
    PublishedRunCheck row;
    row.run = run;
    row.efficiency = run_efficiency(run, chip);
    const ImpliedMfu& bf16 = row.efficiency.at(Precision::bf16);
    row.default_basis_mfu = bf16.matmul_only;
    row.predicted_gpu_hours =
        predicted_gpu_hours(row.efficiency.matmul_flops, bf16.peak_flop_per_second, default_mfu);
    row.prediction_error = row.predicted_gpu_hours / run.gpu_hours - 1.0;
    basis.push_back(row.default_basis_mfu);
    bf16_peaks.push_back(bf16.peak_flop_per_second);
    check.runs.push_back(std::move(row));
  }
  check.spread = mfu_spread(basis);
  const std::vector<double> others = leave_one_out_mfus(basis);
  double sum_loo = 0.0;
  double sum_default = 0.0;
  for (std::size_t i = 0; i < check.runs.size(); ++i) {
    PublishedRunCheck& row = check.runs[i];
    row.leave_one_out_mfu = others[i];
    row.leave_one_out_gpu_hours =
        predicted_gpu_hours(row.efficiency.matmul_flops, bf16_peaks[i], others[i]);
    row.leave_one_out_error = row.leave_one_out_gpu_hours / row.run.gpu_hours - 1.0;
    sum_loo += std::pow(std::log1p(row.leave_one_out_error), 2);
    sum_default += std::pow(std::log1p(row.prediction_error), 2);
  }
  const double n = static_cast<double>(check.runs.size());
  check.leave_one_out_rms_log_error = std::sqrt(sum_loo / n);
  check.default_rms_log_error = std::sqrt(sum_default / n);
  return check;
}

}  // namespace scaleopt
