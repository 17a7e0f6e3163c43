#pragma once
// JSON as `--json` prints it: nlohmann's ordered_json, whose keys keep the order they were
// added in. Its own header so that only the files that build or print JSON include nlohmann.

#include <nlohmann/json.hpp>

namespace scaleopt::report {

using Json = nlohmann::ordered_json;

}  // namespace scaleopt::report
