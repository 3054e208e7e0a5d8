// The indented tree that `planlint parse` prints: each plan's operators as the DAG the user knows
// (`+- ` / `:- ` connectors), one line per operator with its id, kind and key facts. Shared
// operators (AQE sections, reuse) are printed once and referenced afterwards. Iterative, so deep
// plans cannot overflow the stack; indentation is capped so output stays linear in plan size.
#pragma once

#include <string>

#include "parser/plan.hpp"

namespace planlint {

std::string operator_summary(const Plan& plan, const Operator& op);  // "BroadcastHashJoin (8) [join Inner BuildRight]"
std::string plan_tree_text(const Plan& plan);
std::string parse_result_tree_text(const ParseResult& r);

}  // namespace planlint
