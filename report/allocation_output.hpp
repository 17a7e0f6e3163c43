#pragma once
// How an Allocation (and the law behind it) is shown: a table for people, JSON for programs.

#include <string>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/allocation.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/data_limit/data_limited_allocation.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// The law's coefficients, source and fitted_range (null when the law has none: a law given by
// coefficients or a file).
Json law_json(const LossLaw& law);

// {min_params, max_params, min_tokens, max_tokens (null when unknown), source}, and min_experts
// and max_experts for a joint dense/MoE law's runs.
Json fitted_range_json(const FittedRange& range);

// "extrapolated": what of (params, tokens) lies outside the law's fitted range, each
// {quantity, value, fitted_min, fitted_max, factor}; an empty array inside it or when the law
// has no range (law_json's fitted_range null says which).
Json extrapolated_json(const LossLaw& law, double params, double tokens,
                       std::optional<double> total_params = std::nullopt);

// The lines that say so for people: one per quantity outside the range, or that the range is
// unknown; none inside it.
std::vector<std::string> reach_notes(const LossLaw& law, double params, double tokens,
                                     std::optional<double> total_params = std::nullopt);

// Keys: params, tokens, compute_flops, loss, tokens_per_param, status, message, algorithm,
// kkt_residual, constraint_violation, evaluations, closed_form_relative_difference, rule, law.
Json allocation_json(const Allocation& allocation, const AllocationRule& rule);

// scaleopt optimal --json: allocation_json as a document (with "schema_version").
Json optimal_answer(const Allocation& allocation, const AllocationRule& rule);

// scaleopt loss --json: allocation_json of the point, then chinchilla_tokens (the law's
// compute-optimal D for its N) and over_chinchilla (D over that).
Json loss_answer(const Allocation& point, const LossLaw& law, double chinchilla_tokens,
                 double over_chinchilla);

// With --unique-tokens: the allocation's JSON (closed_form_relative_difference null: none
// applies) then unique_tokens, epochs, effective_tokens, effective_params,
// reference_relative_difference, and data_limit_loss (--compute) or data_limit_flops (--loss).
Json data_limited_optimal_answer(const DataLimitedAllocation& limited, const AllocationRule& rule);

// scaleopt loss --unique-tokens --json: loss_answer with the loss under repetition, then
// unique_tokens, epochs, effective_tokens, effective_params and data_limit_loss (the loss over
// the law's with fresh data).
Json data_limited_loss_answer(const Allocation& point, const LossLaw& law, double chinchilla_tokens,
                              double over_chinchilla, const DataLimitedPoint& limited);

// The rows of a data-limited answer after allocation_text's.
std::string data_limit_text(const DataLimitedAllocation& limited);

// The title line, then the rows; a status other than converged comes first and the numbers
// are labelled as the last iterate, not an optimum.
std::string allocation_text(const std::string& title, const Allocation& allocation,
                            const AllocationRule& rule);

// "E=1.8172 A=482.01 B=2085.43 alpha=0.3478 beta=0.3658; <source>"
std::string describe_coefficients(const LossLaw& law);

// "epoch2024 (E=1.8172 A=482.01 B=2085.43 alpha=0.3478 beta=0.3658)"
std::string describe_law(const LossLaw& law);

}  // namespace scaleopt::report
