#pragma once
// Fitting the joint dense/MoE law (costmodel/joint_loss_law.hpp, Ludziejewski et al. 2025,
// Eq. 6) to training runs with an expert count, as the paper fits it (App. B): the summed Huber
// loss of ln L against the law's log-sum-exp prediction,
//
//   ln L_pred = LSE(ln E, ln a + delta l + (alpha + gamma l) ln N, ln b + omega l + (beta + zeta l)
//   ln D),
//
// l = ln E^(experts), minimised by L-BFGS from each of a grid of starts, in parallel, over
// x = (ln E, ln a, ln b, alpha, beta, delta, gamma, omega, zeta). E_start and E_max of the
// transform are held at the paper's values (FitOptions below): the runs' few distinct expert
// counts cannot pin a saturation down as well as the paper's 280 runs did. docs/fitting.md.

#include <array>
#include <span>
#include <string>
#include <vector>

#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/problems/fit/training_run.hpp"
#include "scaleopt/solver/lbfgs.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

inline constexpr std::size_t kJointFitVariables = 9;
using JointLogCoefficients = std::array<double, kJointFitVariables>;

// The starts: ln E in {-0.5, 0, 0.5}, ln a and ln b in {0, 5, 10}, alpha and beta in {-0.1,
// -0.3, -0.5}, delta and omega in {-0.5, 0, 0.5}, gamma = zeta = 0 (the interactions start
// absent): 3^7 = 2,187 starts (the paper's grid, App. B, with exponents signed as its Table 3).
std::vector<JointLogCoefficients> joint_start_grid();

struct JointFitOptions {
  double huber_delta = 1e-3;  // as FitOptions::huber_delta (the paper used 1e-2)
  // Eq. 4's saturation, held fixed: the paper's fitted values (Table 3).
  double experts_start = 2.0732;
  double experts_max = 290.4521;
  std::vector<JointLogCoefficients> starts = joint_start_grid();
  LbfgsOptions lbfgs{};
  double gradient_tolerance = 1e-7;  // as FitOptions::gradient_tolerance
  unsigned threads = 0;  // 0 = one per hardware thread; the result does not depend on it

  // Throws InputError naming the field and its bad value.
  void validate() const;
};

struct JointFitResult {
  Status status = Status::not_converged;  // as FitResult::status
  std::string message;
  JointLossLaw law;  // name "fit", with the runs' range (experts included)
  JointLogCoefficients x{};
  double objective = 0.0;
  double gradient_norm = 0.0;  // ||grad f(x)||_inf / gradient scale
  std::size_t runs = 0;
  std::size_t starts = 0;
  std::size_t starts_converged = 0;
  std::size_t best_start = 0;
  long evaluations = 0;
  bool converged() const { return status == Status::converged; }
};

// Why `runs` cannot determine the nine coefficients, or an empty string: fewer than 9 runs,
// fewer than 3 distinct N or D, fewer than 2 distinct expert counts (two counts give m, mu, n
// and nu at each, the eight numbers a, delta, alpha, gamma, b, omega, beta, zeta solve for).
std::string joint_identifiability_problem(std::span<const TrainingRun> runs);

// Fits the joint law to `runs` (validated). Runs that cannot determine it come back
// not_identifiable (no start run, `law` NaN). Throws InputError for bad runs or options.
JointFitResult fit_joint_law(std::span<const TrainingRun> runs,
                             const JointFitOptions& options = {});

// The same on weighted runs (a bootstrap replicate: weights[i] copies of run i) from `starts`.
JointFitResult fit_joint_law(std::span<const TrainingRun> runs, std::span<const unsigned> weights,
                             std::span<const JointLogCoefficients> starts,
                             const JointFitOptions& options);

struct JointBootstrapResult {
  int replicates = 0;
  int converged = 0;
  std::uint64_t seed = 0;
  std::array<Spread, kJointFitVariables> coefficients{};  // kJointCoefficientNames' order
  std::array<double, 9> standard_errors() const;
};

// Resamples `runs` as bootstrap_scaling_law does (same generator, same seed semantics) and
// refits each replicate from fit.x. Throws InputError when fewer than 2 refits converge.
JointBootstrapResult bootstrap_joint_law(std::span<const TrainingRun> runs,
                                         const JointFitResult& fit,
                                         const JointFitOptions& fit_options,
                                         const BootstrapOptions& options = {});

}  // namespace scaleopt
