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

// The findings for one pair of plans. `old_label` names the old side in messages ("main:plan.txt").
// Findings carry `plan_index` = `new_index` and the new operator's location. Config select/ignore,
// severities and thresholds apply; suppressions are not applied here.
std::vector<Diagnostic> diff_plans(const Plan& old_plan, const Plan& new_plan, std::size_t new_index,
                                   const Config& config, const std::string& old_label);

// Both inputs parsed: pairs plans by position (the same number of plans is required, else
// `error` is set), adds the findings, applies the NEW text's suppression directives and orders
// the findings by position. The report is about the new file.
FileReport diff_parsed(const ParseResult& old_parse, const std::string& old_label, const ParseResult& new_parse,
                       std::string new_text, const std::string& new_display, const Config& config);

// parse_input on both texts + diff_parsed. A side that parses to no plan gives `error`.
FileReport diff_texts(std::string_view old_text, const std::string& old_label, std::string new_text,
                      const std::string& new_display, const Config& config);

}  // namespace planlint
