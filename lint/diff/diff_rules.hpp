// The findings of `planlint diff OLD NEW` (and `planlint check --against REF`): regressions between
// two plans of the same query. They are documented like the rules of rules/ (RuleDoc), so config
// (select, ignore, severity, thresholds), suppressions, SARIF metadata and `planlint rule NAME`
// treat them like any other finding. Codes PLD001-PLD099.
#pragma once

#include <string_view>
#include <vector>

#include "rules/catalog.hpp"
#include "rules/rule.hpp"

namespace planlint {

inline constexpr std::string_view kJoinRegressed = "join-strategy-regressed";
inline constexpr std::string_view kPushdownLost = "filter-pushdown-lost";
inline constexpr std::string_view kNewNonSargable = "new-non-sargable-predicate";
inline constexpr std::string_view kNewExchange = "new-exchange-or-sort";
inline constexpr std::string_view kReuseLost = "reuse-lost";
inline constexpr std::string_view kEngineCoverage = "engine-coverage-dropped";
inline constexpr std::string_view kAdaptiveLost = "adaptive-execution-lost";
inline constexpr std::string_view kMetricRegressed = "metric-regressed";
inline constexpr std::string_view kPlanImproved = "plan-improved";

// Every diff finding's documentation, in code order.
const std::vector<const RuleDoc*>& diff_rule_docs();
const RuleDoc& diff_rule_doc(std::string_view name);

// The diff findings as the catalogue's family "diff" (judged by diff, not by a file's own lint).
void register_diff_rules(RuleCatalog& catalog);

}  // namespace planlint
