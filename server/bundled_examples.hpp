#pragma once
// The example scenarios shipped in examples/*.toml, compiled into the binary
// (server/CMakeLists.txt) so that `scaleopt serve` answers {"example": NAME} from any directory,
// installed or not, and no request ever names a file: an example is found by its name among these,
// never by a path.

#include <span>
#include <string>
#include <string_view>

namespace scaleopt::server {

struct BundledExample {
  std::string_view name;  // the file's name without ".toml": "frontier_100x"
  std::string_view text;  // the file's TOML
};

// Sorted by name.
std::span<const BundledExample> bundled_examples();

// The example called `name`. Throws InputError "example: unknown example 'NAME' (expected one
// of: budget_plan, ...)", the name quoted in at most 48 characters (input_excerpt).
const BundledExample& find_example(std::string_view name);

// "examples/NAME.toml": the name a bundled example's answers carry (their "scenario" key), the
// same as `scaleopt solve examples/NAME.toml --json` run in the source tree prints.
std::string example_file_name(std::string_view name);

}  // namespace scaleopt::server
