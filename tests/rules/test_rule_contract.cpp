// The rule contract (rules/rule.hpp): a rule reads only the thresholds its doc declares, by
// ThresholdKey; reading one the doc does not declare throws, naming the key, instead of reading 0.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <type_traits>
#include <stdexcept>

#include "lint/engine/engine.hpp"
#include "rules/rule.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// Every plan of the rule corpus (corpus/rules/<rule>/*), parsed once.
const std::vector<LintResult>& corpus_plans() {
  static const std::vector<LintResult> parsed = [] {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(test::corpus_dir() / "rules")) {
      auto ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".txt" || ext == ".json" || ext == ".eventlog")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    Config none;
    none.select.insert("no-such-rule");  // parse only
    std::vector<LintResult> out;
    for (const auto& f : files) out.push_back(lint_text(test::read_file(f), f.string(), none));
    return out;
  }();
  return parsed;
}

// Runs `rule` with `doc` in place of its own over every corpus plan; the first error, or "".
std::string run_with_doc(const Rule& rule, const RuleDoc& doc) {
  for (const auto& r : corpus_plans())
    for (std::size_t i = 0; i < r.parse.plans.size(); ++i) {
      std::vector<Diagnostic> out;
      RuleContext ctx(r.parse.plans[i], i, doc, nullptr, out);
      try {
        rule.check(ctx);
      } catch (const std::logic_error& e) {
        return e.what();
      }
    }
  return "";
}

inline constexpr ThresholdKey kDeclared{"declared"};
inline constexpr ThresholdKey kUndeclared{"min-spill-byte"};

RuleDoc probe_doc() {
  RuleDoc d;
  d.name = "probe";
  d.code = "PL999";
  d.thresholds = {{kDeclared, 7, "rows", "a test value"}};
  return d;
}

}  // namespace

TEST_CASE("rule contract: every rule over the rule corpus reads only thresholds its doc declares") {
  REQUIRE(corpus_plans().size() >= 60);
  for (const auto& rule : all_rules()) {
    const std::string name = rule->doc().name;
    CAPTURE(name);
    CHECK(run_with_doc(*rule, rule->doc()).empty());
  }
}

TEST_CASE("rule contract: a threshold missing from a rule's doc is reported by name") {
  std::size_t dropped = 0;
  for (const auto& rule : all_rules()) {
    const RuleDoc& doc = rule->doc();
    for (std::size_t t = 0; t < doc.thresholds.size(); ++t) {
      RuleDoc without = doc;
      without.thresholds.erase(without.thresholds.begin() + static_cast<std::ptrdiff_t>(t));
      const std::string key = doc.thresholds[t].name;
      const std::string rule_name = doc.name;
      CAPTURE(rule_name);
      CAPTURE(key);
      std::string error = run_with_doc(*rule, without);
      CHECK(error.find("'" + key + "'") != std::string::npos);
      CHECK(error.find(rule_name) != std::string::npos);
      ++dropped;
    }
  }
  CHECK(dropped >= 25);
}

TEST_CASE("rule contract: threshold() returns the default or the override, and throws on an undeclared key") {
  const RuleDoc doc = probe_doc();
  Plan plan;
  std::vector<Diagnostic> out;
  RuleContext plain(plan, 0, doc, nullptr, out);
  CHECK(plain.threshold(kDeclared) == 7);
  CHECK_THROWS_WITH_AS(static_cast<void>(plain.threshold(kUndeclared)),
                       "rule probe reads threshold 'min-spill-byte', which its doc does not declare",
                       std::logic_error);
  const std::map<std::string, double> overrides = {{"declared", 3}, {"min-spill-byte", 5}};
  RuleContext set(plan, 0, doc, &overrides, out);
  CHECK(set.threshold(kDeclared) == 3);
  // An override does not make an undeclared key readable.
  CHECK_THROWS_AS(static_cast<void>(set.threshold(kUndeclared)), std::logic_error);
}

// Evidence is built from a number and its Unit, or a text, never by hand: the four-field form
// (name, value text, number, unit string) does not compile, anywhere.
static_assert(!std::is_constructible_v<Evidence, std::string, std::string, std::optional<double>, std::string>);
static_assert(!std::is_constructible_v<Evidence, std::string, std::string, double, std::string>);
static_assert(std::is_constructible_v<Evidence, std::string, double, Unit>);
static_assert(std::is_constructible_v<Evidence, std::string, std::string>);
