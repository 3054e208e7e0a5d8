// Serialise a ParseResult (any input format: explain text, Query Profile, event log) to the JSON of
// `planlint parse --format json`: {"path", "format", "plans": [...], "operators": [...],
// "diagnostics": [...]}. Every operator is listed once; `children` / `parents` / `reuses` are
// operator indexes within the same plan (`plan` says which plan when there are several).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/plan.hpp"

namespace planlint {

nlohmann::ordered_json source_range_json(const SourceRange& r);
nlohmann::ordered_json operator_json(const Operator& op);
nlohmann::ordered_json plan_json(const Plan& plan);            // plan-level facts, without operators
nlohmann::ordered_json parse_result_json(const ParseResult& r);

// Pretty-printed text; invalid UTF-8 in plan text is replaced, never thrown on.
std::string dump_json(const nlohmann::ordered_json& j);

}  // namespace planlint
