#pragma once
// The message a scenario's text is refused with, or "no error" when it loads.

#include <string>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario.hpp"

inline std::string error_of(const std::string& text,
                            const std::vector<std::string>& overrides = {}) {
  try {
    scaleopt::load_scenario_text(text, "s.toml", overrides);
  } catch (const scaleopt::InputError& e) {
    return e.what();
  }
  return "no error";
}
