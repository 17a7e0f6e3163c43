#include "scaleopt/scenario/scenario_keys.hpp"

#include <algorithm>
#include <sstream>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/toml_reading.hpp"

namespace scaleopt {
namespace {

using Get = std::optional<double> (*)(const Scenario&);
using Set = void (*)(Scenario&, double);
using SetText = void (*)(Scenario&, const std::string&, const KeyContext&);
using SetBool = void (*)(Scenario&, bool);

ScenarioKey number(std::string_view path, Unit unit, Range range, std::string_view default_text,
                   bool assumed, std::string_view doc, Get get, Set set) {
  return {path, KeyKind::number, unit,    range, default_text, assumed, doc, get,
          set,  nullptr,         nullptr, false};
}

ScenarioKey text(std::string_view path, std::string_view default_text, bool assumed,
                 std::string_view doc, SetText set_text) {
  return {path, KeyKind::text, Unit::number, {},       default_text, assumed,
          doc,  nullptr,       nullptr,      set_text, nullptr,      false};
}

ScenarioKey boolean(std::string_view path, std::string_view default_text, std::string_view doc,
                    SetBool set_bool) {
  return {path, KeyKind::boolean, Unit::number, {},      default_text, false,
          doc,  nullptr,          nullptr,      nullptr, set_bool,     false};
}

// A [law] key: read by scenario/law_file.hpp; numbers are accessible on the typed law.
ScenarioKey law_key(std::string_view path, KeyKind kind, std::string_view default_text,
                    std::string_view doc, Get get = nullptr, Set set = nullptr) {
  return {path, kind, Unit::number, kPositive, default_text, false,
          doc,  get,  set,          nullptr,   nullptr,      true};
}

LossLaw& law_of(Scenario& s, std::string_view path) {
  if (!s.law) throw field_error(std::string(path), "the scenario has no [law] table");
  s.law->name = "custom";
  return *s.law;
}

std::optional<double> law_value(const Scenario& s, double LossLaw::*field) {
  if (!s.law) return std::nullopt;
  return (*s.law).*field;
}

// The scenario's joint law, for a key that only a joint law has.
const LossLaw& joint_law_of(const Scenario& s, std::string_view path) {
  if (!s.law || !s.law->joint) {
    throw field_error(std::string(path),
                      "the scenario's law is not a joint dense/MoE law (law.preset = "
                      "\"ludziejewski2025\", or a [law.joint] table)");
  }
  return *s.law;
}

template <std::size_t I>
std::optional<double> joint_value(const Scenario& s) {
  if (!s.law || !s.law->joint) return std::nullopt;
  return (*s.law->joint).*kJointLawFields[I].member;
}

// Sets one number of the scenario's joint law and re-evaluates it, naming `path` in errors.
void set_joint_number(Scenario& s, const char* path, double JointLossLaw::*member, double v) {
  const LossLaw& law = joint_law_of(s, path);
  JointLossLaw joint = *law.joint;
  joint.*member = v;
  joint.name = "custom-joint";
  joint.validate("law");
  reevaluate_at_experts(*s.law, joint, law.experts.value_or(1.0), path);
}

template <std::size_t I>
void set_joint_value(Scenario& s, double v) {
  set_joint_number(s, kJointLawFields[I].key, kJointLawFields[I].member, v);
}

// A [law.joint] key: a coefficient of a joint dense/MoE law, read by scenario/law_file.hpp over
// a joint preset or file (all of them with law.E without one), and a numeric input of a
// scenario whose law is joint. The exponents keep the paper's signs, so some ranges are the
// whole line.
template <std::size_t I>
ScenarioKey joint_law_key(Range range, std::string_view doc) {
  return {kJointLawFields[I].key, KeyKind::number, Unit::number, range,
          "the joint preset's",   false,           doc,          joint_value<I>,
          set_joint_value<I>,     nullptr,         nullptr,      true};
}

// law.A, law.B, law.alpha and law.beta of a joint law are its reduction at the experts, not
// inputs of their own: the joint law's coefficients are (law.joint.*).
std::optional<double> law_value_unless_joint(const Scenario& s, double LossLaw::*field) {
  if (s.law && s.law->joint) return std::nullopt;
  return law_value(s, field);
}

LossLaw& law_of_unless_joint(Scenario& s, std::string_view path) {
  if (s.law && s.law->joint) {
    throw field_error(std::string(path),
                      "a joint dense/MoE law's coefficients are law.joint.* (this one is its "
                      "reduction at law.experts)");
  }
  return law_of(s, path);
}

// A [pricing] key: read by scenario/price_list_file.hpp, listed here for docs and --set.
ScenarioKey pricing_key(std::string_view path, KeyKind kind, Unit unit,
                        std::string_view default_text, std::string_view doc) {
  return {path, kind,    unit,    kNonNegative, default_text, false,
          doc,  nullptr, nullptr, nullptr,      nullptr,      true};
}

// A shape field as a numeric input: 0 means "not used" (no experts, no sparse attention, no
// shape at all for direct totals), which has no value to vary.
std::optional<double> shape_value(double value) {
  return value != 0.0 ? std::optional<double>(value) : std::nullopt;
}

// Counts of things that come whole: the shape of a model (not its parameter totals, sums over
// millions, nor bytes per token), the chips of a replica, a cluster or a fleet, a batch.
bool whole_number_key(std::string_view path) {
  static constexpr std::string_view kWhole[] = {"architecture.layers",
                                                "architecture.d_model",
                                                "architecture.vocab",
                                                "architecture.heads",
                                                "architecture.kv_heads",
                                                "architecture.head_dim",
                                                "architecture.v_head_dim",
                                                "architecture.kv_latent_dim",
                                                "architecture.rope_dim",
                                                "architecture.q_latent_dim",
                                                "architecture.kv_cache_layers",
                                                "architecture.ffn_dim",
                                                "architecture.dense_ffn_layers",
                                                "architecture.routed_experts",
                                                "architecture.shared_experts",
                                                "architecture.experts_per_token",
                                                "architecture.expert_ffn_dim",
                                                "architecture.sparse_top_k",
                                                "architecture.indexer_heads",
                                                "architecture.indexer_head_dim",
                                                "architecture.output_groups",
                                                "architecture.output_latent_dim",
                                                "training.chips",
                                                "training.max_chips",
                                                "inference.chips",
                                                "inference.max_replica_nodes",
                                                "inference.batch",
                                                "problem.fleet_chips"};
  return std::find(std::begin(kWhole), std::end(kWhole), path) != std::end(kWhole);
}

// The scenario's RL returns, created with the defaults when the first of its keys is read.
RlReturns& rl_returns_of(Scenario& s) {
  if (!s.rl.returns) s.rl.returns = RlReturns{};
  return *s.rl.returns;
}

std::vector<ScenarioKey> make_keys() {
  return {
      // [law]
      law_key("law.preset", KeyKind::text, "none",
              "Loss-law preset: hoffmann2022, hoffmann2022-a3, sardana2024, epoch2024 or "
              "muennighoff2023; the "
              "coefficients below "
              "override it (without a preset or a file all five are required); or the joint "
              "dense/MoE law ludziejewski2025 (with law.experts; its coefficients are in "
              "[law.joint], docs/model.md)"),
      law_key(
          "law.experts", KeyKind::number,
          "the architecture's routed experts / experts per token, else 1",
          "A joint dense/MoE law only: the experts (Ludziejewski et al.'s E, 1 = dense) at "
          "which it is evaluated",
          [](const Scenario& s) {
            // Chosen by the question, the experts are no input of it.
            return s.law && s.law->joint && !s.problem.choose_experts ? s.law->experts
                                                                      : std::optional<double>();
          },
          [](Scenario& s, double v) {
            // Held here: the re-evaluation replaces the law that owns it.
            const std::shared_ptr<const JointLossLaw> joint = joint_law_of(s, "law.experts").joint;
            reevaluate_at_experts(*s.law, *joint, v, "law.experts");
            s.problem.choose_experts = false;  // given: a sweep or a draw of it fixes them
          }),
      law_key("law.file", KeyKind::text, "none",
              "A TOML file whose [law] table is the law (e.g. from 'scaleopt fit --emit-law'), "
              "relative to the scenario's directory; the coefficients here override it, as a "
              "preset's (not with law.preset; --law-file replaces the whole [law])"),
      law_key("law.name", KeyKind::text, "the preset's, or \"custom\"", "Name shown in output"),
      law_key("law.source", KeyKind::text, "the preset's", "Where the coefficients come from"),
      law_key(
          "law.E", KeyKind::number, "the preset's", "Irreducible loss E (nats per token)",
          [](const Scenario& s) { return law_value(s, &LossLaw::E); },
          [](Scenario& s, double v) {
            if (s.law && s.law->joint) return set_joint_number(s, "law.E", &JointLossLaw::E, v);
            law_of(s, "law.E").E = v;
          }),
      law_key(
          "law.A", KeyKind::number, "the preset's", "Parameter-term coefficient A",
          [](const Scenario& s) { return law_value_unless_joint(s, &LossLaw::A); },
          [](Scenario& s, double v) { law_of_unless_joint(s, "law.A").A = v; }),
      law_key(
          "law.B", KeyKind::number, "the preset's", "Data-term coefficient B",
          [](const Scenario& s) { return law_value_unless_joint(s, &LossLaw::B); },
          [](Scenario& s, double v) { law_of_unless_joint(s, "law.B").B = v; }),
      law_key(
          "law.alpha", KeyKind::number, "the preset's", "Parameter exponent alpha",
          [](const Scenario& s) { return law_value_unless_joint(s, &LossLaw::alpha); },
          [](Scenario& s, double v) { law_of_unless_joint(s, "law.alpha").alpha = v; }),
      law_key(
          "law.beta", KeyKind::number, "the preset's", "Data exponent beta",
          [](const Scenario& s) { return law_value_unless_joint(s, &LossLaw::beta); },
          [](Scenario& s, double v) { law_of_unless_joint(s, "law.beta").beta = v; }),
      joint_law_key<0>(
          kPositive,
          "Joint dense/MoE law: parameter-term coefficient a (Ludziejewski et al. 2025, "
          "Eq. 6; the irreducible loss is law.E)"),
      joint_law_key<1>(kPositive, "Joint law: data-term coefficient b"),
      joint_law_key<2>(
          Range{},
          "Joint law: parameter exponent alpha at E^ = 1 (negative, as the paper signs "
          "it)"),
      joint_law_key<3>(Range{},
                       "Joint law: data exponent beta at E^ = 1 (negative, as the paper signs it)"),
      joint_law_key<4>(Range{}, "Joint law: power of E^ in the parameter term's coefficient"),
      joint_law_key<5>(Range{}, "Joint law: change of the parameter exponent per unit of ln E^"),
      joint_law_key<6>(Range{}, "Joint law: power of E^ in the data term's coefficient"),
      joint_law_key<7>(Range{}, "Joint law: change of the data exponent per unit of ln E^"),
      joint_law_key<8>(kPositive,
                       "Joint law: E^ of a dense model, E_start of Eq. 4 (below experts_max)"),
      joint_law_key<9>(kPositive, "Joint law: the limit of E^ as the experts grow, E_max of Eq. 4"),
      law_key(
          "law.repeat_decay_tokens", KeyKind::number, "15.387756 (Muennighoff et al. 2023)",
          "Repeated data: R_D*, the repetitions of a token at which its worth has decayed by "
          "1 - 1/e (used only with data.unique_tokens)",
          [](const Scenario& s) {
            return s.data.unique_tokens ? law_value(s, &LossLaw::repeat_decay_tokens)
                                        : std::nullopt;
          },
          [](Scenario& s, double v) {
            law_of(s, "law.repeat_decay_tokens").repeat_decay_tokens = v;
          }),
      law_key(
          "law.repeat_decay_params", KeyKind::number, "5.309743 (Muennighoff et al. 2023)",
          "Repeated data: R_N*, the same for parameters beyond what the unique tokens can feed "
          "(used only with data.unique_tokens)",
          [](const Scenario& s) {
            return s.data.unique_tokens ? law_value(s, &LossLaw::repeat_decay_params)
                                        : std::nullopt;
          },
          [](Scenario& s, double v) {
            law_of(s, "law.repeat_decay_params").repeat_decay_params = v;
          }),

      // [architecture]: the preset first, then any field overrides it.
      text("architecture.preset", "none", false,
           "Model preset: llama3-70b, llama3-405b, deepseek-v3, deepseek-v3.2, deepseek-v4-pro, "
           "deepseek-v4-flash, frontier-100b "
           "(see 'scaleopt models'); the keys below override its fields",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.architecture = architecture_preset(v);
           }),
      text("architecture.name", "the preset's, or \"custom\"", false, "Name shown in output",
           [](Scenario& s, const std::string& v, const KeyContext&) { s.architecture.name = v; }),
      text("architecture.source", "the preset's", false, "Public config the shape comes from",
           [](Scenario& s, const std::string& v, const KeyContext&) { s.architecture.source = v; }),
      text("architecture.attention", "gqa", false, "Attention kind: mha, gqa, mqa or mla",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.architecture.attention = parse_attention_kind(v);
           }),
      boolean("architecture.tied_embeddings", "false",
              "Input and output embeddings share one matrix (counted once)",
              [](Scenario& s, bool v) { s.architecture.tied_embeddings = v; }),
      number(
          "architecture.layers", Unit::count, kNonNegative, "0", false, "Transformer blocks",
          [](const Scenario& s) { return shape_value(s.architecture.layers); },
          [](Scenario& s, double v) { s.architecture.layers = v; }),
      number(
          "architecture.d_model", Unit::count, kNonNegative, "0", false, "Hidden size",
          [](const Scenario& s) { return shape_value(s.architecture.d_model); },
          [](Scenario& s, double v) { s.architecture.d_model = v; }),
      number(
          "architecture.vocab", Unit::count, kNonNegative, "0", false, "Vocabulary size",
          [](const Scenario& s) { return shape_value(s.architecture.vocab); },
          [](Scenario& s, double v) { s.architecture.vocab = v; }),
      number(
          "architecture.heads", Unit::count, kNonNegative, "0", false, "Query heads",
          [](const Scenario& s) { return shape_value(s.architecture.heads); },
          [](Scenario& s, double v) { s.architecture.heads = v; }),
      number(
          "architecture.kv_heads", Unit::count, kNonNegative, "0 (mha: heads, mqa: 1)", false,
          "Key/value heads (GQA)",
          [](const Scenario& s) { return shape_value(s.architecture.kv_heads); },
          [](Scenario& s, double v) { s.architecture.kv_heads = v; }),
      number(
          "architecture.head_dim", Unit::count, kNonNegative, "0", false,
          "Per-head width of q, k, v (MLA: the q/k part without RoPE)",
          [](const Scenario& s) { return shape_value(s.architecture.head_dim); },
          [](Scenario& s, double v) { s.architecture.head_dim = v; }),
      number(
          "architecture.v_head_dim", Unit::count, kNonNegative, "0 (= head_dim)", false,
          "MLA: value head width",
          [](const Scenario& s) { return shape_value(s.architecture.v_head_dim); },
          [](Scenario& s, double v) { s.architecture.v_head_dim = v; }),
      number(
          "architecture.kv_latent_dim", Unit::count, kNonNegative, "0", false,
          "MLA: compressed KV width cached per token and layer (kv_lora_rank)",
          [](const Scenario& s) { return shape_value(s.architecture.kv_latent_dim); },
          [](Scenario& s, double v) { s.architecture.kv_latent_dim = v; }),
      number(
          "architecture.rope_dim", Unit::count, kNonNegative, "0", false,
          "MLA: decoupled RoPE key width cached per token and layer (qk_rope_head_dim); other "
          "kinds: the rotary part of head_dim (shown only)",
          [](const Scenario& s) { return shape_value(s.architecture.rope_dim); },
          [](Scenario& s, double v) { s.architecture.rope_dim = v; }),
      number(
          "architecture.q_latent_dim", Unit::count, kNonNegative, "0 (no compression)", false,
          "Query compression width (q_lora_rank)",
          [](const Scenario& s) { return shape_value(s.architecture.q_latent_dim); },
          [](Scenario& s, double v) { s.architecture.q_latent_dim = v; }),
      number(
          "architecture.kv_cache_layers", Unit::count, kNonNegative, "0 (every layer)", false,
          "Layers keeping their own KV cache (layers sharing one count once)",
          [](const Scenario& s) { return shape_value(s.architecture.kv_cache_layers); },
          [](Scenario& s, double v) { s.architecture.kv_cache_layers = v; }),
      number(
          "architecture.ffn_dim", Unit::count, kNonNegative, "0", false,
          "Dense FFN hidden size (gated: three matrices)",
          [](const Scenario& s) { return shape_value(s.architecture.ffn_dim); },
          [](Scenario& s, double v) { s.architecture.ffn_dim = v; }),
      number(
          "architecture.dense_ffn_layers", Unit::count, kNonNegative, "0", false,
          "With experts: layers that keep a dense FFN",
          [](const Scenario& s) { return shape_value(s.architecture.dense_ffn_layers); },
          [](Scenario& s, double v) { s.architecture.dense_ffn_layers = v; }),
      number(
          "architecture.routed_experts", Unit::count, kNonNegative, "0 (dense)", false,
          "Routed experts per MoE layer",
          [](const Scenario& s) { return shape_value(s.architecture.routed_experts); },
          [](Scenario& s, double v) { s.architecture.routed_experts = v; }),
      number(
          "architecture.shared_experts", Unit::count, kNonNegative, "0", false,
          "Always-active experts per MoE layer",
          [](const Scenario& s) { return shape_value(s.architecture.shared_experts); },
          [](Scenario& s, double v) { s.architecture.shared_experts = v; }),
      number(
          "architecture.experts_per_token", Unit::count, kNonNegative, "0", false,
          "Routed experts each token uses",
          [](const Scenario& s) { return shape_value(s.architecture.experts_per_token); },
          [](Scenario& s, double v) { s.architecture.experts_per_token = v; }),
      number(
          "architecture.expert_ffn_dim", Unit::count, kNonNegative, "0", false,
          "Hidden size of one expert (gated)",
          [](const Scenario& s) { return shape_value(s.architecture.expert_ffn_dim); },
          [](Scenario& s, double v) { s.architecture.expert_ffn_dim = v; }),
      number(
          "architecture.sparse_top_k", Unit::count, kNonNegative, "0 (dense attention)", false,
          "Sparse attention: entries attended per decode step in top-k layers (index_topk)",
          [](const Scenario& s) { return shape_value(s.architecture.sparse_top_k); },
          [](Scenario& s, double v) { s.architecture.sparse_top_k = v; }),
      number(
          "architecture.indexer_heads", Unit::count, kNonNegative, "0", false,
          "Sparse attention: indexer heads (DeepSeek-V3.2: 64)",
          [](const Scenario& s) { return shape_value(s.architecture.indexer_heads); },
          [](Scenario& s, double v) { s.architecture.indexer_heads = v; }),
      number(
          "architecture.indexer_head_dim", Unit::count, kNonNegative, "0", false,
          "Sparse attention: indexer head width, FP8 keys cached per token and layer",
          [](const Scenario& s) { return shape_value(s.architecture.indexer_head_dim); },
          [](Scenario& s, double v) { s.architecture.indexer_head_dim = v; }),
      number(
          "architecture.indexer_bytes_per_element", Unit::number, kPositive, "1 (FP8)", false,
          "Bytes per element of the indexer's cached keys (FP4: 0.5)",
          [](const Scenario& s) {
            return s.architecture.sparse_top_k > 0.0
                       ? std::optional<double>(s.architecture.indexer_bytes_per_element)
                       : std::nullopt;
          },
          [](Scenario& s, double v) { s.architecture.indexer_bytes_per_element = v; }),
      text("architecture.layer_pattern", "every layer all (top-k with sparse_top_k)", false,
           "How each layer attends, in order: all, top-k, window:W, compressed:C, "
           "compressed:C/top-k, joined by +; N x ITEM repeats, parentheses group (docs/model.md)",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.architecture.layer_pattern = parse_layer_pattern(v);
           }),
      boolean("architecture.shared_key_value", "false",
              "Keys are the values (one vector cached per K/V head; DeepSeek-V4)",
              [](Scenario& s, bool v) { s.architecture.shared_key_value = v; }),
      number(
          "architecture.output_groups", Unit::count, kNonNegative, "0 (one output matrix)", false,
          "Groups of a low-rank output projection (DeepSeek-V4 o_groups)",
          [](const Scenario& s) { return shape_value(s.architecture.output_groups); },
          [](Scenario& s, double v) { s.architecture.output_groups = v; }),
      number(
          "architecture.output_latent_dim", Unit::count, kNonNegative, "0", false,
          "Width of each output group's latent (DeepSeek-V4 o_lora_rank)",
          [](const Scenario& s) { return shape_value(s.architecture.output_latent_dim); },
          [](Scenario& s, double v) { s.architecture.output_latent_dim = v; }),
      number(
          "architecture.total_params", Unit::count, kPositive, "from the shape", false,
          "Total parameters, given directly (overrides the shape; with a joint law it fixes the "
          "total/active ratio, else the experts are chosen)",
          [](const Scenario& s) {
            // The experts chosen, the total is a decision, no input.
            return (s.architecture.has_shape() || s.architecture.total_params) &&
                           !s.problem.choose_experts
                       ? std::optional<double>(s.architecture.total_param_count())
                       : std::nullopt;
          },
          [](Scenario& s, double v) {
            s.architecture.total_params = v;
            s.problem.choose_experts = false;  // the total/active ratio fixes the experts
          }),
      number(
          "architecture.active_params", Unit::count, kPositive, "from the shape, or total_params",
          false, "Active parameters per token (mixture of experts), given directly",
          [](const Scenario& s) {
            return s.architecture.has_shape() || s.architecture.total_params
                       ? std::optional<double>(s.architecture.active_param_count())
                       : std::nullopt;
          },
          [](Scenario& s, double v) { s.architecture.active_params = v; }),
      number(
          "architecture.kv_bytes_per_token", Unit::bytes, kPositive,
          "from the shape at inference.kv_precision", false,
          "KV-cache bytes per token over all layers, given directly (any KV precision)",
          [](const Scenario& s) { return s.architecture.kv_bytes_per_token; },
          [](Scenario& s, double v) { s.architecture.kv_bytes_per_token = v; }),

      // [training]
      text("training.hardware", "h100-sxm", true, "Chip id (catalog or [hardware.<id>])",
           [](Scenario& s, const std::string& v, const KeyContext& c) {
             s.training.chip = find_hardware(c.chips, v);
           }),
      text("training.precision", "bf16", false, "Training precision: bf16, fp8 or int8",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.training.precision = parse_precision(v);
           }),
      number(
          "training.tokens", Unit::count, kNonNegative, "0 (no pretraining)", false,
          "Pretraining tokens D",
          [](const Scenario& s) { return std::optional<double>(s.training.tokens); },
          [](Scenario& s, double v) { s.training.tokens = v; }),
      number(
          "training.mfu", Unit::number, kEfficiency, "0.4", true,
          "Model-FLOPs utilization of pretraining (Llama 3 405B: 38-43%)",
          [](const Scenario& s) { return std::optional<double>(s.training.mfu); },
          [](Scenario& s, double v) { s.training.mfu = v; }),
      number(
          "training.chips", Unit::count, kNonNegative, "none (no wall-clock)", false,
          "Chips training at once: the wall-clock time, and with training.deadline the best "
          "model this cluster trains by then",
          [](const Scenario& s) {
            return s.training.cluster_chips > 0.0 ? std::optional<double>(s.training.cluster_chips)
                                                  : std::nullopt;
          },
          [](Scenario& s, double v) { s.training.cluster_chips = v; }),
      number(
          "training.max_chips", Unit::count, kAtLeastOne, "none (the chips are free)", false,
          "The most chips the pretraining run may use (not with training.chips): with "
          "training.deadline, the deadline constrains the model at this many chips",
          [](const Scenario& s) { return s.training.max_chips; },
          [](Scenario& s, double v) { s.training.max_chips = v; }),
      number(
          "training.deadline", Unit::seconds, kPositive, "none (no deadline)", false,
          "Wall time the pretraining run must fit in, 6 N D / (chips peak MFU goodput) <= "
          "deadline: a constraint with the chips given or capped; with the chips free the "
          "answer gives the chips it needs",
          [](const Scenario& s) { return s.training.deadline_seconds; },
          [](Scenario& s, double v) { s.training.deadline_seconds = v; }),
      number(
          "training.goodput", Unit::number, kEfficiency, "1", true,
          "Fraction of the paid wall time doing useful steps (Llama 3 405B: >90% through 466 "
          "interruptions); raises the chip-hours paid and the wall time. Not below 1 with an "
          "MFU implied by published GPU-hours, which already counts the losses",
          [](const Scenario& s) { return std::optional<double>(s.training.goodput); },
          [](Scenario& s, double v) { s.training.goodput = v; }),
      number(
          "training.context", Unit::count, kPositive, "none (no attention FLOPs)", false,
          "Training sequence length: adds 3 x 2 n_layers n_ctx d_attn FLOPs per token",
          [](const Scenario& s) { return s.training.context_tokens; },
          [](Scenario& s, double v) { s.training.context_tokens = v; }),
      number(
          "training.usd_per_chip_hour", Unit::usd_per_hour, kNonNegative,
          "the chip's catalog price", false, "Price per chip-hour of training",
          [](const Scenario& s) { return s.training.usd_per_chip_hour; },
          [](Scenario& s, double v) { s.training.usd_per_chip_hour = v; }),

      // [inference]: serving
      text("inference.hardware", "h100-sxm", true, "Chip id (catalog or [hardware.<id>])",
           [](Scenario& s, const std::string& v, const KeyContext& c) {
             s.serving.chip = find_hardware(c.chips, v);
           }),
      number(
          "inference.chips", Unit::count, kAtLeastOne, "8", true,
          "Chips per serving replica (their FLOP/s, bandwidth and HBM add up); absent, it is "
          "chosen (inference.max_replica_nodes): by `roofline` and `pricing` for the model, by "
          "the lifetime questions with N",
          // Chosen, the scenario has no value for it: no input to differentiate or draw (a
          // discrete choice has no derivative), and not the same question as 8 given.
          [](const Scenario& s) {
            return s.serving.replica_chosen ? std::nullopt : std::optional<double>(s.serving.chips);
          },
          [](Scenario& s, double v) {
            s.serving.chips = v;
            s.serving.replica_chosen = false;  // given: a sweep or a draw of it fixes the size
          }),
      number(
          "inference.max_replica_nodes", Unit::count, kAtLeastOne, "32 (assumed)", false,
          "Largest replica considered when inference.chips is absent, in whole nodes of the chip "
          "(its node_chips): the size is chosen from the fewest nodes holding the weights and "
          "one sequence's KV cache up to this, the cheapest kept (ties to the smallest)",
          [](const Scenario& s) { return std::optional<double>(s.serving.max_replica_nodes); },
          [](Scenario& s, double v) { s.serving.max_replica_nodes = v; }),
      number(
          "inference.peak_to_mean", Unit::number, kAtLeastOne, "1 (assumed)", false,
          "Peak over mean demand: the serving fleet is sized for the peak and paid for the "
          "whole inference.duration (DeepSeek's published day: 278 nodes at peak over 226.75 on "
          "average, 1.23)",
          [](const Scenario& s) { return std::optional<double>(s.serving.peak_to_mean); },
          [](Scenario& s, double v) { s.serving.peak_to_mean = v; }),
      boolean("inference.elastic", "false",
              "Pay only busy chip-hours, any fraction of a replica (no idle replicas, no peak): "
              "how a demand without inference.duration is priced anyway",
              [](Scenario& s, bool v) { s.serving.elastic = v; }),
      text("inference.precision", "as the model ships (bf16 without a shipped format)", false,
           "Serving precision (peak FLOP/s and bytes per weight): bf16, fp8 or int8, one format "
           "for every weight",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.serving.precision = parse_precision(v);
           }),
      text("inference.kv_precision", "as the model ships (bf16 without a shipped format)", false,
           "KV-cache precision: bf16, fp8 or int8, every element of a row",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.serving.kv_precision = parse_precision(v);
           }),
      number(
          "inference.context", Unit::count, kNonNegative, "8K", true,
          "Tokens in each sequence's KV cache during decode (prompt length for prefill)",
          [](const Scenario& s) { return std::optional<double>(s.serving.context_tokens); },
          [](Scenario& s, double v) { s.serving.context_tokens = v; }),
      number(
          "inference.batch", Unit::count, kAtLeastOne, "the best batch", false,
          "Sequences per decode step; absent: the cheapest batch within HBM and latency",
          [](const Scenario& s) { return s.serving.batch; },
          [](Scenario& s, double v) { s.serving.batch = v; }),
      number(
          "inference.prefill_tokens_per_pass", Unit::count, kAtLeastOne, "up to the compute ridge",
          false,
          "Tokens of one prefill pass: shorter prompts share it, longer ones are split into "
          "chunks of it, each reading the cache of the chunks before it; absent: a pass is "
          "filled with prompts until it is compute-bound",
          [](const Scenario& s) { return s.serving.prefill_tokens_per_pass; },
          [](Scenario& s, double v) { s.serving.prefill_tokens_per_pass = v; }),
      number(
          "inference.latency_per_token", Unit::seconds, kPositive, "none", false,
          "Upper bound on one decode step (time per output token of a sequence)",
          [](const Scenario& s) { return s.serving.latency_per_token_seconds; },
          [](Scenario& s, double v) { s.serving.latency_per_token_seconds = v; }),
      number(
          "inference.compute_efficiency", Unit::number, kEfficiency, "1 (peak)", true,
          "Fraction of peak FLOP/s reached in prefill and decode",
          [](const Scenario& s) { return std::optional<double>(s.serving.compute_efficiency); },
          [](Scenario& s, double v) { s.serving.compute_efficiency = v; }),
      number(
          "inference.bandwidth_efficiency", Unit::number, kEfficiency, "1 (peak)", true,
          "Fraction of peak HBM bandwidth reached in decode",
          [](const Scenario& s) { return std::optional<double>(s.serving.bandwidth_efficiency); },
          [](Scenario& s, double v) { s.serving.bandwidth_efficiency = v; }),
      boolean("inference.attention_flops", "true",
              "Count attention FLOPs (q.k and values over the attended context, the indexer's "
              "scoring) in compute time, when the model has a shape; false: the talk's roofline",
              [](Scenario& s, bool v) { s.serving.attention_flops = v; }),
      number(
          "inference.usd_per_chip_hour", Unit::usd_per_hour, kNonNegative,
          "the chip's catalog price", false, "Price per chip-hour of serving",
          [](const Scenario& s) { return s.serving.usd_per_chip_hour; },
          [](Scenario& s, double v) { s.serving.usd_per_chip_hour = v; }),
      text("inference.pricing", "roofline", false,
           "How served tokens are priced: roofline (batch, context, KV cache) or mfu (fixed "
           "prefill and decode utilizations, as Sardana et al. 2024)",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.serving.pricing = parse_inference_pricing(v);
           }),
      number(
          "inference.prefill_mfu", Unit::number, kEfficiency, "0.5", false,
          "pricing = mfu: share of peak FLOP/s prefill reaches (0.5: the beyond-chinchilla "
          "code's default, listed as an assumption when used)",
          [](const Scenario& s) {
            return s.serving.pricing == InferencePricing::mfu
                       ? std::optional<double>(s.serving.prefill_mfu)
                       : std::nullopt;
          },
          [](Scenario& s, double v) { s.serving.prefill_mfu = v; }),
      number(
          "inference.decode_mfu", Unit::number, kEfficiency, "required with pricing = mfu", false,
          "pricing = mfu: share of peak FLOP/s decode reaches",
          [](const Scenario& s) { return s.serving.decode_mfu; },
          [](Scenario& s, double v) { s.serving.decode_mfu = v; }),
      text("inference.compare_models", "none", false,
           "Model presets compared by cost against context on the same chip, comma-separated "
           "(each on its own default replica: plot cost-vs-context-models, report)",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.compare_models.clear();
             std::size_t start = 0;
             while (start <= v.size()) {
               const std::size_t comma = std::min(v.find(',', start), v.size());
               std::string name = v.substr(start, comma - start);
               name.erase(0, name.find_first_not_of(" \t"));
               name.erase(name.find_last_not_of(" \t") + 1);
               if (name.empty()) throw InputError("an empty model name in " + quoted_input(v));
               (void)architecture_preset(name);  // throws naming the known presets
               s.compare_models.push_back(name);
               start = comma + 1;
             }
           }),
      // [inference]: demand
      number(
          "inference.tokens", Unit::count, kNonNegative, "none", false,
          "Lifetime inference tokens, input + output (or give rate and duration)",
          [](const Scenario& s) { return s.demand.tokens; },
          [](Scenario& s, double v) { s.demand.tokens = v; }),
      number(
          "inference.rate", Unit::per_second, kNonNegative, "none", false,
          "Tokens served per second, input + output (with duration)",
          [](const Scenario& s) { return s.demand.tokens_per_second; },
          [](Scenario& s, double v) { s.demand.tokens_per_second = v; }),
      number(
          "inference.duration", Unit::seconds, kNonNegative, "none", false,
          "How long the model serves at that rate (with rate)",
          [](const Scenario& s) { return s.demand.duration_seconds; },
          [](Scenario& s, double v) { s.demand.duration_seconds = v; }),
      number(
          "inference.output_fraction", Unit::number, kUnitInterval, "required with a demand", false,
          "Share of inference tokens that are decoded outputs (the rest are prefilled)",
          [](const Scenario& s) { return s.demand.output_fraction; },
          [](Scenario& s, double v) { s.demand.output_fraction = v; }),

      number(
          "inference.requests", Unit::count, kNonNegative, "none", false,
          "Lifetime requests (with input_tokens and output_tokens per request)",
          [](const Scenario& s) { return s.demand.requests; },
          [](Scenario& s, double v) { s.demand.requests = v; }),
      number(
          "inference.input_tokens", Unit::count, kNonNegative, "none", false,
          "Input (prefilled) tokens per request",
          [](const Scenario& s) { return s.demand.input_tokens_per_request; },
          [](Scenario& s, double v) { s.demand.input_tokens_per_request = v; }),
      number(
          "inference.output_tokens", Unit::count, kNonNegative, "none", false,
          "Output (decoded) tokens per request",
          [](const Scenario& s) { return s.demand.output_tokens_per_request; },
          [](Scenario& s, double v) { s.demand.output_tokens_per_request = v; }),

      // [rl]
      number(
          "rl.rollout_tokens", Unit::count, kNonNegative, "0 (no RL)", false,
          "Tokens generated by rollouts (decode cost)",
          [](const Scenario& s) { return std::optional<double>(s.rl.rollout_tokens); },
          [](Scenario& s, double v) { s.rl.rollout_tokens = v; }),
      number(
          "rl.trained_fraction", Unit::number, kUnitInterval, "1", true,
          "Share of rollout tokens trained on (6 N per token at the training MFU)",
          [](const Scenario& s) { return std::optional<double>(s.rl.trained_fraction); },
          [](Scenario& s, double v) { s.rl.trained_fraction = v; }),
      number(
          "rl.extra_forward_passes", Unit::number, kNonNegative, "0", false,
          "Forward passes per rollout token besides generation (reference, logprobs): prefill "
          "cost",
          [](const Scenario& s) { return std::optional<double>(s.rl.extra_forward_passes); },
          [](Scenario& s, double v) { s.rl.extra_forward_passes = v; }),
      number(
          "rl.context", Unit::count, kNonNegative, "inference.context", false,
          "Mean context of rollouts", [](const Scenario& s) { return s.rl.context_tokens; },
          [](Scenario& s, double v) { s.rl.context_tokens = v; }),
      number(
          "rl.mfu", Unit::number, kEfficiency, "training.mfu", false,
          "Model-FLOPs utilization of the policy update",
          [](const Scenario& s) { return s.rl.mfu; }, [](Scenario& s, double v) { s.rl.mfu = v; }),

      // [rl.returns]: RL tokens chosen by the optimiser (costmodel/rl_returns.hpp)
      number(
          "rl.returns.max_gain", Unit::number, kAtLeastOne, "20 (assumed with [rl.returns])", false,
          "RL returns: the compute-equivalent gain on pretraining data RL saturates at (G >= 1; "
          "docs/model.md)",
          [](const Scenario& s) {
            return s.rl.returns ? std::optional<double>(s.rl.returns->max_gain) : std::nullopt;
          },
          [](Scenario& s, double v) { rl_returns_of(s).max_gain = v; }),
      number(
          "rl.returns.half_ratio", Unit::number, kPositive, "0.005 (assumed with [rl.returns])",
          false, "RL returns: the RL / pretraining FLOPs ratio at half the gain (r_half > 0)",
          [](const Scenario& s) {
            return s.rl.returns ? std::optional<double>(s.rl.returns->half_ratio) : std::nullopt;
          },
          [](Scenario& s, double v) { rl_returns_of(s).half_ratio = v; }),
      number(
          "rl.returns.steepness", Unit::number, kPositive, "1 (assumed with [rl.returns])", false,
          "RL returns: how sharply the gain turns on around half_ratio (h > 0)",
          [](const Scenario& s) {
            return s.rl.returns ? std::optional<double>(s.rl.returns->steepness) : std::nullopt;
          },
          [](Scenario& s, double v) { rl_returns_of(s).steepness = v; }),

      // [problem]: what `scaleopt solve` answers
      text("problem.kind", "none (required by solve)", false,
           "min-lifetime-flops, min-lifetime-cost, equal-cost, max-quality or "
           "best-at-pretraining-budget (docs/model.md)",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             s.problem.kind = parse_problem_kind(v);
             s.problem_given = true;
           }),
      number(
          "problem.target_loss", Unit::number, kPositive, "none", false,
          "min-lifetime-*: the loss to reach (or give target_params)",
          [](const Scenario& s) { return s.problem.target_loss; },
          [](Scenario& s, double v) { s.problem.target_loss = v; }),
      number(
          "problem.target_params", Unit::count, kPositive, "none", false,
          "min-lifetime-*: reach the quality of the Chinchilla-style model of this size",
          [](const Scenario& s) { return s.problem.target_params; },
          [](Scenario& s, double v) { s.problem.target_params = v; }),
      number(
          "problem.params", Unit::count, kPositive, "the architecture's active parameters", false,
          "equal-cost: the model size N", [](const Scenario& s) { return s.problem.params; },
          [](Scenario& s, double v) { s.problem.params = v; }),
      number(
          "problem.shares.pretrain", Unit::number, kUnitInterval, "1/3", false,
          "equal-cost: share of the lifetime cost spent on pretraining (the talk: a third)",
          [](const Scenario& s) { return std::optional<double>(s.problem.shares.pretrain); },
          [](Scenario& s, double v) { s.problem.shares.pretrain = v; }),
      number(
          "problem.shares.rl", Unit::number, kUnitInterval, "1/3", false,
          "equal-cost: share spent on RL",
          [](const Scenario& s) { return std::optional<double>(s.problem.shares.rl); },
          [](Scenario& s, double v) { s.problem.shares.rl = v; }),
      number(
          "problem.shares.inference", Unit::number, kUnitInterval, "1/3", false,
          "equal-cost: share spent on inference (> 0: it sizes the others)",
          [](const Scenario& s) { return std::optional<double>(s.problem.shares.inference); },
          [](Scenario& s, double v) { s.problem.shares.inference = v; }),
      text("problem.shares.unit", "usd", false,
           "equal-cost: what the shares divide: usd, gpu_hours or flops",
           [](Scenario& s, const std::string& v, const KeyContext&) {
             if (v == "usd") {
               s.problem.shares_unit = CostUnit::usd;
             } else if (v == "gpu_hours") {
               s.problem.shares_unit = CostUnit::gpu_hours;
             } else if (v == "flops") {
               s.problem.shares_unit = CostUnit::flops;
             } else {
               throw InputError("unknown unit " + quoted_input(v) +
                                ": expected usd, gpu_hours or flops");
             }
           }),
      number(
          "problem.budget_usd", Unit::usd, kPositive, "none", false,
          "max-quality: lifetime budget in dollars (pretraining, RL and serving the demand)",
          [](const Scenario& s) { return s.problem.budget_usd; },
          [](Scenario& s, double v) { s.problem.budget_usd = v; }),
      number(
          "problem.budget_gpu_hours", Unit::count, kPositive, "none", false,
          "max-quality: lifetime budget in accelerator-hours",
          [](const Scenario& s) { return s.problem.budget_gpu_hours; },
          [](Scenario& s, double v) { s.problem.budget_gpu_hours = v; }),
      number(
          "problem.fleet_chips", Unit::count, kPositive, "none", false,
          "max-quality: a fleet of this many chips (with fleet_duration) as the budget",
          [](const Scenario& s) { return s.problem.fleet_chips; },
          [](Scenario& s, double v) { s.problem.fleet_chips = v; }),
      number(
          "problem.fleet_duration", Unit::seconds, kPositive, "none", false,
          "max-quality: how long the fleet is available",
          [](const Scenario& s) { return s.problem.fleet_seconds; },
          [](Scenario& s, double v) { s.problem.fleet_seconds = v; }),
      number(
          "problem.pretraining_budget_usd", Unit::usd, kPositive, "none", false,
          "best-at-pretraining-budget: dollars for pretraining alone (not max-quality's "
          "lifetime budget_usd), converted to FLOPs at the training chip's price, peak, MFU "
          "and goodput",
          [](const Scenario& s) { return s.problem.pretraining_budget_usd; },
          [](Scenario& s, double v) { s.problem.pretraining_budget_usd = v; }),
      number(
          "problem.pretraining_budget_gpu_hours", Unit::count, kPositive, "none", false,
          "best-at-pretraining-budget: accelerator-hours for pretraining alone",
          [](const Scenario& s) { return s.problem.pretraining_budget_gpu_hours; },
          [](Scenario& s, double v) { s.problem.pretraining_budget_gpu_hours = v; }),
      number(
          "problem.min_params", Unit::count, kAtLeastOne, "10M", false,
          "max-quality: smallest model considered (the laws were fitted on 44M and up)",
          [](const Scenario& s) {
            return s.problem.kind == ProblemKind::max_quality
                       ? std::optional<double>(s.problem.min_params)
                       : std::nullopt;
          },
          [](Scenario& s, double v) { s.problem.min_params = v; }),
      number(
          "problem.min_experts", Unit::number, kAtLeastOne, "1 (dense)", false,
          "min-lifetime-*, max-quality with a joint dense/MoE law: the fewest experts (the "
          "paper's E, top-1 experts of FFN size) the optimiser may choose; equal to max_experts: "
          "a fixed sparsity",
          [](const Scenario& s) {
            return s.problem.choose_experts
                       ? std::optional<double>(s.problem.min_experts.value_or(1.0))
                       : std::nullopt;
          },
          [](Scenario& s, double v) { s.problem.min_experts = v; }),
      number(
          "problem.max_experts", Unit::number, kAtLeastOne, "the largest E of the law's runs (32)",
          false,
          "min-lifetime-*, max-quality with a joint dense/MoE law: the most experts the optimiser "
          "may choose (beyond the law's runs the answer says it extrapolates)",
          [](const Scenario& s) {
            if (!s.problem.choose_experts) return std::optional<double>();
            // The bound in force: the one given, else the largest E of the law's runs.
            return std::optional<double>(s.problem.max_experts.value_or(
                default_max_experts(*s.law, s.problem.min_experts.value_or(1.0))));
          },
          [](Scenario& s, double v) { s.problem.max_experts = v; }),
      number(
          "problem.tokens_per_param", Unit::number, kPositive, "the law's frontier", false,
          "The Chinchilla-style rule answers are compared with: D = r N (e.g. 20)",
          [](const Scenario& s) { return s.problem.tokens_per_param; },
          [](Scenario& s, double v) { s.problem.tokens_per_param = v; }),
      number(
          "problem.max_pretrain_tokens", Unit::count, kAtLeastOne, "none (unlimited)", false,
          "A hard cap on the pretraining tokens D (e.g. for a lab that will not repeat data): "
          "an inequality constraint, its multiplier reported as what one more token is worth",
          [](const Scenario& s) { return s.problem.max_pretrain_tokens; },
          [](Scenario& s, double v) { s.problem.max_pretrain_tokens = v; }),
      // [data]: the stock of pretraining data (costmodel/data_repetition.hpp)
      number(
          "data.unique_tokens", Unit::count, kAtLeastOne, "none (unlimited fresh data)", false,
          "Unique pretraining tokens available, U_D: beyond them data repeats and is worth less "
          "each epoch (Muennighoff et al. 2023). Not an effective stock that already counts "
          "repeated epochs",
          [](const Scenario& s) { return s.data.unique_tokens; },
          [](Scenario& s, double v) { s.data.unique_tokens = v; }),
      // [power]: what the chips draw at the meter (costmodel/power_setup.hpp)
      number(
          "power.node_overhead", Unit::number, kNonNegative, "0.82", true,
          "The node's power beside its accelerators (CPUs, NICs, NVSwitches, fans), as a "
          "fraction of their TDP: NVIDIA DGX H100, 10.2 kW maximum for 8 x 700 W GPUs",
          [](const Scenario& s) { return std::optional<double>(s.power.node_overhead); },
          [](Scenario& s, double v) { s.power.node_overhead = v; }),
      number(
          "power.pue", Unit::number, kAtLeastOne, "1.1", true,
          "Power usage effectiveness, the facility's power over its IT power (>= 1; Google's "
          "fleet: 1.10)",
          [](const Scenario& s) { return std::optional<double>(s.power.pue); },
          [](Scenario& s, double v) { s.power.pue = v; }),
      number(
          "power.usd_per_kwh", Unit::usd, kNonNegative, "none (no energy cost)", false,
          "Price of energy per kWh at the meter: adds the energy as a cost line. For owned "
          "hardware only: a rental price per chip-hour already includes the power",
          [](const Scenario& s) { return s.power.usd_per_kwh; },
          [](Scenario& s, double v) { s.power.usd_per_kwh = v; }),
      number(
          "power.max_mw", Unit::number, kPositive, "none (no site limit)", false,
          "The site's power limit in MW at the meter: caps the training chips at what it "
          "powers (TDP x (1 + node_overhead) x pue each), so that with training.deadline it "
          "limits the model",
          [](const Scenario& s) { return s.power.max_mw; },
          [](Scenario& s, double v) { s.power.max_mw = v; }),
      boolean("power.site_includes_serving", "false",
              "Whether power.max_mw must also hold the serving fleet (its mean chips over "
              "inference.duration): an upper bound on N",
              [](Scenario& s, bool v) { s.power.site_includes_serving = v; }),
      // [pricing]: a provider's price list, read by scenario/price_list_file.hpp
      pricing_key("pricing.name", KeyKind::text, Unit::number, "none",
                  "Name of the price list shown in output (\"Gemini 2.5 Pro\")"),
      pricing_key("pricing.source", KeyKind::text, Unit::number, "none",
                  "Where and when the prices were published"),
      pricing_key("pricing.tier[].max_context", KeyKind::number, Unit::count,
                  "none (the last tier)",
                  "[[pricing.tier]]: prompts of at most this many tokens pay this tier; tiers "
                  "ascend and the last has no bound"),
      pricing_key("pricing.tier[].usd_per_mtok_input", KeyKind::number, Unit::usd, "required",
                  "[[pricing.tier]]: dollars per million input tokens"),
      pricing_key("pricing.tier[].usd_per_mtok_output", KeyKind::number, Unit::usd, "required",
                  "[[pricing.tier]]: dollars per million output tokens"),
  };
}

std::string unit_label(const ScenarioKey& key) {
  switch (key.kind) {
    case KeyKind::text:
      return "text";
    case KeyKind::boolean:
      return "true/false";
    case KeyKind::number:
      break;
  }
  switch (key.unit) {
    case Unit::number:
      return "number";
    case Unit::count:
      return "count (`70B`, `8K`)";
    case Unit::bytes:
      return "bytes (`1.7KB`)";
    case Unit::bytes_per_second:
      return "bytes/s (`3.35TB/s`)";
    case Unit::flop_per_second:
      return "FLOP/s (`989T`)";
    case Unit::usd:
      return "USD (`$1M`)";
    case Unit::usd_per_hour:
      return "USD/hour (`$2/h`)";
    case Unit::per_second:
      return "rate (`50M/s`)";
    case Unit::seconds:
      return "duration (`2mo`, `50ms`)";
    case Unit::watts:
      return "watts (`700W`, `1kW`)";
  }
  return "number";
}

std::string chip_path(std::string_view id, std::string_view field) {
  return "hardware." + std::string(id) + "." + std::string(field);
}

void check_range(std::string_view path, const Range& range, double value) {
  if (!range.contains(value)) throw field_error(std::string(path), range.refusal(value, path));
}

std::vector<const Hardware*> chips_in_use(const Scenario& s) {
  std::vector<const Hardware*> chips{&s.training.chip};
  if (s.serving.chip.id != s.training.chip.id) chips.push_back(&s.serving.chip);
  return chips;
}

}  // namespace

std::span<const ScenarioKey> scenario_keys() {
  static const std::vector<ScenarioKey> keys = make_keys();  // immutable after first use
  return keys;
}

const ScenarioKey* find_scenario_key(std::string_view path) {
  for (const ScenarioKey& key : scenario_keys()) {
    if (key.path == path) return &key;
  }
  return nullptr;
}

std::vector<std::string_view> scenario_tables() {
  std::vector<std::string_view> tables;
  auto add = [&](std::string_view table) {
    if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
  };
  for (const ScenarioKey& key : scenario_keys()) add(key.path.substr(0, key.path.find('.')));
  add("hardware");
  add("uncertainty");  // read by scenario/uncertainty_table.hpp
  return tables;
}

std::vector<NumericInput> numeric_inputs(const Scenario& s) {
  std::vector<NumericInput> inputs;
  // The power figures (TDP, node overhead, PUE) change a plan only through an energy price or
  // a site's limit; otherwise only the power reported beside it, so they are no input whose
  // elasticity to take (sweeps still set them by path).
  const bool power_matters = s.power.usd_per_kwh || s.power.max_mw;
  for (const ScenarioKey& key : scenario_keys()) {
    if (key.kind != KeyKind::number || !key.get) continue;
    if (!power_matters && (key.path == "power.node_overhead" || key.path == "power.pue")) continue;
    if (const auto value = key.get(s)) {
      inputs.push_back(
          {std::string(key.path), key.unit, *value, key.doc, whole_number_key(key.path)});
    }
  }
  for (const Hardware* chip : chips_in_use(s)) {
    for (const HardwareField& field : hardware_fields()) {
      if (field.kind != KeyKind::number) continue;
      if (!power_matters && field.key == "tdp") continue;
      if (const auto value = field.get(*chip)) {
        inputs.push_back({chip_path(chip->id, field.key), field.unit, *value, field.doc,
                          field.key == "node_chips"});
      }
    }
  }
  return inputs;
}

double numeric_input(const Scenario& s, std::string_view path) {
  for (const NumericInput& input : numeric_inputs(s)) {
    if (input.path == path) return input.value;
  }
  throw field_error(std::string(path), "not a numeric input with a value in this scenario");
}

NumericInputSetter::NumericInputSetter(const Scenario& s, std::string_view path) : path_(path) {
  if (path.starts_with("hardware.")) {
    const std::string_view rest = path.substr(9);
    const auto dot = rest.rfind('.');
    const HardwareField* field =
        dot == std::string_view::npos ? nullptr : find_hardware_field(rest.substr(dot + 1));
    if (!field || field->kind != KeyKind::number) {
      throw field_error(input_excerpt(path_), "not a numeric chip field (hardware.<id>.<field>)");
    }
    chip_id_ = std::string(rest.substr(0, dot));
    if (s.training.chip.id != chip_id_ && s.serving.chip.id != chip_id_) {
      throw field_error(input_excerpt(path_),
                        "the scenario does not use chip " + quoted_input(chip_id_) + " (it uses " +
                            s.training.chip.id + " and " + s.serving.chip.id + ")");
    }
    unit_ = field->unit;
    range_ = field->range;
    set_chip_ = field->set;
    return;
  }
  const ScenarioKey* key = find_scenario_key(path);
  if (!key || key->kind != KeyKind::number || !key->set) {
    std::vector<std::string_view> paths;
    for (const ScenarioKey& k : scenario_keys()) {
      if (k.kind == KeyKind::number) paths.push_back(k.path);
    }
    std::string message = "unknown numeric input";
    if (const auto closest = closest_key(path, paths); !closest.empty()) {
      message += " (did you mean '" + std::string(closest) + "'?)";
    }
    throw field_error(input_excerpt(path_), message);
  }
  unit_ = key->unit;
  range_ = key->range;
  set_key_ = key->set;
}

void NumericInputSetter::set(Scenario& s, double value) const {
  check_range(path_, range_, value);
  if (set_key_) {
    set_key_(s, value);
    return;
  }
  // A chip field changes every setup that uses the chip.
  for (Hardware* chip : {&s.training.chip, &s.serving.chip}) {
    if (chip->id == chip_id_) set_chip_(*chip, value);
  }
}

void set_numeric_input(Scenario& s, std::string_view path, double value) {
  NumericInputSetter(s, path).set(s, value);
}

void validate_scenario(const Scenario& s) {
  if (s.law) s.law->validate("law");
  const bool has_architecture = s.architecture.has_shape() || s.architecture.total_params ||
                                s.architecture.layers != 0.0 || s.architecture.d_model != 0.0;
  // `solve` leaves the model size free, so only its roofline pricing needs an architecture.
  if (!has_architecture && !s.problem_given) {
    throw field_error("architecture",
                      "missing: give architecture.preset or a shape (layers, "
                      "d_model, ...) or total_params");
  }
  if (has_architecture) s.architecture.validate("architecture");
  s.training.validate("training");
  s.serving.validate("inference");
  s.demand.validate("inference");
  s.rl.validate("rl");
  s.power.validate("power");
  if (s.problem_given) s.problem.validate();
}

std::string scenario_keys_markdown() {
  std::ostringstream out;
  out << "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
  auto row = [&](const std::string& path, const std::string& type, const std::string& fallback,
                 const std::string& allowed, std::string_view doc) {
    out << "| `" << path << "` | " << type << " | " << fallback << " | " << allowed << " | " << doc
        << " |\n";
  };
  for (const ScenarioKey& key : scenario_keys()) {
    std::string fallback(key.default_text);
    if (key.assumed) fallback += " (assumed)";
    const std::string allowed = key.kind == KeyKind::number ? key.range.describe() : "";
    row(std::string(key.path), unit_label(key), fallback, allowed, key.doc);
    if (key.path == "architecture.kv_bytes_per_token") {
      // The chip tables follow the architecture: same keys as costmodel/data/hardware.toml.
      for (const HardwareField& field : hardware_fields()) {
        ScenarioKey shown{};
        shown.kind = field.kind;
        shown.unit = field.unit;
        row("hardware.<id>." + std::string(field.key), unit_label(shown), "the catalog's",
            field.kind == KeyKind::number ? field.range.describe() : "", field.doc);
      }
    }
  }
  return out.str();
}

}  // namespace scaleopt
