// The rule catalogue: every documented finding planlint can report, whichever part of planlint
// reports it. Each family registers its RuleDocs here once, at start-up:
//   plan      the rules of rules/ (register_plan_rules over all_rules() of rules/registry.cpp)
//   builtin   parse-error and unused-suppression (register_builtin_rules, lint/core/builtin_rules)
//   diff      the regressions between two plans (register_diff_rules, lint/diff/diff_rules)
//   history   the regressions across a query's runs (register_history_rules, lint/history)
// `register_all_rules()` (lint/catalog/all_rules.hpp) registers every family; each program calls
// it first (the CLI, the tests, the Python module, the fuzz targets, the benchmark). Reading the
// catalogue before it was installed is a programming error and aborts with a message, so a
// program that forgot the registration fails its first test rather than silently knowing fewer rules.
// Config validation, `--select`, SARIF rule metadata, suppressions and the baseline all read it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/rule.hpp"

namespace planlint {

// A group of rules registered together (one per part of planlint that reports them); not to be
// confused with RuleDoc::family (RuleFamily: plan, runtime, diff, history, builtin), which a
// rule's own doc declares and tests select by.
struct RuleGroup {
  std::string name;                   // "plan", "builtin", "diff", "history"
  std::vector<const RuleDoc*> docs;   // in the family's own order
};

class RuleCatalog {
 public:
  // Appends a family. A family name, rule name or code registered twice is a programming error
  // (std::logic_error).
  void add(RuleGroup family);

  [[nodiscard]] const std::vector<RuleGroup>& families() const { return families_; }
  [[nodiscard]] const RuleGroup* family(std::string_view name) const;
  // Every documented finding, family by family in registration order.
  [[nodiscard]] const std::vector<const RuleDoc*>& docs() const { return docs_; }
  // By name, secondary name (also_reports), former name (aliases) or code, in registration order;
  // nullptr when unknown.
  [[nodiscard]] const RuleDoc* find(std::string_view name_or_code) const;
  // The family a documented finding belongs to; nullptr when it is not in the catalogue.
  [[nodiscard]] const RuleGroup* family_of(const RuleDoc& doc) const;

 private:
  std::vector<RuleGroup> families_;
  std::vector<const RuleDoc*> docs_;
};

// The plan rules of rules/ (all_rules(), in registration order) as the family "plan".
void register_plan_rules(RuleCatalog& catalog);

// Installs the catalogue every later rule_catalog() call reads. Called once by
// register_all_rules(); a second call with a different catalogue is a programming error.
void install_rule_catalog(RuleCatalog catalog);
[[nodiscard]] bool rule_catalog_installed();

// The installed catalogue; aborts with a message when no catalogue was installed.
const RuleCatalog& rule_catalog();

// Shorthands over rule_catalog().
inline const std::vector<const RuleDoc*>& all_rule_docs() { return rule_catalog().docs(); }
inline const RuleDoc* find_rule_doc(std::string_view name_or_code) { return rule_catalog().find(name_or_code); }

// The reported names a selector stands for: a name gives itself, a former name the rule's name, a
// code the rule's name and every name it also reports. Empty when unknown.
std::vector<std::string> names_for_selector(std::string_view name_or_code);

// The name findings are reported under: a rule's former name (RuleDoc::aliases) gives the rule's
// name; anything else is given back as it is.
std::string_view reported_name(std::string_view name);

}  // namespace planlint
