// Entry of the expression reader: the dialects and the grammar each reads with. The parser is
// split as in PEGTL's examples: expr_state.hpp (the node stack and its helpers), expr_control.hpp
// (marks, nesting count, the token fast path), expr_errors.hpp (one message per `must<>`),
// expr_leaf_actions.hpp, expr_pushed_filter.hpp and expr_actions.cpp (the actions and the parse).
#include "parser/expression/expression.hpp"

#include "grammar/expression.hpp"
#include "parser/expression/expr_state.hpp"

namespace planlint {

ParsedExpr parse_expression(TextStore& store, Text text, ExprDialect dialect) {
  namespace g = grammar::expr;
  using expr_parse::ExprGrammar;
  switch (dialect) {
    case ExprDialect::PushedFilter:
      return expr_parse::run_grammar(ExprGrammar::PushedFilter, store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Sql:
      return expr_parse::run_grammar(ExprGrammar::Catalyst, store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Catalyst:
    default:
      return expr_parse::run_grammar(ExprGrammar::Catalyst, store, text, g::kRawLiterals);
  }
}

}  // namespace planlint
