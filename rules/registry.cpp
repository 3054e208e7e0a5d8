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
std::unique_ptr<Rule> make_native_engine_fallback();
std::unique_ptr<Rule> make_truncated_metadata();

// Troubleshooting-method rules (issue 8), after the mission rules.
std::unique_ptr<Rule> make_slow_phase();
std::unique_ptr<Rule> make_low_file_pruning();
std::unique_ptr<Rule> make_small_files();
std::unique_ptr<Rule> make_disk_spill();
std::unique_ptr<Rule> make_python_udf();
std::unique_ptr<Rule> make_duplicate_work();
std::unique_ptr<Rule> make_wide_projection();
std::unique_ptr<Rule> make_aqe_disabled();
std::unique_ptr<Rule> make_single_partition_shuffle();
std::unique_ptr<Rule> make_shuffle_partition_sizing();

const std::vector<std::unique_ptr<Rule>>& all_rules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> v;
    v.push_back(make_filter_not_pushed_down());
    v.push_back(make_shuffle_join_could_broadcast());
    v.push_back(make_skew_not_handled());
    v.push_back(make_stale_broadcast_hint());
    v.push_back(make_exploding_join());
    v.push_back(make_non_sargable_predicate());
    v.push_back(make_native_engine_fallback());
    v.push_back(make_truncated_metadata());
    // Troubleshooting-method rules (issue 8), after the mission rules.
    v.push_back(make_slow_phase());
    v.push_back(make_low_file_pruning());
    v.push_back(make_small_files());
    v.push_back(make_disk_spill());
    v.push_back(make_python_udf());
    v.push_back(make_duplicate_work());
    v.push_back(make_wide_projection());
    v.push_back(make_aqe_disabled());
    v.push_back(make_single_partition_shuffle());
    v.push_back(make_shuffle_partition_sizing());
    return v;
  }();
  return rules;
}

}  // namespace planlint
