#pragma once
// scaleopt as a C++ library, in one include (<scaleopt/scaleopt.hpp>; link scaleopt::scaleopt).
// The main public headers, one per thing a program asks; each layer has more, all installed
// under <scaleopt/LAYER/...> (docs/library.md: what is public, and examples).
//
//   const scaleopt::Scenario scenario =
//       scaleopt::load_scenario("examples/budget_plan.toml", {"problem.budget_usd=1B"});
//   const scaleopt::QuestionSolution solution = scaleopt::solve_scenario(scenario, {});
//   std::cout << scaleopt::report::solution_json(scenario, *scenario.law, solution).dump(2);

// Quantities as people type them ("70B", "$2/h"), loss laws and their closed forms; the one
// exception for input a user can correct (InputError).
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/costmodel/quantity.hpp"

// The compute-optimal model for a budget of FLOPs or a target loss.
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"

// Scenario files, with --set KEY=VALUE overrides; numeric inputs by path.
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

// A scenario's question solved: by NLopt with every check (solve_scenario), or set up once
// (scenario_setup) and solved by the fast path into a light summary.
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_solve.hpp"

// Sweeps (answers as rows of numbers, and their CSV), Monte Carlo, sensitivities.
#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/analysis/sweep_csv_writer.hpp"
#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"

// The JSON of a solution: the keys of `scaleopt solve --json`.
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
