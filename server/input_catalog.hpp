#pragma once
// What the page of `scaleopt serve` needs to draw a scenario's inputs as controls, from the key
// registry (scenario/scenario_keys.hpp) and the catalogs (chips, model presets, law presets):
//
//   GET  /api/keys    every registry key and chip field: kind, unit, default, whether the
//                     default is an assumption, the allowed range, a log-scale hint, and the
//                     choices of a menu (chips, presets)
//   POST /api/inputs  for one scenario (the body of /api/solve): its numeric inputs with their
//                     values and the same facts, and the menus with their current choice
//
// The numbers are the doubles the scenario holds (base units: tokens, USD, seconds, 1/s); the
// page shows them with the unit and sends them back as numbers, which --set reads the same.

#include "scaleopt/report/json_fwd.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::server {

// The answer of GET /api/keys (a --json document: "schema_version" first).
report::Json keys_json();

// The answer of POST /api/inputs for `scenario`.
report::Json inputs_json(const Scenario& scenario);

}  // namespace scaleopt::server
