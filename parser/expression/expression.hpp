// The expression reader: one printed expression (a Catalyst expression of an explain plan, a SQL
// text, a pushed filter) into the model's Expr tree (model/expr.hpp).
#pragma once

#include "model/expr.hpp"
#include "model/plan.hpp"

namespace planlint {

// One printed expression in the given dialect. Never throws; depth is bounded. The result views
// `text` (a plan's Text, a literal): it must outlive the result. Names the parser builds (an
// unquoted literal, an upper-cased operator) are kept in `store` (the plan's).
ParsedExpr parse_expression(TextStore& store, Text text, ExprDialect dialect = ExprDialect::Catalyst);

}  // namespace planlint
