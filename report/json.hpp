#pragma once
// JSON as `--json` prints it: nlohmann's ordered_json, whose keys keep the order they were
// added in. Its own header so that only the files that build or print JSON include nlohmann.

#include <nlohmann/json.hpp>

#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// `body` (an object) with "schema_version" (kJsonSchemaVersion) as its first key: every
// `--json` answer is made by this, sub-objects are not (docs/json.md).
inline Json json_document(const Json& body) {
  Json document{{"schema_version", kJsonSchemaVersion}};
  document.update(body);  // ordered_json: the body's keys follow, in their order
  return document;
}

}  // namespace scaleopt::report
