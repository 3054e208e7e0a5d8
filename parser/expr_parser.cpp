// Placeholder until the expression grammar lands: keeps the raw text, parses nothing.
#include "parser/parse.hpp"

namespace planlint {

ParsedExpr parse_expression(std::string_view text, ExprDialect) {
  ParsedExpr e;
  e.text = std::string(text);
  e.error = "expression parser not available";
  return e;
}

}  // namespace planlint
