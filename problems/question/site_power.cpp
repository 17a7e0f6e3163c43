#include "scaleopt/problems/question/site_power.hpp"

#include <cmath>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/power_setup.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

// The facility watts of one chip, or the reason it has none.
std::optional<double> watts_or_reason(const Hardware& chip, const PowerSetup& power,
                                      std::string& reason) {
  try {
    return facility_watts_per_chip(chip, power);
  } catch (const InputError& e) {
    reason = e.what();
    return std::nullopt;
  }
}

bool serves(const LifetimeInputs& inputs) {
  return inputs.demand.total_tokens() > 0.0 || inputs.rl.rollout_tokens > 0.0;
}

}  // namespace

SitePower site_power(const LifetimeInputs& inputs) {
  inputs.power.validate("power");
  SitePower site;
  site.training_watts_per_chip =
      watts_or_reason(inputs.training.chip, inputs.power, site.training_unknown);
  site.serving_watts_per_chip =
      watts_or_reason(inputs.serving.chip, inputs.power, site.serving_unknown);
  site.serving_seconds = inputs.demand.duration_seconds;
  site.usd_per_kwh = inputs.power.usd_per_kwh;
  site.max_mw = inputs.power.max_mw;
  site.site_includes_serving = inputs.power.site_includes_serving;
  if (!site.max_mw) return site;
  if (!site.training_watts_per_chip) {
    throw InputError("power.max_mw: a site's limit needs the training chip's power: " +
                     site.training_unknown);
  }
  const double node = inputs.training.chip.node_chips;
  // Not rounded to whole nodes: the limit is a continuous cap on the compute, so that its
  // multiplier and elasticities exist (a floor would make them 0 almost everywhere); the part
  // of a node it leaves is at most node_chips - 1 chips of tens of thousands.
  site.max_chips = max_chips_within(inputs.training.chip, inputs.power, *site.max_mw);
  if (*site.max_chips < node) {
    throw field_error("power.max_mw",
                      format_quantity(*site.max_mw * kWattsPerMegawatt, Unit::watts) +
                          " powers less than one node of " + format_quantity(node, Unit::count) +
                          " " + inputs.training.chip.id + " at " +
                          format_quantity(*site.training_watts_per_chip, Unit::watts) +
                          " per chip at the meter");
  }
  return site;
}

void cap_serving_by_site(SitePower& site, LifetimeCostModel& model, bool priced) {
  if (!site.site_includes_serving) return;
  const std::string key = "power.site_includes_serving";
  if (!site.max_mw) throw field_error(key, "needs power.max_mw, the site's limit");
  if (!priced) {
    throw field_error(key,
                      "a FLOPs question (min-lifetime-flops) models no serving hours, so "
                      "no fleet for the site to hold");
  }
  if (!site.serving_seconds || !(*site.serving_seconds > 0.0)) {
    throw field_error(key,
                      "needs inference.duration: the fleet is the demand's chip-hours "
                      "over it");
  }
  if (!site.serving_watts_per_chip) throw field_error(key, site.serving_unknown);
  const double max_fleet_hours = *site.max_mw * kWattsPerMegawatt / *site.serving_watts_per_chip *
                                 *site.serving_seconds / kSecondsPerHour;
  // ln(fleet hours at N) - ln(the site's): increasing in ln N.
  const auto excess = [&](double log_params) {
    return std::log(model.inference.at(std::exp(log_params)).gpu_hours) - std::log(max_fleet_hours);
  };
  // The bracket: one parameter (the least model) to the setup's bound, or 1e30 without one.
  const double top = std::log(std::isfinite(model.max_params) ? model.max_params : 1e30);
  if (excess(top) <= 0.0) return;  // the site holds the fleet of every model the setup serves
  const std::string site_power_text =
      format_quantity(*site.max_mw * kWattsPerMegawatt, Unit::watts);
  if (!(excess(0.0) < 0.0)) {
    throw field_error(key, site_power_text + " cannot hold the serving fleet at any model size");
  }
  const RootResult root = find_root_in_bracket(excess, 0.0, top);
  if (root.status != Status::converged) {
    throw field_error(key, "the largest model whose serving fleet fits " + site_power_text +
                               " was not found (" + root.message + ")");
  }
  site.serving_max_params = std::exp(root.x);
  model.max_params = std::min(model.max_params, *site.serving_max_params);
  model.max_params_reason =
      "the site's power for the serving fleet: power.max_mw = " + site_power_text +
      " with power.site_includes_serving";
}

std::optional<LifetimeInputs> with_energy_prices(const LifetimeInputs& inputs, bool priced) {
  const std::optional<double>& usd_per_kwh = inputs.power.usd_per_kwh;
  if (!priced || !usd_per_kwh || *usd_per_kwh == 0.0) return std::nullopt;
  LifetimeInputs priced_inputs = inputs;
  auto energy_per_hour = [&](const Hardware& chip) {
    return facility_watts_per_chip(chip, inputs.power) / kWattsPerKilowatt * *usd_per_kwh;
  };
  priced_inputs.training.usd_per_chip_hour =
      inputs.training.price_per_chip_hour("training") + energy_per_hour(inputs.training.chip);
  if (serves(inputs)) {
    priced_inputs.serving.usd_per_chip_hour =
        inputs.serving.price_per_chip_hour("inference") + energy_per_hour(inputs.serving.chip);
  }
  return priced_inputs;
}

PowerAnswer power_answer(const LifetimeCost& cost, bool costed, double training_chips,
                         const SitePower& site, bool priced) {
  PowerAnswer a;
  if (site.max_chips) {
    a.max_chips = *site.max_chips;
  } else {
    a.max_chips_reason = "no power.max_mw";
  }
  // Literals, not strings: a sweep asks for the power of every point, reasons or not.
  constexpr const char* no_plan = "no plan";
  constexpr const char* flops_question =
      "a FLOPs question (min-lifetime-flops) models no serving hours, so no fleet and no energy";

  // The training cluster.
  if (!costed) {
    a.training_reason = no_plan;
  } else if (!site.training_watts_per_chip) {
    a.training_reason = site.training_unknown;
  } else if (!std::isfinite(training_chips)) {
    a.training_reason =
        "no training chips: give training.chips, or training.deadline (the chips it needs)";
  } else {
    a.training_mw = training_chips * *site.training_watts_per_chip / kWattsPerMegawatt;
  }

  // The serving fleet: the chips busy on average over the serving duration.
  const double serving_hours = cost.inference.gpu_hours;
  if (!costed) {
    a.serving_reason = no_plan;
  } else if (!priced) {
    a.serving_reason = flops_question;
  } else if (serving_hours == 0.0) {
    a.serving_mw = 0.0;  // nothing served
  } else if (!site.serving_seconds || !(*site.serving_seconds > 0.0)) {
    a.serving_reason =
        "the inference demand has no duration (inference.duration): no fleet to average";
  } else if (!site.serving_watts_per_chip) {
    a.serving_reason = site.serving_unknown;
  } else {
    const double fleet_chips = serving_hours * kSecondsPerHour / *site.serving_seconds;
    a.serving_mw = fleet_chips * *site.serving_watts_per_chip / kWattsPerMegawatt;
  }

  // The energy of the life: each phase's chip-hours at its chips' facility power. RL's hours
  // mix the training chips (updates) and the serving chips (rollouts), which the hours do not
  // separate: exact only when both draw the same power per chip.
  if (!costed) {
    a.energy_reason = no_plan;
  } else if (!priced) {
    a.energy_reason = flops_question;
  } else {
    double watt_hours = 0.0;
    auto add = [&](double hours, const std::optional<double>& watts, const std::string& unknown) {
      if (hours == 0.0) return;
      if (!watts) {
        if (a.energy_reason.empty()) a.energy_reason = unknown;
        return;
      }
      watt_hours += hours * *watts;
    };
    add(cost.pretrain.gpu_hours, site.training_watts_per_chip, site.training_unknown);
    add(cost.inference.gpu_hours, site.serving_watts_per_chip, site.serving_unknown);
    if (cost.rl.gpu_hours > 0.0) {
      if (site.training_watts_per_chip && site.serving_watts_per_chip &&
          *site.training_watts_per_chip != *site.serving_watts_per_chip) {
        if (a.energy_reason.empty()) {
          a.energy_reason =
              "RL's chip-hours mix the training and serving chips, which draw different power";
        }
      } else {
        add(cost.rl.gpu_hours, site.training_watts_per_chip, site.training_unknown);
      }
    }
    if (a.energy_reason.empty()) a.energy_mwh = watt_hours / kWattsPerMegawatt;
  }
  if (!site.usd_per_kwh) {
    a.energy_usd_reason = "no power.usd_per_kwh";
  } else if (std::isnan(a.energy_mwh)) {
    a.energy_usd_reason = a.energy_reason;
  } else {
    a.energy_usd = energy_cost_usd(a.energy_mwh, site.usd_per_kwh);
  }
  return a;
}

}  // namespace scaleopt
