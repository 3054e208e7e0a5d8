// The error message of every rule of grammar/expression.hpp that a `must<>` can raise, as in
// PEGTL's JSON example (json_errors.hpp). The primary template is nullptr, which means "no
// message": control<Rule>::raise (expr_control.hpp) refuses to compile for such a rule, so a new
// `must<>` needs its message here before it builds.
#pragma once

#include <tao/pegtl.hpp>

#include "grammar/expression.hpp"

namespace planlint::expr_parse {

namespace g = grammar::expr;

template <typename Rule>
inline constexpr const char* error_message = nullptr;

template <>
inline constexpr const char* error_message<g::paren_close> = "expected ')' to close the parenthesis";
template <>
inline constexpr const char* error_message<g::call_close> = "expected ')' after function arguments";
template <>
inline constexpr const char* error_message<g::in_close> = "expected ')' to close the IN list";
template <>
inline constexpr const char* error_message<g::cast_close> = "expected ')' after cast type";
template <>
inline constexpr const char* error_message<g::cast_operand> = "expected an expression after 'cast('";
template <>
inline constexpr const char* error_message<g::cast_as> = "expected 'as' after the cast operand";
template <>
inline constexpr const char* error_message<g::cast_type> = "expected a type after 'as' in cast";
template <>
inline constexpr const char* error_message<g::bracket_close> = "expected ']'";
template <>
inline constexpr const char* error_message<g::pf_close> = "expected ')' after filter arguments";
template <>
inline constexpr const char* error_message<g::case_condition> = "expected a condition after WHEN";
template <>
inline constexpr const char* error_message<g::case_then> = "expected THEN after the WHEN condition";
template <>
inline constexpr const char* error_message<g::case_value> = "expected a value after THEN / ELSE";
template <>
inline constexpr const char* error_message<g::case_end> = "expected END to close CASE";
template <>
inline constexpr const char* error_message<g::comparand> = "expected an operand after the comparison operator";
template <>
inline constexpr const char* error_message<g::not_expr> = "expected an operand after AND / OR";
template <>
inline constexpr const char* error_message<g::and_expr> = "expected an operand after OR";
template <>
inline constexpr const char* error_message<g::additive> = "expected an operand in BETWEEN";
template <>
inline constexpr const char* error_message<g::kw_and> = "expected AND in BETWEEN";
template <>
inline constexpr const char* error_message<g::alias_name> = "expected a name after AS";
template <>
inline constexpr const char* error_message<g::expression> = "expected an expression";
template <>
inline constexpr const char* error_message<g::digits> = "expected digits in the exponent";
template <>
inline constexpr const char* error_message<g::eof> = "unexpected text after the expression";
template <>
inline constexpr const char* error_message<g::one<'\''>> = "unterminated string literal";
template <>
inline constexpr const char* error_message<g::one<'"'>> = "unterminated string literal";
template <>
inline constexpr const char* error_message<g::one<'`'>> = "unterminated backquoted name";

}  // namespace planlint::expr_parse
