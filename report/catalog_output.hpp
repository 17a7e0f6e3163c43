#pragma once
// The built-in catalogs as `--json` shows them (scaleopt hardware, laws, models): one object
// each, the list under one key, since every answer is an object with "schema_version".

#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// The compute at which `scaleopt laws` states the tokens per parameter a law implies.
inline constexpr double kReferenceComputeFlops = 1e24;

// D/N of the law's compute-optimal allocation at kReferenceComputeFlops.
double tokens_per_param_at_reference(const LossLaw& law);

// {"schema_version", "hardware": [{id, name, bf16_flop_per_second, fp8_flop_per_second,
// int8_op_per_second (null: the chip has none), hbm_bytes_per_second, hbm_bytes, usd_per_hour
// (null: no price), price_is_assumption, price_note, source}]}
Json hardware_json(const std::vector<Hardware>& chips);

// The form of a joint dense/MoE law, as `scaleopt laws` prints it.
inline constexpr const char* kJointLawFormula =
    "L = a E^^delta N^(alpha + gamma ln E^) + b E^^omega D^(beta + zeta ln E^) + E";

// {"schema_version", "laws": [law_json + tokens_per_param_at_1e24_flops], "joint_laws": [{name,
// form ("joint"), formula, E, a, b, alpha, beta, delta, gamma, omega, zeta, experts_start,
// experts_max, source, fitted_range (fitted_range_json; null when unknown)}]}
Json laws_json(const std::vector<LossLaw>& laws, const std::vector<JointLossLaw>& joint_laws);

// {"schema_version", "models": [{name, total_params, active_params, layers, attention (null:
// KV bytes given, no shape), shape (each dimension under its config.json name; null: no shape),
// kv_bytes_per_token_bf16, kv_bytes_per_token_fp8, shipped, sparse_top_k, layer_pattern,
// source}]}
Json models_json(const std::vector<Architecture>& models);

}  // namespace scaleopt::report
