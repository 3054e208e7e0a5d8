// Questions rules ask about a parsed expression (model/expr.hpp). Pure functions over the tree;
// nothing here re-reads text.
//
// Shapes produced by parse_expression that these helpers rely on:
//   a AND b          Binary "AND"              (also "OR", "=", "<=>", "!=", "<>", "<", "<=", ">",
//                                               ">=", "+", "-", "*", "/", "%", "||", "LIKE", "RLIKE")
//   NOT a            Unary "NOT"               x IS NULL / x IS NOT NULL: Unary "IS NULL" / "IS NOT NULL"
//   x IN (a, b)      In "IN" / "NOT IN", args[0] = x, args[1..] = values
//   x IN dynamicpruning#5   InSubquery, name "dynamicpruning", expr_id "5", args[0] = x
//   e AS name#12     Binary "AS", args = {e, Attribute}
//   a#1 ASC NULLS FIRST     Unary "ASC NULLS FIRST" (any of ASC/DESC [NULLS FIRST|LAST])
//   a#1[0] / a#1.f   Binary "[]" / Binary "."
//   x BETWEEN a AND b       Function "BETWEEN" {x, a, b}
//   Subquery scalar-subquery#51, [id=#52]   Subquery, name "scalar-subquery", expr_id "51",
//                                            type "reused" for ReusedSubquery
//   v1 pushed filters  Function "GreaterThan" {Attribute amount, Literal 50.00}; type "handled"
//                      when Spark marked it with a leading `*`; In(c, [1,2]) = {Attribute, List}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/expr.hpp"
#include "support/strings.hpp"

namespace planlint {

// The AND-conjuncts of a condition, left to right: `((a AND b) AND c)` gives a, b, c. Also flattens
// the pushed-filter form And(a, b) and a top-level list `[f1, f2]` (PushedFilters, PartitionFilters).
// Anything else gives itself.
std::vector<const Expr*> split_conjuncts(const Expr& e);
// An AND (Binary AND / and, Function And) or a top-level list: what split_conjuncts flattens.
bool is_conjunction(const Expr& e);
namespace detail {
// The conjuncts under the conjunction `e`, in split_conjuncts' order (its work list pops the
// arguments of a conjunction left to right, each conjunction's own before the next argument: a
// walk in pre-order). Recursion to a depth of 16 conjunctions, then split_conjuncts for what is
// below (its work list, not the stack, bears a deep AND chain of a hostile input).
template <class Fn>
void for_each_conjunct_below(const Expr& e, Fn& fn, unsigned depth) {
  for (const Expr& a : e.args) {
    if (!is_conjunction(a)) fn(a);
    else if (depth < 16) for_each_conjunct_below(a, fn, depth + 1);
    else
      for (const Expr* c : split_conjuncts(a)) fn(*c);
  }
}
}  // namespace detail

// fn(const Expr&) for each conjunct, as split_conjuncts lists them, without building the list
// (two rules walk every Filter's condition: a vector and a work list each time cost more than the
// walk).
template <class Fn>
void for_each_conjunct(const Expr& e, Fn&& fn) {
  if (!is_conjunction(e)) {
    fn(e);
    return;
  }
  detail::for_each_conjunct_below(e, fn, 0);
}

// Every Attribute node in `e`, in source order (duplicates kept).
std::vector<const Expr*> collect_attributes(const Expr& e);

// The column an attribute names, without `#id` and without backquotes: `ss_item_sk#12` ->
// `ss_item_sk`. With `unqualified`, only the last dotted segment (`cs.cs_item_sk` -> `cs_item_sk`).
std::string column_name(const Expr& attribute, bool unqualified = false);

// Canonical one-line text of an expression, in Catalyst's printing style (`(a#1 = 5)`,
// `cast(x#1 as date)`, `x#1 IN (1,2)`). Two trees print the same exactly when they are the same.
std::string to_string(const Expr& e);

// A literal value (10, 'x', DATE '2024-01-01', null), also through casts and unary minus:
// `cast(2024-01-01 as date)` is a literal.
bool is_literal(const Expr& e);

// ASCII case folding (plan keywords and names): ascii_lower, iequals in support/strings.hpp.

// Catalyst comparison operator -> v1 Filter name: "=" EqualTo, "<=>" EqualNullSafe, ">"
// GreaterThan, ">=" GreaterThanOrEqual, "<" LessThan, "<=" LessThanOrEqual. Empty if none.
std::string_view v1_filter_name(std::string_view catalyst_op);
// The operator seen from the other side: ">" -> "<", "<=" -> ">=", "=" -> "=".
std::string_view flip_comparison(std::string_view catalyst_op);

// One simple filter on one column: `GreaterThan(amount,50.00)`, `IsNotNull(c)`, `In(c, [a,b])`,
// `StringStartsWith(c,x)`, or the Catalyst predicate that Spark would push as that filter.
struct ColumnFilter {
  std::string op;            // v1 Filter name: EqualTo, GreaterThan, In, IsNotNull, StringStartsWith, ...
  std::string column;        // column name without #id
  const Expr* value = nullptr;  // the compared value / IN list / prefix; null for IsNull, IsNotNull
};

// The v1 Filter names, typed.
enum class FilterOp : std::uint8_t {
  Other, EqualTo, EqualNullSafe, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual, In, IsNull, IsNotNull,
  StringStartsWith, StringEndsWith, StringContains
};
FilterOp filter_op(std::string_view v1_name);

// An expression id that Spark's test goldens masked (`a#x`): it identifies nothing.
bool is_masked_expr_id(std::string_view expr_id);

// The printed predicate text mentions a not-null check in any dialect (`(c IS NOT NULL)`,
// `isnotnull(c#1)`, `IsNotNull(c)`), case-insensitively.
bool mentions_is_not_null(std::string_view text);

// A runtime filter the optimizer adds (dynamic partition pruning, bloom-filter `might_contain`,
// hashed-relation probes, IN subqueries) anywhere in `e`: never pushed, never the user's predicate.
bool is_runtime_filter(const Expr& e);
// A bloom-filter runtime-filter expression (`might_contain`, `bloom_filter_agg`) anywhere in `e`.
bool is_bloom_filter(const Expr& e);

// A call of a user-defined function (`UDF(x)`, `my_udf(x)`, `pythonUDF0(x)`): its name says so.
bool is_udf_call(const Expr& e);

// A pushed filter that the source marked as fully handled (`*IsNotNull(id)` in JDBC scans).
bool handled_by_source(const Expr& pushed_filter);

// A pushed filter node (ExprDialect::PushedFilter) as op + column. nullopt for And/Or/Not and
// anything that is not a one-column filter.
std::optional<ColumnFilter> pushed_filter_parts(const Expr& filter);

// The v1 filter a Catalyst conjunct corresponds to: `(a#1 > 5)` -> GreaterThan a, `(5 < a#1)` ->
// GreaterThan a, `isnotnull(a#1)` -> IsNotNull a, `a#1 IN (1,2)` -> In a, `StartsWith(a#1, x)` ->
// StringStartsWith a. nullopt when the conjunct is not a plain column-vs-literal predicate (for
// example when the column is wrapped in a function: that filter cannot be pushed).
std::optional<ColumnFilter> catalyst_filter_parts(const Expr& conjunct);
// The same, typed and without building strings: the v1 operator, the Attribute node and the value.
struct CatalystFilter {
  FilterOp op = FilterOp::Other;
  const Expr* attribute = nullptr;
  const Expr* value = nullptr;
};
std::optional<CatalystFilter> catalyst_filter(const Expr& conjunct);

// Whether a Catalyst conjunct appears among the pushed filters (the whole PushedFilters list or
// single filters): same v1 operator on the same column. Compares columns by name only.
bool was_pushed(const Expr& conjunct, const std::vector<const Expr*>& pushed_filters);

// True when `e` is a function or cast applied to a column (a non-sargable predicate side):
// cast / try_cast / year / month / to_date / date_format / substr / substring / upper / lower /
// trim / date_trunc / ... with an Attribute among its (nested) arguments. `function` receives the
// function's name. isnull / isnotnull and Spark's internal wrappers do not count.
bool is_function_of_column(const Expr& e, std::string* function = nullptr);

// The side of a comparison (`Binary` =, <, ... or LIKE) that wraps a column in a function, or null.
const Expr* non_sargable_side(const Expr& comparison);

}  // namespace planlint
