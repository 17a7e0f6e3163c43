#pragma once
// `Json` declared, not defined: for headers that name it in a declaration, so that including
// them does not bring in nlohmann's whole header (report/json.hpp does, where JSON is built or
// printed).

#include <nlohmann/json_fwd.hpp>

namespace scaleopt::report {

using Json = nlohmann::ordered_json;

// The version of the layout of every `--json` answer: each carries it as "schema_version", and
// docs/schema/<command>.json describes that layout (docs/json.md says what the number
// promises). One number for every command, raised when any answer loses or renames a key or
// changes a key's type.
inline constexpr int kJsonSchemaVersion = 2;

}  // namespace scaleopt::report
