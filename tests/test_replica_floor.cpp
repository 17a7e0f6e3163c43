// One replica's floor on the fast path (problems/lifecycle/accelerators/replica_floor.hpp): a
// demand too small to keep one replica busy pays for the replica all the serving time, and the
// fast path's answer (the floor's own piece, the kink where the fleet outgrows one replica, or
// the closed form above it) equals NLopt's on the fleet itself; with a chosen replica, the best
// of the sizes each answered so equals NLopt's over every size given in turn. The floor's piece
// without RL is also checked against the Chinchilla closed form it reduces to.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "example_path.hpp"
#include "frontier_text.hpp"
#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// NLopt's answers are verified to a KKT residual of 1e-7 and polished along the curve to
// ~1e-13 in ln N; at a kink both land on the same root of g(N) = K. 1e-9 is the agreement the
// issue asks of the fast path against NLopt.
constexpr double kFloorAgreement = 1e-9;

QuestionSetup floor_setup(const std::string& text, const std::vector<std::string>& overrides) {
  const Scenario scenario = load_scenario_text(text, "frontier-floor.toml", overrides);
  return question_setup(scenario, *scenario.law, scenario.problem);
}

// Which piece the answer lies on, read off its fleet.
enum class Piece { floor, kink, above };
Piece piece_of(const AnswerSummary& a) {
  if (a.replicas > 1.0 + 1e-9) return Piece::above;
  return a.utilisation < 1.0 - 1e-9 ? Piece::floor : Piece::kink;
}

void check_floor_answer(const AnswerSummary& fast, const AnswerSummary& nlopt) {
  REQUIRE(nlopt.status == Status::converged);
  REQUIRE(fast.status == Status::converged);
  CHECK(fast.params == Approx(nlopt.params).epsilon(kFloorAgreement));
  CHECK(fast.pretrain_tokens == Approx(nlopt.pretrain_tokens).epsilon(kFloorAgreement));
  CHECK(fast.loss == Approx(nlopt.loss).epsilon(kFloorAgreement));
  CHECK(fast.cost.total().usd == Approx(nlopt.cost.total().usd).epsilon(kFloorAgreement));
  CHECK(fast.cost.inference.usd == Approx(nlopt.cost.inference.usd).epsilon(kFloorAgreement));
  CHECK(fast.replica_chips == nlopt.replica_chips);
  CHECK(fast.utilisation == Approx(nlopt.utilisation).epsilon(kFloorAgreement));
}

const std::vector<std::vector<std::string>> kQuestions = {
    {"problem.kind=min-lifetime-cost", "problem.target_params=100B"},
    {"problem.kind=max-quality", "problem.budget_usd=3e9"},
    {"problem.kind=equal-cost"}};

// The question at a rate on the given replica, by both paths, checked alike; returns the piece.
Piece check_at_rate(const std::string& text, const std::vector<std::string>& question, bool with_rl,
                    double rate) {
  std::vector<std::string> set = question;
  set.push_back("inference.rate=" + std::to_string(rate) + "/s");
  if (!with_rl) set.push_back("rl.rollout_tokens=0");
  const QuestionSetup setup = floor_setup(text, set);
  INFO("rate " << rate << "/s, " << set[0] << (with_rl ? "" : ", no RL"));
  const auto fast = solve_question_fast(setup);
  REQUIRE(fast.has_value());  // the floor no longer sends these to NLopt
  const QuestionSummary nlopt = solve_question_summary(setup, SolverOptions{}, SolveMethod::nlopt);
  const AnswerSummary& f = fast->has_optimum ? fast->optimum : fast->answer;
  const AnswerSummary& n = nlopt.has_optimum ? nlopt.optimum : nlopt.answer;
  check_floor_answer(f, n);
  const Piece piece = piece_of(f);
  if (piece != Piece::above) {
    // One replica paid for the whole duration: its chips x hours x price, by hand.
    const double hours = *setup.model.fleet->inputs().demand.duration_seconds / 3600.0;
    CHECK(f.cost.inference.usd == Approx(8.0 * hours * 4.0).epsilon(1e-12));
  }
  if (piece == Piece::floor && !with_rl && set[0] == "problem.kind=min-lifetime-cost") {
    // Serving then costs the same at every N and nothing else depends on N but pretraining:
    // the cheapest plan at the target loss is Chinchilla's compute-optimal one (Hoffmann et
    // al. 2022, Eq. 4) for the compute that reaches it.
    const auto c = coefficients_of<double>(setup.law());
    const auto optimal = compute_optimal_allocation(c, compute_for_loss(c, setup.target_loss));
    CHECK(f.active_params == Approx(optimal.params).epsilon(1e-9));
    CHECK(f.pretrain_tokens == Approx(optimal.tokens).epsilon(1e-9));
  }
  return piece;
}

// The fast path's piece at a rate (no NLopt): for the bisection below.
Piece fast_piece(const std::string& text, const std::vector<std::string>& question, bool with_rl,
                 double rate) {
  std::vector<std::string> set = question;
  set.push_back("inference.rate=" + std::to_string(rate) + "/s");
  if (!with_rl) set.push_back("rl.rollout_tokens=0");
  const auto fast = solve_question_fast(floor_setup(text, set));
  REQUIRE(fast.has_value());
  return piece_of(fast->has_optimum ? fast->optimum : fast->answer);
}

}  // namespace

TEST_CASE(
    "a replica given: the floor's piece, the kink and the closed form above agree with "
    "NLopt on every question",
    "[replica_floor]") {
  const std::string text = frontier_text(true);
  for (const bool with_rl : {true, false}) {
    for (const auto& question : kQuestions) {
      int pieces[3] = {0, 0, 0};
      double last_floor = 0.0, first_above = 0.0;
      // From a demand one replica serves at a small fraction of its time to one that needs
      // many replicas.
      for (int i = 0; i <= 36; ++i) {
        const double rate = 10.0 * std::pow(10.0, i / 6.0);
        const Piece piece = check_at_rate(text, question, with_rl, rate);
        ++pieces[static_cast<int>(piece)];
        if (piece == Piece::floor) last_floor = rate;
        if (piece == Piece::above && first_above == 0.0) first_above = rate;
      }
      INFO(question[0] << (with_rl ? "" : ", no RL") << ": floor " << pieces[0] << ", kink "
                       << pieces[1] << ", above " << pieces[2]);
      REQUIRE(pieces[0] > 0);
      REQUIRE(pieces[2] > 0);
      // The kink holds the demands between the floor's piece and the one above, an interval
      // as narrow as N_a and N_b are close: its ends found by bisection in ln rate, and its
      // middle checked. It is not empty where the floor's minimum N_b lies above the closed
      // form's N_a, as it always does for a cost at a target (the floor takes away serving's
      // marginal cost, which holds N down). Within a budget the floor also takes K from what
      // pretraining may spend, and N_b may lie below N_a: the answer then moves from N_b to N_a
      // at the demand where both cost the same loss (h is flat between them there), no kink.
      double lo = last_floor, hi = first_above;
      for (int step = 0; step < 60; ++step) {
        const double mid = std::sqrt(lo * hi);
        (fast_piece(text, question, with_rl, mid) == Piece::floor ? lo : hi) = mid;
      }
      const double floor_end = hi;
      lo = floor_end;
      hi = first_above;
      for (int step = 0; step < 60; ++step) {
        const double mid = std::sqrt(lo * hi);
        (fast_piece(text, question, with_rl, mid) == Piece::above ? hi : lo) = mid;
      }
      const double kink_end = lo;
      INFO("kink between " << floor_end << "/s and " << kink_end << "/s");
      const bool within_budget = question[0] == "problem.kind=max-quality";
      if (!within_budget) REQUIRE(kink_end > floor_end * (1.0 + 1e-6));
      if (kink_end > floor_end * (1.0 + 1e-6)) {
        CHECK(check_at_rate(text, question, with_rl, std::sqrt(floor_end * kink_end)) ==
              Piece::kink);
      }
    }
  }
}

TEST_CASE(
    "a replica chosen: the best of the sizes each answered by the fast path equals "
    "NLopt's over every size given in turn",
    "[replica_floor]") {
  const std::string text = frontier_text(false);
  int between = 0, answered = 0;
  for (const char* context : {"64K", "128K"}) {
    for (const char* latency : {"20ms", "40ms", "100ms"}) {
      for (const char* rate : {"2M/s", "5M/s", "10M/s", "20M/s"}) {
        const std::vector<std::string> set = {"problem.kind=min-lifetime-cost",
                                              "problem.target_params=100B",
                                              std::string("inference.context=") + context,
                                              std::string("inference.latency_per_token=") + latency,
                                              std::string("inference.rate=") + rate};
        const QuestionSetup setup = floor_setup(text, set);
        INFO(context << ", " << latency << ", " << rate);
        const auto fast = solve_question_fast(setup);
        REQUIRE(fast.has_value());
        ++answered;
        const QuestionSummary nlopt =
            solve_question_summary(setup, SolverOptions{}, SolveMethod::nlopt);
        check_floor_answer(fast->answer, nlopt.answer);
        // Neither the fewest nodes nor the largest size: a size the floor of a larger one
        // rules out.
        const double chips = fast->answer.replica_chips;
        if (chips > 8.0 && chips < 256.0) ++between;
      }
    }
  }
  CHECK(answered == 24);
  CHECK(between > 0);
}
