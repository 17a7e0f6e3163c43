// What the pricing commands share in their output.

#include "scaleopt/report/pricing_output.hpp"
#include "scaleopt/report/json.hpp"

#include <cmath>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/json_number.hpp"

namespace scaleopt::report {

std::string usd_per_mtok_text(double usd_per_mtok) {
  return format_quantity(usd_per_mtok, Unit::usd, 3);
}

std::string duration_text(double seconds) {
  if (std::isfinite(seconds) && std::fabs(seconds) < 1.0 && seconds != 0.0) {
    return format_scientific(seconds * 1e3, 3) + "ms";
  }
  return format_quantity(seconds, Unit::seconds, 3);
}

Json price_list_json(const PriceList& prices) {
  Json tiers = Json::array();
  for (const PriceTier& tier : prices.tiers) {
    tiers.push_back({{"max_context", finite_or_null(tier.max_context_tokens)},
                     {"usd_per_mtok_input", tier.usd_per_mtok_input},
                     {"usd_per_mtok_output", tier.usd_per_mtok_output}});
  }
  return {{"name", prices.name}, {"source", prices.source}, {"tiers", tiers}};
}

std::string price_list_text(const PriceList& prices) {
  std::string text;
  for (std::size_t i = 0; i < prices.tiers.size(); ++i) {
    const PriceTier& tier = prices.tiers[i];
    text += i ? "; " : "";
    text += std::isfinite(tier.max_context_tokens)
                ? "<= " + format_exact_count(tier.max_context_tokens)
                : (i ? "above" : "any prompt");
    text += ": " + usd_per_mtok_text(tier.usd_per_mtok_input) + " in, " +
            usd_per_mtok_text(tier.usd_per_mtok_output) + " out";
  }
  return text;
}

std::string assumptions_text(const std::vector<std::string>& assumptions) {
  if (assumptions.empty()) return {};
  std::string text = "Assumptions (defaults not given):\n";
  for (const std::string& a : assumptions) text += "  " + a + "\n";
  return text;
}

Json request_json(const RequestCost& request) {
  return Json{{"input_tokens", request.input_tokens},
              {"output_tokens", request.output_tokens},
              {"prefill_usd", request.prefill_usd},
              {"decode_usd", request.decode_usd},
              {"first_output_token_usd", request.first_output_token_usd},
              {"last_output_token_usd", request.last_output_token_usd},
              {"method", request.method},
              {"status", std::string(to_string(request.status))},
              {"message", request.message}};
}

std::string request_text(const RequestCost& request) {
  const auto tokens = [](double count) { return format_quantity(count, Unit::count, 4); };
  const auto usd = [](double value) { return format_quantity(value, Unit::usd, 3); };
  std::string text = "One request of " + tokens(request.input_tokens) + " input and " +
                     tokens(request.output_tokens) + " output tokens: " + usd(request.usd()) +
                     " (prefill " + usd(request.prefill_usd) + ", decode " +
                     usd(request.decode_usd);
  if (request.output_tokens > 0.0) {
    text += ": output tokens at contexts " + tokens(request.input_tokens) + " to " +
            tokens(request.input_tokens + request.output_tokens - 1.0) + ", " +
            usd(request.first_output_token_usd) + " to " + usd(request.last_output_token_usd) +
            " each";
  }
  text += ")";
  if (request.status != Status::converged) {
    text += "; NOT at verified batches: " + request.message;
  }
  return text + "\n";
}

}  // namespace scaleopt::report
