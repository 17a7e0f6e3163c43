#pragma once
// The field list of docs/json.md ("The fields of a lifecycle answer"), generated from the table
// of answer fields (problems/question/answer_fields.hpp), so that the docs list exactly what
// `solve --json`, sweeps and Python give. A test checks that the doc holds this text.

#include <string>

namespace scaleopt::report {

std::string answer_fields_markdown();

}  // namespace scaleopt::report
