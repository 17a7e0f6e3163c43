#include "scaleopt/analysis/stress_instance.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/fit/bootstrap_resample.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"

namespace scaleopt {
namespace {

// Epoch AI's bootstrap standard errors of their refit (Besiroglu et al. 2024, Table 1): E and
// the exponents as absolute spreads, A and B relative to Epoch's values (482.01, 2085.43).
constexpr double kSpreadE = 0.03;
constexpr double kRelativeSpreadA = 124.58 / 482.01;
constexpr double kRelativeSpreadB = 1293.23 / 2085.43;
constexpr double kSpreadExponent = 0.02;

// The range of model sizes users meet, and of inference demand.
constexpr double kSmallestModel = 1e7;
constexpr double kLargestModel = 1e13;
constexpr double kLeastDemand = 1e6;
constexpr double kMostDemand = 1e16;

// Draws from one instance's generator. Uniform doubles take the top 53 bits of a 64-bit draw
// and normals are Box-Muller on them, so a seed gives the same instances with any standard
// library (std::*_distribution algorithms are left to each library).
class Draw {
 public:
  explicit Draw(std::mt19937_64 generator) : generator_(generator) {}
  double uniform() { return static_cast<double>(generator_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lower, double upper) { return lower + (upper - lower) * uniform(); }
  double log_uniform(double lower, double upper) {
    return std::exp(uniform(std::log(lower), std::log(upper)));
  }
  bool chance(double probability) { return uniform() < probability; }
  std::uint64_t below(std::uint64_t bound) { return uniform_below(generator_, bound); }
  // A standard normal truncated to +-4: the spread of a bootstrap, without freak tails.
  double normal() {
    for (;;) {
      const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
      const double z = radius * std::cos(2.0 * std::numbers::pi * uniform());
      if (std::fabs(z) <= 4.0) return z;
    }
  }

 private:
  std::mt19937_64 generator_;
};

LossLaw spread_law(Draw& draw, StressInstance& instance) {
  // The laws fitted to Chinchilla's runs: muennighoff2023 (C4, another tokenizer) is left out,
  // which also keeps every class's instances as they were drawn before it existed.
  std::vector<LossLaw> presets = loss_law_presets();
  std::erase_if(presets, [](const LossLaw& law) { return law.name == "muennighoff2023"; });
  const LossLaw& base = presets[draw.below(presets.size())];
  instance.law_preset = base.name;
  LossLaw law;
  law.name = "stress";
  law.source = "scaleopt selftest: " + base.name + " spread by Epoch AI's standard errors";
  law.E = base.E + kSpreadE * draw.normal();
  law.A = base.A * std::exp(kRelativeSpreadA * draw.normal());
  law.B = base.B * std::exp(kRelativeSpreadB * draw.normal());
  law.alpha = base.alpha + kSpreadExponent * draw.normal();
  law.beta = base.beta + kSpreadExponent * draw.normal();
  return law;
}

Hardware made_up_chip(Draw& draw, const char* id) {
  Hardware chip;
  chip.id = id;
  chip.name = std::string("selftest chip ") + id;
  chip.source = "made up by scaleopt selftest";
  chip.bf16_flop_per_second = draw.log_uniform(1e14, 1e16);
  chip.hbm_bytes_per_second = draw.log_uniform(1e12, 1e13);
  chip.hbm_bytes = draw.log_uniform(16e9, 192e9);
  return chip;
}

// The loss of the law's compute-optimal model of N parameters (Hoffmann Eq. 4).
double frontier_loss(const LossLaw& law, double params) {
  return law.loss(params, compute_optimal_tokens(coefficients_of<double>(law), params));
}

// A target no model reaches: at or below E (as far as 1e-12 below it), or so close above E that
// the frontier needs more than 1e30 parameters (down to 1e-12 above it).
double unreachable_target(Draw& draw, const LossLaw& law) {
  if (draw.chance(0.5)) return law.E * (1.0 - draw.log_uniform(1e-12, 0.3));
  // The frontier's reducible loss falls as N^-alpha*(...) : take it at 1e31..1e40 parameters.
  const double beyond = frontier_loss(law, draw.log_uniform(1e31, 1e40)) - law.E;
  return law.E + draw.log_uniform(std::max(1e-12 * law.E, 1e-3 * beyond), beyond);
}

// A target from near E (the frontier at 1e13 parameters) to far (at 1e7), or one in ten
// unreachable.
double loss_target(Draw& draw, StressInstance& instance) {
  if (draw.chance(0.1)) {
    instance.drawn_unreachable = true;
    return unreachable_target(draw, instance.law);
  }
  return frontier_loss(instance.law, draw.log_uniform(kSmallestModel, kLargestModel));
}

// The roofline classes' further inputs: a preset's shape (its KV bytes and attention FLOPs;
// N stays free), a latency target, a given batch, and an RL context of its own. Targets and
// batches are set from the smallest model so that it meets them (the serving setup is
// otherwise refused as a whole).
void roofline_extras(Draw& draw, LifetimeInputs& inputs) {
  ServingSetup& serving = inputs.serving;
  if (draw.chance(0.4)) {
    const std::vector<Architecture> presets = architecture_presets();
    inputs.architecture = presets[draw.below(presets.size())];
  }
  if (draw.chance(0.3)) inputs.rl.context_tokens = std::round(draw.log_uniform(1e3, 1.3e5));
  const double longest = std::max(serving.context_tokens, inputs.rl.context_tokens.value_or(0.0));
  // Enough chips that one sequence's cache and the smallest model fit with room to spare.
  const Roofline unit = make_roofline(architecture_at(inputs.architecture, 1.0), serving, "");
  const double cache = cached_bytes_per_sequence(unit, longest);
  while (serving.chips * serving.chip.hbm_bytes <
         4.0 * (cache + 2.0 * kSmallestModel * unit.weight_bytes)) {
    serving.chips *= 2.0;
  }
  if (draw.chance(0.15)) {
    // A batch whose caches take at most a quarter of the HBM, which the chips above leave
    // free beside the smallest model.
    const double fits = 0.25 * serving.chips * serving.chip.hbm_bytes / std::max(cache, 1.0);
    serving.batch = std::round(draw.log_uniform(1.0, std::max(1.0, std::min(fits, 4096.0))));
  } else if (draw.chance(0.4)) {
    // 1.5x to 1000x the smallest model's step at batch 1.
    const Roofline r =
        make_roofline(architecture_at(inputs.architecture, kSmallestModel), serving, "");
    serving.latency_per_token_seconds =
        decode_step(r, 1.0, longest).seconds() * draw.log_uniform(1.5, 1000.0);
  }
}

// Prices and efficiencies over two orders of magnitude; inference by MFUs or the roofline
// (always, with `roofline`, and its further inputs); RL or none; demand from 0 to 1e16 tokens.
LifetimeInputs lifetime_inputs(Draw& draw, bool needs_demand, bool roofline = false) {
  LifetimeInputs inputs;
  TrainingSetup& training = inputs.training;
  training.chip = made_up_chip(draw, "stress-train");
  training.mfu = draw.log_uniform(0.006, 0.6);
  training.usd_per_chip_hour = draw.log_uniform(0.2, 20.0);

  ServingSetup& serving = inputs.serving;
  serving.chip = made_up_chip(draw, "stress-serve");
  serving.usd_per_chip_hour = draw.log_uniform(0.2, 20.0);
  serving.chips = std::pow(2.0, static_cast<double>(draw.below(7)));  // 1 to 64
  serving.context_tokens = std::round(draw.log_uniform(1e3, 1.3e5));
  if (!roofline && draw.chance(0.6)) {
    serving.pricing = InferencePricing::mfu;
    serving.prefill_mfu = draw.log_uniform(0.005, 0.5);
    serving.decode_mfu = draw.log_uniform(0.005, 0.5);
  } else {
    serving.pricing = InferencePricing::roofline;
    serving.compute_efficiency = draw.log_uniform(0.01, 1.0);
    serving.bandwidth_efficiency = draw.log_uniform(0.01, 1.0);
    // Only the ratio of total to active parameters and the KV bytes matter: N is free.
    Architecture& architecture = inputs.architecture;
    architecture.active_params = 1e9;
    architecture.total_params = draw.chance(0.3) ? 1e9 * draw.log_uniform(1.0, 20.0) : 1e9;
    architecture.kv_bytes_per_token = draw.log_uniform(1e3, 4e5);
    // Enough chips that one sequence's cache and the smallest model fit with room to spare.
    const double needed = 4.0 * (*architecture.kv_bytes_per_token * serving.context_tokens +
                                 2.0 * kSmallestModel * *architecture.total_params / 1e9);
    while (serving.chips * serving.chip.hbm_bytes < needed) serving.chips *= 2.0;
  }

  InferenceDemand& demand = inputs.demand;
  demand.tokens =
      !needs_demand && draw.chance(0.1) ? 0.0 : draw.log_uniform(kLeastDemand, kMostDemand);
  demand.output_fraction = draw.uniform();

  RlSetup& rl = inputs.rl;
  if (draw.chance(0.7)) {
    rl.rollout_tokens = draw.log_uniform(1e6, 1e15);
    rl.trained_fraction = draw.uniform();
    rl.extra_forward_passes = static_cast<double>(draw.below(3));
  }
  if (roofline) roofline_extras(draw, inputs);
  return inputs;
}

// A lifetime budget from small to large: the cost of the law's compute-optimal model of
// 1e7..1e13 parameters (within what the setup serves), times 0.1 to 10.
double lifetime_budget(Draw& draw, const StressInstance& instance, CostUnit unit) {
  const LifetimeCostModel model = lifetime_cost_model(instance.inputs, true);
  const double params =
      draw.log_uniform(kSmallestModel, std::min(kLargestModel, 0.5 * model.max_params));
  const double tokens = compute_optimal_tokens(coefficients_of<double>(instance.law), params);
  return model.total(unit, params, tokens).value * draw.log_uniform(0.1, 10.0);
}

// kappa: the price of an RL FLOP relative to a pretraining FLOP in `unit` (1 in FLOPs),
// 6 c_rl / (k a) with costs linear in N (problems/rl_returns/rl_returns_plan.hpp).
double rl_flop_price(const LifetimeInputs& inputs, CostUnit unit) {
  const LifetimeCostModel model = lifetime_cost_model(inputs, unit != CostUnit::flops);
  return 6.0 * rl_cost_per_token(model, unit, 1.0) /
         (model.rl_flops_per_param_token * in_unit(unit, model.pretraining(1.0, 1.0)));
}

// The smallest RL ratio the reference considers (rl_returns_plan.cpp: RL below 1e-12 of
// pretraining's FLOPs counts as none).
constexpr double kNoRlRatio = 1e-12;

CostShares random_shares(Draw& draw, bool with_rl) {
  CostShares shares;
  shares.pretrain = draw.uniform(0.05, 1.0);
  shares.rl = with_rl ? draw.uniform(0.05, 1.0) : 0.0;
  const double inference = draw.uniform(0.05, 1.0);
  const double sum = shares.pretrain + shares.rl + inference;
  shares.pretrain /= sum;
  shares.rl /= sum;
  shares.inference = 1.0 - shares.pretrain - shares.rl;  // the sum is 1 to rounding
  return shares;
}

// Question 0: min-lifetime-flops at a target, 1: min-lifetime-cost at a target, 2: max-quality
// within a budget in dollars.
void lifecycle_question(Draw& draw, StressInstance& instance, int question) {
  if (question == 2) {
    instance.problem.kind = ProblemKind::max_quality;
    instance.problem.budget_usd = lifetime_budget(draw, instance, CostUnit::usd);
  } else {
    instance.problem.kind =
        question == 0 ? ProblemKind::min_lifetime_flops : ProblemKind::min_lifetime_cost;
    instance.problem.target_loss = loss_target(draw, instance);
  }
}

}  // namespace

std::string_view to_string(StressClass kind) {
  switch (kind) {
    case StressClass::compute_at_budget:
      return "compute-at-budget";
    case StressClass::compute_at_loss:
      return "compute-at-loss";
    case StressClass::min_lifetime:
      return "min-lifetime";
    case StressClass::max_quality:
      return "max-quality";
    case StressClass::equal_cost:
      return "equal-cost";
    case StressClass::roofline_min_lifetime:
      return "roofline-min-lifetime";
    case StressClass::roofline_max_quality:
      return "roofline-max-quality";
    case StressClass::roofline_equal_cost:
      return "roofline-equal-cost";
    case StressClass::rl_returns:
      return "rl-returns";
    case StressClass::data_limit:
      return "data-limit";
    case StressClass::fleet:
      return "fleet";
    case StressClass::experts:
      return "experts";
  }
  return "compute-at-budget";
}

StressClass stress_class(std::uint64_t index) {
  return static_cast<StressClass>(index % kStressClassCount);
}

StressInstance stress_instance(std::uint64_t seed, std::uint64_t index) {
  const auto kind = static_cast<std::uint64_t>(stress_class(index));
  const std::uint64_t turn = index / kStressClassCount;
  // The first classes' instances as they were drawn before later classes joined; the later
  // classes from streams far beyond any instance count (the run allows 1e9 instances).
  const std::uint64_t draw_index =
      kind < kFirstClassCount ? kFirstClassCount * turn + kind : (kind << 40) + turn;
  Draw draw(replicate_generator(seed, draw_index));
  StressInstance instance;
  instance.seed = seed;
  instance.index = index;
  instance.kind = stress_class(index);
  instance.law = spread_law(draw, instance);
  const LawCoefficients<double> c = coefficients_of<double>(instance.law);

  switch (instance.kind) {
    case StressClass::compute_at_budget: {
      // C/6 = (N / G)^(1/a) puts the optimum at N (Hoffmann Eq. 4 inverted).
      const double params = draw.log_uniform(kSmallestModel, kLargestModel);
      const double a = c.beta / (c.alpha + c.beta);
      instance.compute_flops = 6.0 * std::pow(params / allocation_scale(c), 1.0 / a);
      break;
    }
    case StressClass::compute_at_loss:
      instance.target_loss = loss_target(draw, instance);
      break;
    case StressClass::min_lifetime:
    case StressClass::roofline_min_lifetime: {
      const bool roofline = instance.kind == StressClass::roofline_min_lifetime;
      instance.inputs = lifetime_inputs(draw, false, roofline);
      // The roofline prices dollars and hours; a FLOPs problem does not see it.
      instance.problem.kind = !roofline && draw.chance(0.5) ? ProblemKind::min_lifetime_flops
                                                            : ProblemKind::min_lifetime_cost;
      instance.problem.target_loss = loss_target(draw, instance);
      break;
    }
    case StressClass::max_quality:
    case StressClass::roofline_max_quality: {
      instance.inputs =
          lifetime_inputs(draw, false, instance.kind == StressClass::roofline_max_quality);
      instance.problem.kind = ProblemKind::max_quality;
      if (draw.chance(0.5)) {
        instance.problem.budget_usd = lifetime_budget(draw, instance, CostUnit::usd);
      } else {
        instance.problem.budget_gpu_hours = lifetime_budget(draw, instance, CostUnit::gpu_hours);
      }
      break;
    }
    case StressClass::equal_cost:
    case StressClass::roofline_equal_cost: {
      instance.inputs =
          lifetime_inputs(draw, true, instance.kind == StressClass::roofline_equal_cost);
      instance.problem.kind = ProblemKind::equal_cost;
      const bool with_rl = instance.inputs.rl.rollout_tokens > 0.0;
      instance.problem.shares = random_shares(draw, with_rl);
      constexpr CostUnit kUnits[] = {CostUnit::usd, CostUnit::gpu_hours, CostUnit::flops};
      instance.problem.shares_unit = kUnits[draw.below(3)];
      const double largest =
          std::min(kLargestModel, 0.5 * lifetime_cost_model(instance.inputs, true).max_params);
      instance.problem.params = draw.log_uniform(kSmallestModel, largest);
      break;
    }
    case StressClass::rl_returns: {
      // Costs linear in N: FLOPs, or fixed MFUs (the reference needs them).
      instance.inputs = lifetime_inputs(draw, false);
      ServingSetup& serving = instance.inputs.serving;
      if (serving.pricing == InferencePricing::roofline) {
        serving.pricing = InferencePricing::mfu;
        serving.prefill_mfu = draw.log_uniform(0.005, 0.5);
        serving.decode_mfu = draw.log_uniform(0.005, 0.5);
        instance.inputs.architecture = Architecture{};
      }
      RlSetup& rl = instance.inputs.rl;
      rl.trained_fraction = draw.uniform();
      rl.extra_forward_passes = static_cast<double>(draw.below(3));
      rl.rollout_tokens = 1.0;  // the lower bound of the chosen tokens: RL may pay or not
      const int question = static_cast<int>(draw.below(3));
      const CostUnit unit = question == 0 ? CostUnit::flops : CostUnit::usd;
      // Returns for which some RL pays at these prices (r* above its bound: the reference's
      // domain), drawn again until they do.
      const double kappa = rl_flop_price(instance.inputs, unit);
      for (int tries = 0; tries < 1000; ++tries) {
        rl.returns = RlReturns{draw.log_uniform(2.0, 50.0), draw.log_uniform(1e-4, 1e-2),
                               draw.log_uniform(0.5, 2.0)};
        if (!optimal_rl_ratio(*rl.returns, kappa, kNoRlRatio).at_lower_bound) break;
      }
      lifecycle_question(draw, instance, question);
      break;
    }
    case StressClass::data_limit: {
      instance.inputs = lifetime_inputs(draw, false);
      // The decay constants spread around the paper's over a factor of 3 each way.
      instance.law.repeat_decay_tokens =
          kMuennighoffRepeatDecayTokens * draw.log_uniform(1.0 / 3.0, 3.0);
      instance.law.repeat_decay_params =
          kMuennighoffRepeatDecayParams * draw.log_uniform(1.0 / 3.0, 3.0);
      lifecycle_question(draw, instance, static_cast<int>(draw.below(3)));
      // A stock from a twentieth of the tokens the question's optimum uses with unlimited data
      // (its 1-D reduction) to twice them: from ~20 epochs to none. Far beyond, every repeat is
      // worth nothing to rounding (exp(-R_D / R_D*) below 1e-15) and the loss is flat at its
      // floor: no optimum to check. A question without an unlimited answer takes 1e12.
      double tokens = 1e12;
      try {
        const QuestionSetup setup = question_setup(instance.inputs, instance.law, instance.problem);
        const LifetimePlan unlimited = lifecycle_reference(setup.terms(), setup.question());
        if (unlimited.solve.converged()) tokens = std::min(1e28, unlimited.pretrain_tokens);
      } catch (const InputError&) {
      }
      instance.inputs.data.unique_tokens = tokens * draw.log_uniform(0.05, 2.0);
      // One in four caps the tokens too, from a third to three times the stock.
      if (draw.chance(0.25)) {
        instance.problem.max_pretrain_tokens =
            std::min(1e30, *instance.inputs.data.unique_tokens * draw.log_uniform(1.0 / 3.0, 3.0));
      }
      break;
    }
    case StressClass::fleet: {
      instance.inputs = lifetime_inputs(draw, true, true);
      ServingSetup& serving = instance.inputs.serving;
      serving.chip.node_chips = std::pow(2.0, static_cast<double>(draw.below(4)));  // 1 to 8
      serving.replica_chosen = true;
      // From the nodes the drawn chips fill (which hold the smallest model and a sequence) to
      // up to 8 times as many, at most 32: several sizes to choose among, the larger holding
      // larger models.
      const double fewest_nodes = std::ceil(serving.chips / serving.chip.node_chips);
      serving.max_replica_nodes = std::min(
          32.0, std::max(fewest_nodes, std::round(fewest_nodes * draw.log_uniform(1.0, 8.0))));
      InferenceDemand& demand = instance.inputs.demand;
      if (draw.chance(0.8)) {
        // The same lifetime tokens as a rate over a day to three years (a demand is tokens, or
        // a rate and a duration): from a fraction of one replica's batch to many replicas.
        demand.duration_seconds = draw.log_uniform(86400.0, 9.5e7);
        demand.tokens_per_second = *demand.tokens / *demand.duration_seconds;
        demand.tokens.reset();
      }
      if (draw.chance(0.5)) serving.peak_to_mean = draw.uniform(1.0, 3.0);
      serving.elastic = draw.chance(0.2);
      // No RL: its rollouts take their own cheapest size (elastic), which the reference's
      // sizes given in turn would fix to the serving one.
      instance.inputs.rl = RlSetup{};
      lifecycle_question(draw, instance, 1 + static_cast<int>(draw.below(2)));
      break;
    }
    case StressClass::experts: {
      // The joint preset's coefficients spread by a third each way (a, b) and 0.03 (c), its
      // exponents kept (their signs and the saturation are what the law is); evaluated dense.
      JointLossLaw joint = *find_joint_loss_law_preset("ludziejewski2025");
      joint.name = "stress-joint";
      joint.a *= draw.log_uniform(0.75, 1.33);
      joint.b *= draw.log_uniform(0.75, 1.33);
      joint.E += kSpreadE * draw.normal();
      instance.law_preset = "ludziejewski2025";
      instance.law = law_at_experts(joint, 1.0);
      instance.inputs = lifetime_inputs(draw, false, draw.chance(0.5));
      instance.inputs.rl = RlSetup{};  // RL tokens fixed at none: the serving's choice alone
      ProblemSpec& problem = instance.problem;
      problem.choose_experts = true;
      problem.min_experts = draw.chance(0.7) ? 1.0 : draw.log_uniform(1.0, 8.0);
      problem.max_experts = draw.chance(0.1) ? *problem.min_experts
                                             : *problem.min_experts * draw.log_uniform(1.5, 64.0);
      lifecycle_question(draw, instance, static_cast<int>(draw.below(3)));
      break;
    }
  }
  return instance;
}

}  // namespace scaleopt
