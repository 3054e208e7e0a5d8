// The one place where rules are registered. Add a rule: write rules/<name>.cpp defining
// `std::unique_ptr<Rule> make_<name>()`, declare it below and add it to the list.
#include "rules/rule.hpp"

namespace planlint {

// Declarations of the rule factories (one per file in rules/).
std::unique_ptr<Rule> make_filter_not_pushed_down();
std::unique_ptr<Rule> make_shuffle_join_could_broadcast();
std::unique_ptr<Rule> make_skew_not_handled();
std::unique_ptr<Rule> make_stale_broadcast_hint();
std::unique_ptr<Rule> make_exploding_join();
std::unique_ptr<Rule> make_non_sargable_predicate();
std::unique_ptr<Rule> make_photon_fallback();
std::unique_ptr<Rule> make_truncated_metadata();

const std::vector<std::unique_ptr<Rule>>& all_rules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> v;
    v.push_back(make_filter_not_pushed_down());
    v.push_back(make_shuffle_join_could_broadcast());
    v.push_back(make_skew_not_handled());
    v.push_back(make_stale_broadcast_hint());
    v.push_back(make_exploding_join());
    v.push_back(make_non_sargable_predicate());
    v.push_back(make_photon_fallback());
    v.push_back(make_truncated_metadata());
    return v;
  }();
  return rules;
}

}  // namespace planlint
