#include "scaleopt/costmodel/precision.hpp"

#include <string>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {

std::string_view to_string(Precision precision) {
  switch (precision) {
    case Precision::bf16:
      return "bf16";
    case Precision::fp8:
      return "fp8";
    case Precision::int8:
      return "int8";
  }
  return "bf16";
}

double bytes_per_element(Precision precision) {
  return precision == Precision::bf16 ? 2.0 : 1.0;
}

Precision parse_precision(std::string_view text) {
  for (Precision p : {Precision::bf16, Precision::fp8, Precision::int8}) {
    if (text == to_string(p)) return p;
  }
  throw InputError("unknown precision " + quoted_input(text) + ": expected bf16, fp8 or int8");
}

}  // namespace scaleopt
