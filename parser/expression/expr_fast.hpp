// A hand-written reader for the commonest shapes of printed expressions, in front of the PEGTL
// grammar (grammar/expression.hpp): attribute references (`ss_item_sk#12`, `key#x`), plain
// numbers, calls (`isnotnull(a#1)`, `coalesce(a#1, 0)`, `f(a#1, )`), parentheses, the comparisons,
// AND / OR / NOT, `IS [NOT] NULL`, `x IN (...)`, `x IN dynamicpruning#5`, arithmetic with `+ - * /`
// (`(2 * refund#36)`, `CheckOverflow((0.90 * promote_precision(x#45)), ...)`), and the v1 pushed-filter
// calls without blanks (`IsNotNull(a)`, `EqualTo(d_year,2000)`).
//
// It gives exactly the tree, spans and names the grammar gives (tests/parser/expression/
// test_expr_fast.cpp compares the two on every expression of the corpora and on random and
// mutated ones), or declines: on any byte, word or shape it is not sure of (a keyword in another
// spelling, a blank other than ' ', a suffix, unary minus, a raw literal, ...) it returns false
// and the grammar reads the text. It never reports an error: text that does not parse is always
// the grammar's to describe.
#pragma once

#include "model/expr.hpp"
#include "model/plan.hpp"

namespace planlint::expr_parse {

// The expression `text` in `dialect` (Catalyst or PushedFilter; Sql is always declined) into
// `out`, as parse_expression would give it; false, with `out` unspecified, when declined.
// Argument lists are allocated as the grammar's are (in `store` while its BlockScope is open).
bool fast_parse(TextStore& store, Text text, ExprDialect dialect, ParsedExpr& out);

// The grammar alone (what parse_expression does when fast_parse declines; expression.cpp).
ParsedExpr parse_with_grammar(TextStore& store, Text text, ExprDialect dialect);

}  // namespace planlint::expr_parse
