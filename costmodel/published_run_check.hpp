#pragma once
// The catalog of published runs held against the training defaults: for each run, the MFU
// its GPU-hours imply, its GPU-hours predicted at the default MFU (a fixed assumption, not
// fitted to any run), and predicted again at the geometric mean of the other runs' MFUs
// (leave-one-out); and the spread of the MFUs as a ready [uncertainty] distribution.
//
// The comparisons use the default training setup's own definition of MFU: 6 N D model FLOPs
// (no attention: training.context is absent by default) against the bf16 dense peak (the
// default training.precision), goodput 1. The other definitions are in each run's efficiency.

#include <vector>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/published_run.hpp"
#include "scaleopt/costmodel/run_mfu_spread.hpp"

namespace scaleopt {

struct PublishedRunCheck {
  PublishedRun run;
  RunEfficiency efficiency;
  double default_basis_mfu = 0.0;        // 6ND against the bf16 peak: the defaults' basis
  double predicted_gpu_hours = 0.0;      // at the default MFU
  double prediction_error = 0.0;         // predicted / published - 1
  double leave_one_out_mfu = 0.0;        // geometric mean of the other runs' basis MFUs
  double leave_one_out_gpu_hours = 0.0;  // predicted at it
  double leave_one_out_error = 0.0;      // predicted / published - 1
};

struct PublishedRunsCheck {
  double default_mfu = 0.0;
  std::vector<PublishedRunCheck> runs;
  MfuSpread spread;                          // of the basis MFUs
  double leave_one_out_rms_log_error = 0.0;  // sqrt(mean ln(predicted / published)^2)
  double default_rms_log_error = 0.0;        // the same at the default MFU
};

// Throws InputError when a run's chip is not in `chips`, or fewer than two runs are given.
PublishedRunsCheck check_published_runs(const std::vector<PublishedRun>& runs,
                                        const std::vector<Hardware>& chips, double default_mfu);

}  // namespace scaleopt
