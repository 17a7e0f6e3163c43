#pragma once
// `scaleopt training-runs`: the published runs against the training defaults, as a table
// with its notes for people and as one JSON object (docs/schema/training-runs.json).

#include <string>

#include "scaleopt/costmodel/published_run_check.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// {"schema_version", "default_mfu", "basis", "runs": [{id, name, hardware, precision,
// active_params, total_params, tokens, sequence_tokens (null: not published),
// gpu_hours_published, matmul_flops, attention_flops (null: no sequence length or shape),
// implied_mfu (6ND against the peak of the precision the run trained in), implied_mfu_by_peak
// [{precision, peak_flop_per_second, matmul_only, with_attention}], default_basis_mfu,
// predicted_gpu_hours, prediction_error, leave_one_out_mfu, leave_one_out_gpu_hours,
// leave_one_out_error, note, source}], "spread": {geometric_mean, log_sd, lowest, highest},
// "leave_one_out_rms_log_error", "default_rms_log_error", "uncertainty": the TOML line}
Json training_runs_json(const PublishedRunsCheck& check);

// The table, the distribution line and the notes.
std::string training_runs_text(const PublishedRunsCheck& check);

// The [uncertainty] entry the spread gives: training.mfu = { dist = "lognormal", ... }.
std::string mfu_uncertainty_line(const MfuSpread& spread);

}  // namespace scaleopt::report
