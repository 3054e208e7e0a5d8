// The rule catalogue (rules/catalog.hpp): every family registered once, by register_all_rules().
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "lint/catalog/all_rules.hpp"
#include "lint/core/builtin_rules.hpp"
#include "lint/diff/diff_rules.hpp"
#include "lint/history/history.hpp"
#include "rules/catalog.hpp"

using namespace planlint;

TEST_CASE("catalog: register_all_rules registers every family, in order, once") {
  register_all_rules();  // again: idempotent
  REQUIRE(rule_catalog_installed());
  const RuleCatalog& c = rule_catalog();
  std::vector<std::string> names;
  for (const auto& f : c.families()) names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"plan", "builtin", "diff", "history"});

  // Every family's own list is in the catalogue, so a feature that forgot to register fails here.
  std::size_t expected = all_rules().size() + 2 + diff_rule_docs().size() + 1;
  CHECK(c.docs().size() == expected);
  for (const auto& r : all_rules()) CHECK(c.find(r->doc().code) == &r->doc());
  CHECK(c.find("PL900") == &parse_error_doc());
  CHECK(c.find(kUnusedSuppressionRule) == &unused_suppression_doc());
  for (const RuleDoc* d : diff_rule_docs()) {
    CHECK(c.find(d->name) == d);
    REQUIRE(c.family_of(*d) != nullptr);
    CHECK(d->family == RuleFamily::Diff);  // judged by diff, not by a file's own lint
  }
  CHECK(c.find(kQueryRegressed) == &history_regression_doc());
  CHECK(history_regression_doc().family == RuleFamily::History);
  CHECK(c.find("no-such-rule") == nullptr);

  std::set<std::string> codes;
  for (const RuleDoc* d : c.docs()) CHECK(codes.insert(d->code).second);
}

TEST_CASE("catalog: a family, name or code registered twice is refused") {
  RuleCatalog c;
  register_builtin_rules(c);
  CHECK_THROWS_AS(register_builtin_rules(c), std::logic_error);
  CHECK_THROWS_AS(c.add(RuleGroup{"other", {&parse_error_doc()}}), std::logic_error);
  CHECK(c.docs().size() == 2);
}

TEST_CASE("catalog: installed once") {
  CHECK_THROWS_AS(install_rule_catalog(RuleCatalog{}), std::logic_error);
}
