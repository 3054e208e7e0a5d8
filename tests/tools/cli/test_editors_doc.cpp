// docs/editors.md: the editor-settings example uses real rule names, codes and options, in the
// shape the server reads (checked against the rule registry).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "lint/engine/parse_errors.hpp"
#include "rules/rule.hpp"
#include "tests/support.hpp"

using nlohmann::json;

TEST_CASE("docs/editors.md: the settings example names real rules and options") {
  std::string md = planlint::test::read_file(planlint::test::source_dir() / "docs" / "editors.md");
  auto at = md.find("Editor settings override the file");
  REQUIRE(at != std::string::npos);
  auto open = md.find("```json\n", at);
  REQUIRE(open != std::string::npos);
  auto close = md.find("```", open + 8);
  json j = json::parse(md.substr(open + 8, close - open - 8));
  std::size_t names = 0;
  for (const char* key : {"select", "ignore"})
    for (const auto& n : j[key]) {
      INFO(key << ": " << n);
      CHECK(planlint::find_rule_doc(n.get<std::string>()) != nullptr);
      ++names;
    }
  // Plain variables, not structured bindings: clang before 16 cannot capture those in INFO's lambda.
  for (const auto& item : j["severity"].items()) {
    const std::string rule = item.key();
    INFO("severity: " << rule);
    CHECK(planlint::find_rule_doc(rule) != nullptr);
    ++names;
  }
  for (const auto& item : j["thresholds"].items()) {
    const std::string rule = item.key();
    const json& options = item.value();
    const planlint::RuleDoc* doc = planlint::find_rule_doc(rule);
    INFO("thresholds: " << rule);
    REQUIRE(doc != nullptr);
    for (const auto& opt : options.items()) {
      const std::string option = opt.key();
      INFO("option " << option);
      CHECK(std::any_of(doc->thresholds.begin(), doc->thresholds.end(),
                        [&](const planlint::Threshold& t) { return t.name == option; }));
    }
    ++names;
  }
  for (const auto& item : j["globalThresholds"].items()) {
    const std::string option = item.key();
    bool known = false;
    for (const planlint::RuleDoc* d : planlint::all_rule_docs())
      for (const auto& t : d->thresholds) known = known || t.name == option;
    INFO("globalThresholds: " << option);
    CHECK(known);
  }
  CHECK(names >= 4);
}
