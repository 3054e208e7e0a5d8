// Entry of the expression reader: the dialects and the grammar each reads with. The parser is
// split as in PEGTL's examples: expr_state.hpp (the node stack and its helpers), expr_control.hpp
// (marks, nesting count, the token fast path), expr_errors.hpp (one message per `must<>`),
// expr_leaf_actions.hpp, expr_pushed_filter.hpp and expr_actions.cpp (the actions and the parse).
// In front of the grammar, expr_fast.cpp reads the commonest shapes by hand (the same trees).
#include "parser/expression/expression.hpp"

#include "grammar/expression.hpp"
#include "parser/expression/expr_fast.hpp"
#include "parser/expression/expr_state.hpp"

namespace planlint {

namespace expr_parse {

ParsedExpr parse_with_grammar(TextStore& store, Text text, ExprDialect dialect) {
  namespace g = grammar::expr;
  switch (dialect) {
    case ExprDialect::PushedFilter:
      return run_grammar(ExprGrammar::PushedFilter, store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Sql:
      return run_grammar(ExprGrammar::Catalyst, store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Catalyst:
    default:
      return run_grammar(ExprGrammar::Catalyst, store, text, g::kRawLiterals);
  }
}

}  // namespace expr_parse

// One object returned on both paths (named return value optimisation): with `return out;` on one
// and the grammar's result on the other, the fast path's tree was copied out on every call.
ParsedExpr parse_expression(TextStore& store, Text text, ExprDialect dialect) {
  ParsedExpr out;
  if (!expr_parse::fast_parse(store, text, dialect, out)) out = expr_parse::parse_with_grammar(store, text, dialect);
  return out;
}

}  // namespace planlint
