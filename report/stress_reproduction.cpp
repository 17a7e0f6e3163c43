#include "scaleopt/report/stress_reproduction.hpp"

#include <cstdio>

#include <sstream>
#include "scaleopt/costmodel/joint_loss_law.hpp"

namespace scaleopt::report {
namespace {

// Shortest text that reads back as the same double ("%.17g" always does).
std::string exact(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string quoted(std::string_view text) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "\"" + string.
  std::string result(1, '"');
  result.append(text);
  result += '"';
  return result;
}

void law_table(std::ostream& out, const LossLaw& law) {
  if (law.joint) {
    // A joint dense/MoE law: its own coefficients (the reduction follows from them).
    const JointLossLaw& joint = *law.joint;
    out << "[law]\nname = " << quoted(law.name) << "\nsource = " << quoted(law.source)
        << "\nE = " << exact(joint.E) << "\n\n[law.joint]\na = " << exact(joint.a)
        << "\nb = " << exact(joint.b) << "\nalpha = " << exact(joint.alpha)
        << "\nbeta = " << exact(joint.beta) << "\ndelta = " << exact(joint.delta)
        << "\ngamma = " << exact(joint.gamma) << "\nomega = " << exact(joint.omega)
        << "\nzeta = " << exact(joint.zeta) << "\nexperts_start = " << exact(joint.experts_start)
        << "\nexperts_max = " << exact(joint.experts_max) << "\n";
    return;
  }
  out << "[law]\nname = " << quoted(law.name) << "\nsource = " << quoted(law.source)
      << "\nE = " << exact(law.E) << "\nA = " << exact(law.A) << "\nB = " << exact(law.B)
      << "\nalpha = " << exact(law.alpha) << "\nbeta = " << exact(law.beta) << "\n";
  if (law.repeat_decay_tokens != kMuennighoffRepeatDecayTokens ||
      law.repeat_decay_params != kMuennighoffRepeatDecayParams) {
    out << "repeat_decay_tokens = " << exact(law.repeat_decay_tokens)
        << "\nrepeat_decay_params = " << exact(law.repeat_decay_params) << "\n";
  }
}

void chip_table(std::ostream& out, const Hardware& chip) {
  out << "\n[hardware." << chip.id << "]\nname = " << quoted(chip.name)
      << "\nsource = " << quoted(chip.source) << "\nbf16 = " << exact(*chip.bf16_flop_per_second)
      << "\nhbm_bandwidth = " << exact(chip.hbm_bytes_per_second)
      << "\nhbm = " << exact(chip.hbm_bytes) << "\n";
  if (chip.node_chips != Hardware{}.node_chips) {
    out << "node_chips = " << exact(chip.node_chips) << "\n";
  }
}

void setups(std::ostream& out, const LifetimeInputs& inputs) {
  chip_table(out, inputs.training.chip);
  chip_table(out, inputs.serving.chip);
  const Architecture& architecture = inputs.architecture;
  if (architecture.has_shape()) {
    out << "\n[architecture]\npreset = " << quoted(architecture.name) << "\n";
  } else if (architecture.total_params) {
    out << "\n[architecture]\ntotal_params = " << exact(*architecture.total_params)
        << "\nactive_params = " << exact(*architecture.active_params)
        << "\nkv_bytes_per_token = " << exact(*architecture.kv_bytes_per_token) << "\n";
  }
  const TrainingSetup& training = inputs.training;
  out << "\n[training]\nhardware = " << quoted(training.chip.id)
      << "\nprecision = " << quoted(to_string(training.precision))
      << "\nmfu = " << exact(training.mfu)
      << "\nusd_per_chip_hour = " << exact(*training.usd_per_chip_hour) << "\n";
  const ServingSetup& serving = inputs.serving;
  out << "\n[inference]\nhardware = " << quoted(serving.chip.id) << "\n";
  // A chosen replica has no chips: the scenario chooses it when they are absent.
  if (serving.replica_chosen) {
    out << "max_replica_nodes = " << exact(serving.max_replica_nodes);
  } else {
    out << "chips = " << exact(serving.chips);
  }
  out << "\nprecision = " << quoted(to_string(serving.precision))
      << "\nkv_precision = " << quoted(to_string(serving.kv_precision))
      << "\ncontext = " << exact(serving.context_tokens)
      << "\nusd_per_chip_hour = " << exact(*serving.usd_per_chip_hour)
      << "\npricing = " << quoted(to_string(serving.pricing)) << "\n";
  if (serving.pricing == InferencePricing::mfu) {
    out << "prefill_mfu = " << exact(serving.prefill_mfu)
        << "\ndecode_mfu = " << exact(*serving.decode_mfu) << "\n";
  } else {
    out << "compute_efficiency = " << exact(serving.compute_efficiency)
        << "\nbandwidth_efficiency = " << exact(serving.bandwidth_efficiency) << "\n";
    if (serving.batch) out << "batch = " << exact(*serving.batch) << "\n";
    if (serving.latency_per_token_seconds) {
      out << "latency_per_token = " << exact(*serving.latency_per_token_seconds) << "\n";
    }
  }
  const InferenceDemand& demand = inputs.demand;
  if (demand.tokens) out << "tokens = " << exact(*demand.tokens) << "\n";
  if (demand.tokens_per_second) out << "rate = " << exact(*demand.tokens_per_second) << "\n";
  if (demand.duration_seconds) out << "duration = " << exact(*demand.duration_seconds) << "\n";
  if (serving.peak_to_mean != 1.0) out << "peak_to_mean = " << exact(serving.peak_to_mean) << "\n";
  if (serving.elastic) out << "elastic = true\n";
  out << "output_fraction = " << exact(*inputs.demand.output_fraction) << "\n";
  const RlSetup& rl = inputs.rl;
  if (rl.rollout_tokens > 0.0 || rl.context_tokens) out << "\n[rl]\n";
  if (rl.rollout_tokens > 0.0) {
    out << "rollout_tokens = " << exact(rl.rollout_tokens)
        << "\ntrained_fraction = " << exact(rl.trained_fraction)
        << "\nextra_forward_passes = " << exact(rl.extra_forward_passes) << "\n";
  }
  // The RL context bounds the largest model served even without rollouts.
  if (rl.context_tokens) out << "context = " << exact(*rl.context_tokens) << "\n";
  if (rl.returns) {
    out << "\n[rl.returns]\nmax_gain = " << exact(rl.returns->max_gain)
        << "\nhalf_ratio = " << exact(rl.returns->half_ratio)
        << "\nsteepness = " << exact(rl.returns->steepness) << "\n";
  }
}

void problem_table(std::ostream& out, const ProblemSpec& problem) {
  out << "\n[problem]\nkind = " << quoted(to_string(problem.kind)) << "\n";
  if (problem.target_loss) out << "target_loss = " << exact(*problem.target_loss) << "\n";
  if (problem.budget_usd) out << "budget_usd = " << exact(*problem.budget_usd) << "\n";
  if (problem.budget_gpu_hours) {
    out << "budget_gpu_hours = " << exact(*problem.budget_gpu_hours) << "\n";
  }
  if (problem.params) out << "params = " << exact(*problem.params) << "\n";
  if (problem.choose_experts) {
    out << "min_experts = " << exact(problem.min_experts.value_or(1.0)) << "\n";
    if (problem.max_experts) out << "max_experts = " << exact(*problem.max_experts) << "\n";
  }
  if (problem.max_pretrain_tokens) {
    out << "max_pretrain_tokens = " << exact(*problem.max_pretrain_tokens) << "\n";
  }
  if (problem.kind == ProblemKind::equal_cost) {
    out << "\n[problem.shares]\npretrain = " << exact(problem.shares.pretrain)
        << "\nrl = " << exact(problem.shares.rl)
        << "\ninference = " << exact(problem.shares.inference)
        << "\nunit = " << quoted(to_string(problem.shares_unit)) << "\n";
  }
}

}  // namespace

std::string stress_reproduction(const StressInstance& instance) {
  std::ostringstream out;
  out << "# scaleopt selftest --seed " << instance.seed << ": instance " << instance.index << " ("
      << to_string(instance.kind) << "), law spread around " << instance.law_preset << "\n";
  const LossLaw& law = instance.law;
  const std::string law_flags = " --E " + exact(law.E) + " --A " + exact(law.A) + " --B " +
                                exact(law.B) + " --alpha " + exact(law.alpha) + " --beta " +
                                exact(law.beta);
  switch (instance.kind) {
    case StressClass::compute_at_budget:
      out << "# reproduce: scaleopt optimal --compute " << exact(instance.compute_flops)
          << law_flags << "\n";
      return out.str();
    case StressClass::compute_at_loss:
      out << "# reproduce: scaleopt optimal --loss " << exact(instance.target_loss) << law_flags
          << "\n";
      return out.str();
    default:
      break;
  }
  out << "# reproduce: save this as instance.toml, then: scaleopt solve instance.toml\n";
  law_table(out, law);
  setups(out, instance.inputs);
  if (instance.inputs.data.unique_tokens) {
    out << "\n[data]\nunique_tokens = " << exact(*instance.inputs.data.unique_tokens) << "\n";
  }
  problem_table(out, instance.problem);
  return out.str();
}

}  // namespace scaleopt::report
