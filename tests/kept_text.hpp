// Texts a test hands to the model (Text views) kept for the whole test process.
#pragma once

#include <string_view>

#include "support/text.hpp"
#include "parser/expression/expression.hpp"

namespace planlint::test {

inline TextStore& store() {
  static TextStore s;  // a test process is one thread
  return s;
}

inline Text kept(std::string_view s) { return store().keep(s); }

// parse_expression over a text of the test (a std::string, a view into one).
inline ParsedExpr parse_kept(std::string_view s, ExprDialect d = ExprDialect::Catalyst) {
  return parse_expression(store(), kept(s), d);
}

}  // namespace planlint::test
