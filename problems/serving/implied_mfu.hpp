#pragma once
// The decode efficiency the roofline allows: the model FLOPs of one decoded token over what the
// replica's chips could compute in the time the token costs (achieved over peak FLOP/s while
// decoding), at the roofline's best batch. A scenario that prices inference by fixed MFUs can be
// checked against it (report/lifecycle_output.hpp warns when the two differ by more than 2x), and
// a roofline-priced one reports it (`decode_mfu_implied`).

#include <optional>
#include <string>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"

namespace scaleopt {

struct ImpliedDecodeMfu {
  double decode_mfu = 0.0;  // achieved / peak FLOP/s of the replica while decoding
  double batch = 0.0;       // the roofline's best batch
  std::string bound;        // what sets the batch (problems/serving/serving_plan.hpp)
};

// At `active_params` (the architecture scaled to it) and the setup's context, whatever the
// setup's pricing. nullopt with `why` set when the roofline cannot serve the model (weights or
// one sequence beyond HBM, no batch meeting the latency target).
std::optional<ImpliedDecodeMfu> implied_decode_mfu(const Architecture& architecture,
                                                   const ServingSetup& serving,
                                                   double active_params, std::string& why);

}  // namespace scaleopt
