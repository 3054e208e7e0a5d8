#include "lint/catalog/all_rules.hpp"

#include <mutex>

#include "lint/core/builtin_rules.hpp"
#include "lint/diff/diff_rules.hpp"
#include "lint/history/history.hpp"
#include "rules/catalog.hpp"

namespace planlint {

void register_all_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    RuleCatalog catalog;
    register_plan_rules(catalog);
    register_builtin_rules(catalog);
    register_diff_rules(catalog);
    register_history_rules(catalog);
    install_rule_catalog(std::move(catalog));
  });
}

}  // namespace planlint
