#include "scaleopt/report/sweep_summary.hpp"

#include "scaleopt/report/json.hpp"

namespace scaleopt::report {

Json sweep_summary_json(const SweepSummary& s) {
  return json_document(Json{{"file", s.file},
                            {"complete", s.complete},
                            {"grid_points", s.grid_points},
                            {"shard", s.shard},
                            {"resumed_points", s.resumed_points},
                            {"solved_points", s.tally.points},
                            {"converged", s.tally.converged},
                            {"infeasible", s.tally.infeasible},
                            {"not_converged", s.tally.not_converged},
                            {"invalid_input", s.tally.invalid_input},
                            {"fast_path", s.tally.fast_path},
                            {"seconds", s.seconds}});
}

}  // namespace scaleopt::report
