#pragma once
// The power side of a question, made concrete once per setup (power.* keys): each chip's
// facility power per chip, or why it is unknown, the serving duration the fleet is averaged
// over, energy's price and the training chips a site's limit admits; and the power figures
// of one plan from its chip-hours (PowerAnswer of problems/question/question_solve.hpp).

#include <optional>
#include <string>

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/question/question_solve.hpp"

namespace scaleopt {

struct SitePower {
  // Watts at the meter per chip, TDP * (1 + node_overhead) * pue; absent with the reason
  // (InputError's text naming hardware.<id>.tdp) when the chip's power is unknown.
  std::optional<double> training_watts_per_chip;
  std::string training_unknown;
  std::optional<double> serving_watts_per_chip;
  std::string serving_unknown;
  std::optional<double> serving_seconds;  // inference.duration: the fleet's mean over it
  std::optional<double> usd_per_kwh;
  // power.max_mw and the training chips it powers (not rounded: a continuous cap).
  std::optional<double> max_mw;
  std::optional<double> max_chips;
  // power.site_includes_serving: the serving fleet too must fit the site, which bounds N (the
  // fleet's mean chips grow with N): the largest N whose fleet draws max_mw, when it binds
  // below the setup's other bounds; absent otherwise.
  bool site_includes_serving = false;
  std::optional<double> serving_max_params;
};

// Validates inputs.power (naming "power.<field>") and makes the setup's SitePower. Throws
// InputError when power.max_mw is given for a training chip of unknown power, or powers less
// than one node of it.
SitePower site_power(const LifetimeInputs& inputs);

// power.site_includes_serving: bounds `model`'s N so that the serving fleet (the inference
// chip-hours over inference.duration, at the serving chip's facility power) draws at most
// power.max_mw, and records the bound in `site`. The chip-hours of the demand grow with N (each
// token reads more weights, fewer sequences fit a replica), so the bound is the root of
// fleet(N) = max_mw, by TOMS 748 in ln N. Throws InputError naming power.site_includes_serving
// when the question has no fleet to bound (no power.max_mw, no inference.duration, a FLOPs
// question) or the serving chip's power is unknown.
void cap_serving_by_site(SitePower& site, LifetimeCostModel& model, bool priced);

// The inputs with energy priced into every chip-hour: power.usd_per_kwh times each chip's
// facility kW added to the training and serving prices per chip-hour, so that the costs the
// questions minimise include the energy; nullopt when nothing changes (no usd_per_kwh, or
// `priced` false), so that a sweep's setups copy no inputs. Throws InputError naming
// hardware.<id>.tdp for a chip of unknown power.
std::optional<LifetimeInputs> with_energy_prices(const LifetimeInputs& inputs, bool priced);

// The power figures of a plan whose chip-hours are `cost` (`costed`: the plan exists), with
// `training_chips` (NaN: not known) in a question that is `priced` (a FLOPs question has no
// serving hours, so no fleet and no energy).
PowerAnswer power_answer(const LifetimeCost& cost, bool costed, double training_chips,
                         const SitePower& site, bool priced);

}  // namespace scaleopt
