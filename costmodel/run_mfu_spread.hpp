#pragma once
// The spread of the MFUs published runs imply, as a distribution of training.mfu for Monte
// Carlo (a lognormal: MFUs are ratios, and their logs are what varies by a factor), and each
// run's GPU-hours predicted from the other runs alone (leave-one-out), so that no run is
// predicted by a figure fitted to itself.

#include <span>
#include <vector>

namespace scaleopt {

struct MfuSpread {
  double geometric_mean = 0.0;  // exp(mean ln mfu): the lognormal's median
  double log_sd = 0.0;          // sample standard deviation of ln mfu (n - 1): its sigma
  double lowest = 0.0;
  double highest = 0.0;
};

// Throws InputError unless there are at least two MFUs, each finite and positive.
MfuSpread mfu_spread(std::span<const double> mfus);

// For each i, the geometric mean of the MFUs other than mfus[i] (at least two MFUs).
std::vector<double> leave_one_out_mfus(std::span<const double> mfus);

}  // namespace scaleopt
