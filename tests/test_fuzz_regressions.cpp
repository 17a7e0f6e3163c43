// Inputs the fuzzers of fuzz/ found that crashed a target or broke one of its invariants,
// minimised, each with what was wrong. docs/reliability.md says how to add one.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/runs_csv.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

std::string csv_error(std::string_view text) {
  try {
    scaleopt::read_runs_csv_text(text, "runs.csv",
                                 {.params = "N", .tokens = "", .flops = "C", .loss = "loss"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// fuzz_scenario, a scenario ending in a lone "[": the parse error's line was searched for the
// key it sets, and the unclosed header "[" threw std::out_of_range out of substr (an abort).
// The error is the parser's one line, with the file and line, and names no key.
TEST_CASE("fuzz: a parse error at an unclosed table header is one line, not an abort", "[fuzz]") {
  for (const char* text : {"[architecture]\npreset = \"llama3-70b\"\n[\n", "[\n", "[[\n",
                           "[]]\nx = 1e400\n", "[law\nE = 1e400\n"}) {
    CAPTURE(text);
    try {
      load_scenario_text(text, "s.toml");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith("s.toml:"));
    }
  }
  // A bare value out of double range still names its key.
  try {
    load_scenario_text("[problem]\nbudget_usd = 1e400\n", "s.toml");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("s.toml:2:") && Catch::Contains("problem.budget_usd: "));
  }
}

// fuzz_quantity, input "\x04" "24.2GFLOP/s": a FLOP rate printed as "24.2BFLOP/s", which the
// parser refuses ("B" means bytes there): printed figures must read back.
TEST_CASE("fuzz: a FLOP rate prints with G for 1e9 and parses back", "[fuzz]") {
  const double rate = parse_quantity("24.2GFLOP/s", Unit::flop_per_second);
  CHECK(rate == 24.2e9);
  const std::string printed = format_quantity(rate, Unit::flop_per_second);
  CHECK(printed == "24.2GFLOP/s");
  CHECK(parse_quantity(printed, Unit::flop_per_second) == rate);
  CHECK(format_quantity(989e12, Unit::flop_per_second) == "989TFLOP/s");  // unchanged
}

// fuzz_runs_csv, input "\x01" "N,C,loss\n1e-300,1e300,2\n": D = C / (6 N) overflowed to
// infinity and the run was accepted (the fit would have seen an infinite token count).
TEST_CASE("fuzz: a compute column giving infinite or zero tokens is refused", "[fuzz]") {
  CHECK_THAT(csv_error("N,C,loss\n1e-300,1e300,2\n"),
             Catch::Contains("runs.csv:2:") && Catch::Contains("D = C / (6 N)"));
  CHECK_THAT(csv_error("N,C,loss\n1e300,1e-300,2\n"), Catch::Contains("runs.csv:2:"));
  CHECK(csv_error("N,C,loss\n1e9,6e19,2\n") == "no error");
}

// fuzz_scenario, seed edge_huge_budget (examples/budget_plan.toml with budget_usd=1e30): NLopt
// stopped at 1e30 tokens, the bound of D, while the 1-D reduction went past it; they
// disagreed by 100%. The reduction now keeps D within its bounds as NLopt does.
TEST_CASE("fuzz: a budget beyond 1e30 tokens: both methods stop at the bound of D", "[fuzz]") {
  const scaleopt::Scenario scenario =
      scaleopt::load_scenario(example("budget_plan.toml"), {"problem.budget_usd=1e30"});
  const QuestionSolution solution = solve_question(scenario, *scenario.law, scenario.problem);
  // At the bound the answer is out of the model's range: infeasible, the plan kept to compare.
  REQUIRE(solution.status() == Status::infeasible);
  CHECK_THAT(solution.message(), Catch::Contains("pretraining tokens reach 1e30"));
  CHECK(solution.answer.plan.pretrain_tokens == Approx(1e30).epsilon(1e-12));
  CHECK(solution.answer.plan.reference_relative_difference < 1e-8);
}

// fuzz_scenario, input [law] preset = "epoch2024", [inference] tokens = 1e40, [problem]
// min-lifetime-flops at target_loss = 7.4: inference dominates, so the optimum is the smallest
// model that reaches the target with at most 1e30 tokens, N = (A / (L - E - B
// 1e30^-beta))^(1/alpha). NLopt found it; the 1-D reduction kept a margin of 1e-9 in ln N above the
// wall at N_min and so answered D 38% lower.
TEST_CASE("fuzz: an optimum at the bound of D is the smallest model, for both methods", "[fuzz]") {
  const std::string scenario_text =
      "[law]\npreset = \"epoch2024\"\n[inference]\ntokens = \"1T\"\noutput_fraction = 0.5\n"
      "[problem]\nkind = \"min-lifetime-flops\"\ntarget_loss = 7.4\n";
  const scaleopt::Scenario scenario =
      scaleopt::load_scenario_text(scenario_text, "fuzz.toml", {"inference.tokens=1e40"});
  const LossLaw& law = *scenario.law;
  const double wall_params =
      std::pow(law.A / (7.4 - law.E - law.B * std::pow(1e30, -law.beta)), 1.0 / law.alpha);
  const QuestionSolution solution = solve_question(scenario, law, scenario.problem);
  REQUIRE(solution.status() == Status::infeasible);  // at the bound: out of the model's range
  // N to rounding: ln N is what both methods hold, to ~1e-16 relative.
  CHECK(solution.answer.plan.params == Approx(wall_params).epsilon(1e-12));
  CHECK(solution.answer.plan.pretrain_tokens == Approx(1e30).epsilon(1e-9));
  // D(N) has slope d ln D / d ln N = -alpha p / (beta (L - E - p)) ~ -2.4e8 at this wall, so a
  // rounding of ln N at 1e-16 moves D by ~1e-7: the methods agree on D to that, not better.
  CHECK(solution.answer.plan.reference_relative_difference < 1e-6);
}

TEST_CASE("fuzz: an unknown command holding a line break is still a one-line error", "[fuzz]") {
  // fuzz_cli: hostile text given as the command was printed as typed, line breaks and all.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"a\nb"}, std::vector<std::string>{"pricing", "x\r\ny"}}) {
    const CliRun run = run_cli(args);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains("unknown command"));
  }
}
