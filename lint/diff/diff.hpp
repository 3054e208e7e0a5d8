// `planlint diff OLD NEW`: match the operators of two plans of the same query by structure (kind,
// the tables below, keys / conditions / partitioning with #ids removed; never by operator numbers)
// and report what got worse as findings (lint/diff/diff_rules.hpp), pointing into the NEW plan.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/report.hpp"
#include "model/plan.hpp"
#include "rules/rule.hpp"

namespace planlint {

// One pairing of operators between an old and a new plan (indices into Plan::ops).
struct OperatorMatch {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (old, new)
  std::vector<std::size_t> old_only;                        // compared operators without a partner
  std::vector<std::size_t> new_only;
};

// The operators diff compares: active physical operators that do work (no transitions, codegen
// stages, query stages, AdaptiveSparkPlan), reused exchanges and subqueries included.
OperatorMatch match_operators(const Plan& old_plan, const Plan& new_plan);

// Whether two plans look like plans of one query: the tables they read (catalog and schema left
// out) and the share of compared operators match_operators pairs. Measured on Spark's TPC-DS golden
// plans (every query against its sf100-statistics and its Spark 3.2 capture: all tables shared,
// 41-100 % of operators paired; 300 random pairs of different queries: 296 refused, the 4 kept are
// template siblings such as q24a/q24b), so a plan is refused when fewer than half of the tables are
// shared, fewer than a quarter of the operators pair, or the tables differ and fewer than half pair.
struct PlanLikeness {
  std::size_t shared_tables = 0, all_tables = 0;  // |old ∩ new|, |old ∪ new| of the tables read
  std::size_t paired = 0, compared = 0;           // operators paired, max(compared old, compared new)
  std::vector<std::string> only_old, only_new;    // tables read by one side only
  bool same_query = true;
  // "they share 1 of 12 tables (only the old plan reads catalog_sales, ...; only the new plan reads
  // store_sales, ...) and 10 of 92 operators pair"
  [[nodiscard]] std::string describe() const;
};
PlanLikeness plan_likeness(const Plan& old_plan, const Plan& new_plan);

// The findings for one pair of plans. `old_label` names the old side in messages ("main:plan.txt").
// Findings carry `plan_index` = `new_index` and the new operator's location. Config select/ignore,
// severities and thresholds apply; suppressions are not applied here.
std::vector<Diagnostic> diff_plans(const Plan& old_plan, const Plan& new_plan, std::size_t new_index,
                                   const Config& config, const std::string& old_label);

// Both inputs parsed: pairs plans by position (the same number of plans is required, else
// `error` is set), adds the findings, applies the NEW text's suppression directives and orders
// the findings by position. The report is about the new file. Plans that do not look like one
// query (plan_likeness) set `error`, unless `force`: then they are compared with a warning in
// `messages`.
FileReport diff_parsed(const ParseResult& old_parse, const std::string& old_label, const ParseResult& new_parse,
                       std::string new_text, const std::string& new_display, const Config& config,
                       bool force = false);

// parse_input on both texts + diff_parsed. A side that parses to no plan gives `error`.
FileReport diff_texts(std::string_view old_text, const std::string& old_label, std::string new_text,
                      const std::string& new_display, const Config& config, bool force = false);

}  // namespace planlint
