#pragma once
// A scenario file read and parsed once, from which scenarios are made with different --set
// overrides without reading or parsing the file again: the Python module's loaded scenario,
// solved with set= per call (docs/python.md). Each scenario is made exactly as load_scenario
// makes it (the overrides edit a copy of the parsed document, which is then read and
// validated), so the two give the same scenario, errors included.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

class ScenarioDocument {
 public:
  // Reads `path` through the bounded reader (InputError "FILE: cannot open the file ...").
  static ScenarioDocument read(const std::string& path);
  // `text`, which `name` stands for in messages.
  static ScenarioDocument from_text(std::string_view text, const std::string& name);

  // The scenario with `overrides` ("KEY=VALUE", as --set), as load_scenario gives it, errors
  // included (a text that is not TOML is reported here); `law_source` as load_scenario's.
  Scenario load(const std::vector<std::string>& overrides = {},
                const LawSource& law_source = {}) const;

  const std::string& file() const;
  // The text it was parsed from.
  const std::string& text() const;

 private:
  struct Parsed;
  explicit ScenarioDocument(std::shared_ptr<const Parsed> parsed);
  std::shared_ptr<const Parsed> parsed_;  // shared by copies: it is never changed
};

}  // namespace scaleopt
