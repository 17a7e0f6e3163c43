#pragma once
// The sensitivity tornado: for each input moved down and up (by -+20% by default) and the
// question re-solved, a horizontal bar from the output at the low value to the output at the
// high value, around the base answer; inputs ranked by swing, the largest on top.

#include <string>
#include <vector>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"  // SweepAxis

namespace scaleopt::plots {

struct TornadoBar {
  std::string input;  // "inference.rate"
  std::string range;  // "40M/s .. 60M/s": the input's low and high values
  double low = 0.0;   // the output with the input at its low value (NaN: no answer)
  double high = 0.0;  // ... at its high value
};

struct TornadoText {
  std::string title;
  std::string assumptions;
  SweepAxis output;   // the ranked output: name, axis label, format
  double base = 0.0;  // the output of the base answer
};

// At most `max_bars` bars (the first, largest swings), top to bottom. Throws InputError when
// no bar has both sides.
Figure tornado_figure(const std::vector<TornadoBar>& bars, const TornadoText& text,
                      std::size_t max_bars = 15);

}  // namespace scaleopt::plots
