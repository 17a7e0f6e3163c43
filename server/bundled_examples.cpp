#include "scaleopt/server/bundled_examples.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt::server {

const BundledExample& find_example(std::string_view name) {
  for (const BundledExample& example : bundled_examples()) {
    if (example.name == name) return example;
  }
  std::string known;
  for (const BundledExample& example : bundled_examples()) {
    known += (known.empty() ? "" : ", ") + std::string(example.name);
  }
  throw InputError("example: unknown example " + quoted_input(name) +
                   " (expected one of: " + known + ")");
}

std::string example_file_name(std::string_view name) {
  return "examples/" + std::string(name) + ".toml";
}

}  // namespace scaleopt::server
