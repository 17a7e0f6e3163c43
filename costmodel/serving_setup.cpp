#include "scaleopt/costmodel/serving_setup.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {

std::string_view to_string(InferencePricing pricing) {
  return pricing == InferencePricing::mfu ? "mfu" : "roofline";
}

InferencePricing parse_inference_pricing(std::string_view text) {
  if (text == "roofline") return InferencePricing::roofline;
  if (text == "mfu") return InferencePricing::mfu;
  throw InputError("unknown pricing " + quoted_input(text) + ": expected roofline or mfu");
}

double ServingSetup::price_per_chip_hour(std::string_view prefix) const {
  return chip_hour_price(usd_per_chip_hour, chip, prefix);
}

double ServingSetup::flop_per_byte() const {
  return chip.peak_flop_per_second(precision) * compute_efficiency /
         (chip.hbm_bytes_per_second * bandwidth_efficiency);
}

void ServingSetup::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, double value, std::string_view rule) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!(chips >= 1.0 && std::isfinite(chips))) fail("chips", chips, "must be >= 1");
  if (!(max_replica_nodes >= 1.0 && max_replica_nodes <= 1e6 &&
        max_replica_nodes == std::floor(max_replica_nodes))) {
    fail("max_replica_nodes", max_replica_nodes, "must be a whole number of nodes in [1, 1e6]");
  }
  if (!(peak_to_mean >= 1.0 && peak_to_mean <= 1e6)) {
    fail("peak_to_mean", peak_to_mean, "must be in [1, 1e6] (the peak over the mean demand)");
  }
  if (!(context_tokens >= 0.0 && std::isfinite(context_tokens))) {
    fail("context", context_tokens, "must be >= 0");
  }
  if (batch && !(*batch >= 1.0 && std::isfinite(*batch))) fail("batch", *batch, "must be >= 1");
  if (latency_per_token_seconds &&
      !(*latency_per_token_seconds > 0.0 && std::isfinite(*latency_per_token_seconds))) {
    fail("latency_per_token", *latency_per_token_seconds, "must be positive");
  }
  if (routed_expert_bytes_per_param &&
      !(*routed_expert_bytes_per_param > 0.0 && *routed_expert_bytes_per_param <= 4.0)) {
    fail("routed_expert_bytes_per_param", *routed_expert_bytes_per_param, "must be in (0, 4]");
  }
  if (prefill_tokens_per_pass &&
      !(*prefill_tokens_per_pass >= 1.0 && std::isfinite(*prefill_tokens_per_pass))) {
    fail("prefill_tokens_per_pass", *prefill_tokens_per_pass, "must be >= 1");
  }
  if (!(compute_efficiency > 0.0 && compute_efficiency <= 1.0)) {
    fail("compute_efficiency", compute_efficiency, "must be in (0, 1]");
  }
  if (!(bandwidth_efficiency > 0.0 && bandwidth_efficiency <= 1.0)) {
    fail("bandwidth_efficiency", bandwidth_efficiency, "must be in (0, 1]");
  }
  if (usd_per_chip_hour && !(*usd_per_chip_hour >= 0.0 && std::isfinite(*usd_per_chip_hour))) {
    fail("usd_per_chip_hour", *usd_per_chip_hour, "must be >= 0");
  }
  if (!(prefill_mfu > 0.0 && prefill_mfu <= 1.0)) {
    fail("prefill_mfu", prefill_mfu, "must be in (0, 1]");
  }
  if (decode_mfu && !(*decode_mfu > 0.0 && *decode_mfu <= 1.0)) {
    fail("decode_mfu", *decode_mfu, "must be in (0, 1]");
  }
  if (pricing == InferencePricing::mfu && !decode_mfu) {
    throw field_error(qualified_field(prefix, "decode_mfu"),
                      "required when pricing = \"mfu\": the share of peak FLOP/s decode reaches "
                      "(it decides the answer, so it has no default)");
  }
  if (!chip.supports(precision)) {
    try {
      chip.peak_flop_per_second(precision);
    } catch (const InputError& e) {
      throw field_error(qualified_field(prefix, "precision"), e.what());
    }
  }
}

}  // namespace scaleopt
