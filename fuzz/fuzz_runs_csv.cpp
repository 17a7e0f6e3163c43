// Fuzzes the CSV reader of `scaleopt fit` (scenario/runs_csv.hpp): libfccp splits rows and cells,
// the quantity parser reads each cell. Input: the first byte picks the columns (N, D, loss or
// N, C, loss with D = C / (6 N)), the rest is the file. Invariants: the reader returns runs
// whose N, D and loss are finite and positive, or throws InputError naming the file ("runs.csv:"),
// and nothing else escapes.

#include <cmath>
#include <sstream>

#include "fuzz/fuzz_checks.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/runs_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt;
  if (size == 0) return 0;
  const bool from_flops = (data[0] & 1) != 0;
  const scaleopt::RunsCsvColumns columns{.params = "N",
                                         .tokens = from_flops ? "" : "D",
                                         .flops = from_flops ? "C" : "",
                                         .loss = "loss"};
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  scaleopt::RunsCsv csv;
  try {
    csv = scaleopt::read_runs_csv_text(text, "runs.csv", columns);
  } catch (const InputError& e) {
    if (!std::string_view(e.what()).starts_with("runs.csv:")) {
      fuzz::invariant_broken("the error does not name the file", e.what());
    }
    return 0;
  }
  for (const TrainingRun& run : csv.runs) {
    for (const double value : {run.params, run.tokens, run.loss}) {
      if (!(std::isfinite(value) && value > 0.0)) {
        std::ostringstream evidence;
        evidence.precision(17);
        evidence << "N " << run.params << ", D " << run.tokens << ", loss " << run.loss
                 << (from_flops ? " (D from C)" : "") << "\n"
                 << text;
        fuzz::invariant_broken("a run that is not finite and positive was accepted",
                               evidence.str());
      }
    }
  }
  if (csv.last_line < 2) fuzz::invariant_broken("runs read but last_line < 2", text);
  return 0;
}
