// The one place where rules are registered. Add a rule: write rules/<name>.cpp defining
// `std::unique_ptr<Rule> make_<name>()`, declare it below and add it to the list.
#include "rules/rule.hpp"

namespace planlint {

// Declarations of the rule factories (one per file in rules/).

const std::vector<std::unique_ptr<Rule>>& all_rules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> v;
    return v;
  }();
  return rules;
}

}  // namespace planlint
