#pragma once
// How a lifecycle cost is shown: a table of phases (pretraining, RL, prefill, decode) with
// FLOPs, GPU-hours, dollars and shares, the setups behind them and the assumptions taken.

#include <ostream>
#include "scaleopt/report/json_fwd.hpp"

#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

// Keys: scenario, status, message, model, pretrain, rl, inference (with prefill and decode),
// total, assumptions; every phase has flops, gpu_hours, usd and share.
Json cost_json(const Scenario& scenario, const PhaseCosts& cost);

std::string cost_text(const Scenario& scenario, const PhaseCosts& cost);

}  // namespace scaleopt::report
