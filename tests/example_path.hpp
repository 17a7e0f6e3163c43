#pragma once
// The path of an example scenario of the source tree (tests run from any directory).

#include <string>

inline std::string example(const char* name) {
  return std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name;
}
