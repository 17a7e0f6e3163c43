#include "scaleopt/costmodel/shipped_formats.hpp"

#include <sstream>

namespace scaleopt {
namespace {

std::string bytes_text(double bytes) {
  std::ostringstream text;
  text << bytes;
  return text.str();
}

std::string weights_text(const ServingSetup& s) {
  std::string text(to_string(s.precision));
  if (s.routed_expert_bytes_per_param) {
    text += ", routed experts " + bytes_text(*s.routed_expert_bytes_per_param) +
            " bytes per parameter (computed at the " + std::string(to_string(s.precision)) +
            " peak)";
  }
  return text;
}

std::string kv_text(const ServingSetup& s) {
  std::string text(to_string(s.kv_precision));
  if (s.kv_rope_precision) {
    text += ", RoPE dimensions " + std::string(to_string(*s.kv_rope_precision));
  }
  return text;
}

}  // namespace

ShippedChoice apply_shipped_formats(const Architecture& model, ServingSetup& setup,
                                    bool weights_given, bool kv_given) {
  ShippedChoice choice;
  const ShippedFormats formats = model.shipped.value_or(ShippedFormats{});
  const std::string as_shipped = ", as " + model.name + " ships: ";
  if (weights_given) {
    setup.routed_expert_bytes_per_param.reset();
  } else {
    setup.precision = formats.weights;
    setup.routed_expert_bytes_per_param = formats.routed_expert_bytes_per_param;
    if (model.shipped) choice.weights = weights_text(setup) + as_shipped + formats.weights_source;
  }
  if (kv_given) {
    setup.kv_rope_precision.reset();
  } else {
    setup.kv_precision = formats.kv;
    setup.kv_rope_precision = formats.kv_rope;
    if (model.shipped) choice.kv = kv_text(setup) + as_shipped + formats.kv_source;
  }
  return choice;
}

double shipped_kv_bytes_per_token(const Architecture& model) {
  const ShippedFormats formats = model.shipped.value_or(ShippedFormats{});
  const double kv = bytes_per_element(formats.kv);
  return model.cached_bytes_per_token(kv,
                                      formats.kv_rope ? bytes_per_element(*formats.kv_rope) : kv);
}

std::string describe_formats(const ServingSetup& setup) {
  std::string text(to_string(setup.precision));
  text += " weights";
  if (setup.routed_expert_bytes_per_param) {
    text += " (routed experts " + bytes_text(*setup.routed_expert_bytes_per_param) +
            " bytes per parameter)";
  }
  text += ", " + std::string(to_string(setup.kv_precision)) + " KV";
  if (setup.kv_rope_precision) {
    text += " (RoPE dims " + std::string(to_string(*setup.kv_rope_precision)) + ")";
  }
  return text;
}

}  // namespace scaleopt
