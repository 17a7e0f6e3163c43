#include "scaleopt/problems/lifecycle/expert_choice.hpp"

#include <sstream>
#include <string>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void ExpertChoice::validate(std::string_view prefix) const {
  // E counts experts of a top-1 layer: 1 is dense; a million experts of FFN size is far past
  // any model built, and keeps N m(E) finite for every N the search allows.
  constexpr double kMostExperts = 1e6;
  if (!(min_experts >= 1.0 && min_experts <= kMostExperts)) {
    throw field_error(
        qualified_field(prefix, "min_experts"),
        "must be a number of experts in [1, 1e6] (1: dense), got " + std::to_string(min_experts));
  }
  if (!(max_experts >= min_experts && max_experts <= kMostExperts)) {
    throw field_error(qualified_field(prefix, "max_experts"),
                      "must be in [min_experts, 1e6], got " + std::to_string(max_experts) +
                          " with min_experts " + std::to_string(min_experts));
  }
  if (!(expert_share > 0.0 && expert_share < 1.0)) {
    throw field_error(qualified_field(prefix, "expert_share"),
                      "the routed FFN's share of the active parameters must be in (0, 1), got " +
                          std::to_string(expert_share));
  }
}

ExpertShare expert_share_of(const Architecture& architecture) {
  constexpr double kGatedFfnMatrices = 3.0;  // SwiGLU: gate, up and down projections
  ExpertShare share;
  std::ostringstream source;
  source.precision(4);
  if (architecture.has_shape() && architecture.has_experts() &&
      architecture.experts_per_token > 0.0) {
    const double experts = architecture.routed_experts / architecture.experts_per_token;
    const double expansion = architecture.total_param_count() / architecture.active_param_count();
    const double f = (expansion - 1.0) / (experts - 1.0);
    if (f > 0.0 && f < 1.0) {
      share.share = f;
      source << "the architecture's: its " << expansion << "x total over active at " << experts
             << " experts (routed / per token)";
      share.source = source.str();
      return share;
    }
  } else if (architecture.has_shape() && !architecture.has_experts() &&
             architecture.ffn_dim > 0.0) {
    const double f = architecture.layers * kGatedFfnMatrices * architecture.d_model *
                     architecture.ffn_dim / architecture.active_param_count();
    if (f > 0.0 && f < 1.0) {
      share.share = f;
      source << "the architecture's FFN share of its parameters";
      share.source = source.str();
      return share;
    }
  }
  share.source = "assumed: the FFN's share of a standard transformer block (8 d^2 of 12 d^2)";
  return share;
}

}  // namespace scaleopt
