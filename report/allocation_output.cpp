#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/report_text.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/law_reach.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

// %g with `significant` digits, the plain-number form of costmodel/quantity.hpp.
std::string rule_text(const AllocationRule& rule) {
  if (rule.tokens_per_param) return plain(*rule.tokens_per_param) + " tokens per parameter";
  return "compute-optimal frontier of the law";
}

}  // namespace

std::string describe_coefficients(const LossLaw& law) {
  std::ostringstream s;
  s << "E=" << law.E << " A=" << law.A << " B=" << law.B << " alpha=" << law.alpha
    << " beta=" << law.beta << "; " << law.source;
  return s.str();
}

std::string describe_law(const LossLaw& law) {
  std::ostringstream s;
  s << law.name << " (E=" << law.E << " A=" << law.A << " B=" << law.B << " alpha=" << law.alpha
    << " beta=" << law.beta << ")";
  // A joint dense/MoE law: the reduction above is the law at these experts.
  if (law.joint && law.experts) s << " at " << *law.experts << " experts";
  return s.str();
}

Json fitted_range_json(const FittedRange& range) {
  Json json{{"min_params", optional_or_null(range.min_params)},
            {"max_params", optional_or_null(range.max_params)},
            {"min_tokens", optional_or_null(range.min_tokens)},
            {"max_tokens", optional_or_null(range.max_tokens)},
            {"source", range.source}};
  // A joint dense/MoE law's runs also span a range of experts.
  if (range.min_experts) json["min_experts"] = *range.min_experts;
  if (range.max_experts) json["max_experts"] = *range.max_experts;
  if (range.max_total_params) json["max_total_params"] = *range.max_total_params;
  return json;
}

Json law_json(const LossLaw& law) {
  Json json{{"name", law.name},   {"E", law.E},       {"A", law.A},          {"B", law.B},
            {"alpha", law.alpha}, {"beta", law.beta}, {"source", law.source}};
  json["fitted_range"] = law.fitted_range ? fitted_range_json(*law.fitted_range) : Json(nullptr);
  // A joint dense/MoE law: the experts it is evaluated at (costmodel/joint_loss_law.hpp).
  if (law.experts) json["experts"] = *law.experts;
  return json;
}

Json extrapolated_json(const LossLaw& law, double params, double tokens,
                       std::optional<double> total_params) {
  Json list = Json::array();
  for (const Extrapolation& e : extrapolations(law, params, tokens, total_params)) {
    list.push_back(Json{{"quantity", e.quantity},
                        {"value", e.value},
                        {"fitted_min", optional_or_null(e.fitted_min)},
                        {"fitted_max", optional_or_null(e.fitted_max)},
                        {"factor", e.factor()}});
  }
  return list;
}

std::vector<std::string> reach_notes(const LossLaw& law, double params, double tokens,
                                     std::optional<double> total_params) {
  std::vector<std::string> notes;
  if (!law_has_range(law)) {
    notes.push_back("law " + law.name +
                    ": the range of runs it was fitted on is not known here, so whether this "
                    "answer extrapolates it cannot be said");
    return notes;
  }
  std::string outside;
  for (const Extrapolation& e : extrapolations(law, params, tokens, total_params)) {
    outside += (outside.empty() ? "" : "; ") + extrapolation_text(e);
  }
  if (!outside.empty()) {
    notes.push_back("extrapolated beyond the runs " + law.name + " was fitted on (" +
                    law.fitted_range->source + "): " + outside);
  }
  return notes;
}

Json allocation_json(const Allocation& allocation, const AllocationRule& rule) {
  Json json{{"params", allocation.params},
            {"tokens", allocation.tokens},
            {"compute_flops", allocation.compute_flops},
            {"loss", allocation.loss},
            {"tokens_per_param", allocation.tokens_per_param()},
            {"status", std::string(to_string(allocation.solve.status))},
            {"message", allocation.solve.message},
            {"algorithm", allocation.solve.algorithm},
            {"kkt_residual", allocation.solve.kkt_residual},
            {"constraint_violation", allocation.solve.constraint_violation},
            {"evaluations", allocation.solve.evaluations},
            {"closed_form_relative_difference", allocation.closed_form_relative_difference}};
  if (rule.tokens_per_param) {
    json["rule"] = Json{{"tokens_per_param", *rule.tokens_per_param}};
  } else {
    json["rule"] = "law";
  }
  json["law"] = law_json(rule.law);
  json["extrapolated"] = extrapolated_json(rule.law, allocation.params, allocation.tokens);
  return json;
}

Json optimal_answer(const Allocation& allocation, const AllocationRule& rule) {
  return json_document(allocation_json(allocation, rule));
}

Json loss_answer(const Allocation& point, const LossLaw& law, double chinchilla_tokens,
                 double over_chinchilla) {
  Json json = allocation_json(point, {law, std::nullopt});
  json["chinchilla_tokens"] = chinchilla_tokens;
  json["over_chinchilla"] = over_chinchilla;
  return json_document(json);
}

Json data_limited_optimal_answer(const DataLimitedAllocation& limited, const AllocationRule& rule) {
  Json json = allocation_json(limited.allocation, rule);
  json["closed_form_relative_difference"] = nullptr;
  json["unique_tokens"] = limited.unique_tokens;
  json["epochs"] = finite_or_null(limited.epochs);
  json["effective_tokens"] = finite_or_null(limited.effective_tokens);
  json["effective_params"] = finite_or_null(limited.effective_params);
  json["reference_relative_difference"] = finite_or_null(limited.reference_relative_difference);
  if (std::isnan(limited.data_limit_flops)) {
    json["data_limit_loss"] = finite_or_null(limited.data_limit_loss);
  } else {
    json["data_limit_flops"] = finite_or_null(limited.data_limit_flops);
  }
  return json_document(json);
}

Json data_limited_loss_answer(const Allocation& point, const LossLaw& law, double chinchilla_tokens,
                              double over_chinchilla, const DataLimitedPoint& limited) {
  Json json = allocation_json(point, {law, std::nullopt});
  json["chinchilla_tokens"] = chinchilla_tokens;
  json["over_chinchilla"] = over_chinchilla;
  json["unique_tokens"] = point.tokens / limited.epochs;
  json["epochs"] = limited.epochs;
  json["effective_tokens"] = limited.effective_tokens;
  json["effective_params"] = limited.effective_params;
  json["data_limit_loss"] = limited.loss - limited.fresh_loss;
  return json_document(json);
}

std::string data_limit_text(const DataLimitedAllocation& limited) {
  Table table("With " + format_quantity(limited.unique_tokens, Unit::count, 4) +
              " unique tokens (Muennighoff et al. 2023: repeated tokens decay)");
  table.row("epochs", plain(limited.epochs, 4), "D / unique tokens");
  table.row("effective tokens", format_quantity(limited.effective_tokens, Unit::count, 4),
            "D': the fresh tokens they are worth");
  table.row("effective params", format_quantity(limited.effective_params, Unit::count, 4),
            "N': parameters beyond what the unique data feeds decay too");
  if (std::isfinite(limited.data_limit_loss)) {
    table.row("price of the limit", "+" + plain(limited.data_limit_loss, 4) + " nats",
              "loss over the optimum with unlimited fresh data at the same compute");
  }
  if (std::isfinite(limited.data_limit_flops)) {
    table.row("price of the limit", "+" + format_scientific(limited.data_limit_flops, 4) + " FLOPs",
              "compute over the optimum with unlimited fresh data at the same loss");
  }
  if (std::isfinite(limited.reference_relative_difference)) {
    table.row("reference",
              "agrees to " + format_scientific(limited.reference_relative_difference, 2),
              "relative difference in N and D (the 1-D reduction by TOMS 748)");
  }
  std::ostringstream out;
  table.print(out);
  return out.str();
}

std::string allocation_text(const std::string& title, const Allocation& allocation,
                            const AllocationRule& rule) {
  std::ostringstream out;
  const bool converged = allocation.solve.converged();
  if (!converged) {
    out << "STATUS: " << to_string(allocation.solve.status) << ": " << allocation.solve.message
        << "\n";
    out << "The numbers below are the solver's last iterate, not an optimum.\n";
  }
  Table table(converged ? title : "Last iterate, NOT an optimum: " + title);
  table.row("params", format_scientific(allocation.params, 4),
            format_quantity(allocation.params, Unit::count));
  table.row("tokens", format_scientific(allocation.tokens, 4),
            format_quantity(allocation.tokens, Unit::count));
  table.row("tokens per param", plain(allocation.tokens_per_param(), 4));
  table.row("compute", format_scientific(allocation.compute_flops, 4), "FLOPs (6 N D)");
  table.row("loss", plain(allocation.loss, 6), "nats/token");
  table.row("law", rule.law.name, describe_coefficients(rule.law));
  table.row("rule", rule_text(rule));
  if (converged) table.row("status", "converged", allocation.solve.message);
  if (std::isfinite(allocation.closed_form_relative_difference)) {
    table.row("closed form",
              "agrees to " + format_scientific(allocation.closed_form_relative_difference, 2),
              "relative difference in N and D (Hoffmann et al. 2022, Eq. 4)");
  }
  table.print(out);
  for (const std::string& note : reach_notes(rule.law, allocation.params, allocation.tokens)) {
    out << wrap_words("note: " + note, 100, "");
  }
  if (!rule.tokens_per_param && allocation.tokens_per_param() > 40.0) {
    out << "note: this law's frontier gives " << plain(allocation.tokens_per_param(), 3)
        << " tokens per parameter, far from the '20 tokens per parameter' rule (Hoffmann's "
           "Approach 1); --tokens-per-param 20 applies that rule, --law epoch2024 is a refit "
           "close to it (docs/model.md).\n";
  }
  return out.str();
}

}  // namespace scaleopt::report
