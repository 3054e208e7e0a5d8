// Actions of the expression parser for the leaves of an expression: literals, names, attributes,
// subqueries, and the text helpers they use (unquoting, literal types, operator spelling).
// Included by expr_actions.cpp, where the parse is instantiated.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/expression/expr_control.hpp"
#include "parser/expression/expr_state.hpp"
#include "support/strings.hpp"

namespace planlint::expr_parse {

// Upper-case keywords and collapse runs of blanks: "is  not null" -> "IS NOT NULL".
inline std::string normalise_op(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (is_blank_or_newline(c)) {
      blank = !out.empty();
      continue;
    }
    if (blank) out.push_back(' ');
    blank = false;
    out.push_back(ascii_upper(c));
  }
  return out;
}

// normalise_op(s) kept: a view of s when it is already normal (most operators: `AND`, `=`).
inline Text keep_op(const State& st, std::string_view s) {
  bool normal = !s.empty() && !is_blank_or_newline(s.front()) && !is_blank_or_newline(s.back());
  for (std::size_t i = 0; normal && i < s.size(); ++i) {
    const char c = s[i];
    // s[i + 1] exists after a blank: the last byte is not one.
    normal = !(c >= 'a' && c <= 'z') && c != '\t' && c != '\r' && c != '\n' && !(c == ' ' && s[i + 1] == ' ');
  }
  return normal ? st.keep(s) : st.keep_built(s, normalise_op(s));
}

// ASCII case-insensitive equality with an upper-case word.
inline std::string strip_backquotes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`') {
      if (i + 1 < s.size() && s[i + 1] == '`' && i + 2 < s.size()) {
        // `` inside a quoted segment is one backquote
        out.push_back('`');
        ++i;
      }
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

// strip_backquotes(s) kept: a view of s when it has no backquote.
inline Text keep_unquoted(const State& st, std::string_view s) {
  return s.find('`') == std::string_view::npos ? st.keep(s) : st.keep_built(s, strip_backquotes(s));
}

// A type for literal text as Spark prints it: 10 int, 10L bigint, 2.5 decimal, 1.0E3 double, ...
// A view of a literal (its size known: no strlen where the type is kept, ~0.4 M instructions on
// the golden plans).
inline std::string_view guess_literal_type(std::string_view t) {
  using namespace std::string_view_literals;
  if (t.empty()) return "string"sv;
  // A text that starts with neither a digit nor a sign (a word, a padded value: most raw values of
  // the pushed filters) is no number, no suffixed number and no date below: only null, true and
  // false are told from strings.
  if (const char f = t.front(); !(f >= '0' && f <= '9') && f != '-' && f != '+') {
    if (t == "null"sv) return "null"sv;
    if (t == "true"sv || t == "false"sv) return "boolean"sv;
    return "string"sv;
  }
  std::string_view body = t;
  if (body.front() == '-' || body.front() == '+') body.remove_prefix(1);
  if (body.empty()) return "string"sv;
  // Most literals are plain integers; no suffix below ends in a digit.
  if (all_digits(body)) return "int"sv;
  auto suffix_type = [&](std::string_view suffix, std::string_view type) -> std::string_view {
    if (body.size() > suffix.size() && body.substr(body.size() - suffix.size()) == suffix) {
      std::string_view num = body.substr(0, body.size() - suffix.size());
      bool ok = std::all_of(num.begin(), num.end(),
                            [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'E' ||
                                                c == 'e' || c == '-' || c == '+'; });
      if (ok && num.front() >= '0' && num.front() <= '9') return type;
    }
    return {};
  };
  if (const char last = body.back(); last == 'D' || last == 'L' || last == 'S' || last == 'Y' || last == 'F') {
    if (auto ty = suffix_type("BD"sv, "decimal"sv); !ty.empty()) return ty;
    if (auto ty = suffix_type("L"sv, "bigint"sv); !ty.empty()) return ty;
    if (auto ty = suffix_type("S"sv, "smallint"sv); !ty.empty()) return ty;
    if (auto ty = suffix_type("Y"sv, "tinyint"sv); !ty.empty()) return ty;
    if (auto ty = suffix_type("D"sv, "double"sv); !ty.empty()) return ty;
    if (auto ty = suffix_type("F"sv, "float"sv); !ty.empty()) return ty;
  }
  {
    bool dot = false, exp = false, ok = body.front() >= '0' && body.front() <= '9';
    for (std::size_t i = 0; ok && i < body.size(); ++i) {
      char c = body[i];
      if (c >= '0' && c <= '9') continue;
      if (c == '.' && !dot && !exp) { dot = true; continue; }
      if ((c == 'E' || c == 'e') && !exp) {
        exp = true;
        if (i + 1 < body.size() && (body[i + 1] == '-' || body[i + 1] == '+')) ++i;
        continue;
      }
      ok = false;
    }
    if (ok && exp) return "double"sv;
    if (ok && dot) return "decimal"sv;
  }
  // 2024-01-01 and 2024-01-01 12:00:00
  if (t.size() >= 10 && all_digits(t.substr(0, 4)) && t[4] == '-' && all_digits(t.substr(5, 2)) &&
      t[7] == '-' && all_digits(t.substr(8, 2))) {
    return t.size() == 10 ? "date"sv : "timestamp"sv;
  }
  return "string"sv;
}


// ---------------------------------------------------------------- leaf actions

template <typename Rule, ExprKind Kind>
struct literal_action {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, Kind, st.keep(in.string_view()), in);
    e.type = Text::stable(guess_literal_type(e.name));
  }
};

template <>
struct action<g::number> : literal_action<g::number, ExprKind::Literal> {};
template <>
struct action<g::date_literal> : literal_action<g::date_literal, ExprKind::Literal> {};
template <>
struct action<g::month_literal> : literal_action<g::month_literal, ExprKind::Literal> {};
template <>
struct action<g::datetime_pattern> : literal_action<g::datetime_pattern, ExprKind::Literal> {};
template <>
struct action<g::bool_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, st.keep(in.string_view()), in);
    e.type = "boolean";
  }
};
template <>
struct action<g::null_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, "null", in);
    e.type = "null";
  }
};
template <>
struct action<g::ellipsis> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    st.truncated = true;
    push_leaf(st, ExprKind::Raw, st.keep(in.string_view()), in);
  }
};

// 'it''s' -> it's ; "a\"b" -> a"b ; DATE '2024-01-01' -> type date
inline std::string unquote(std::string_view q) {
  std::string out;
  if (q.size() < 2) return std::string(q);
  const char quote = q.front();
  q = q.substr(1, q.size() - 2);
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] == '\\' && i + 1 < q.size()) {
      out.push_back(q[++i]);
    } else if (q[i] == quote && i + 1 < q.size() && q[i + 1] == quote) {
      out.push_back(quote);
      ++i;
    } else {
      out.push_back(q[i]);
    }
  }
  return out;
}

// unquote(q) kept: a view of the text between the quotes when nothing was unescaped.
inline Text unquoted(const State& st, std::string_view q) {
  return q.size() < 2 ? st.keep(q) : st.keep_built(q.substr(1, q.size() - 2), unquote(q));
}

template <>
struct action<g::sql_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    const std::string_view t = in.string_view();
    Expr& e = push_leaf(st, ExprKind::Literal, "", in);
    const std::size_t q = t.find_first_of("'\"");
    if (q == 0) {
      e.name = unquoted(st, t);
      e.type = "string";
    } else {
      const std::string prefix = normalise_op(t.substr(0, q == std::string_view::npos ? t.size() : q));
      const std::size_t end = t.rfind(t[q]);
      e.name = unquoted(st, t.substr(q, end - q + 1));
      e.type = prefix == "DATE" ? Text("date") : prefix == "TIMESTAMP_NTZ" ? Text("timestamp_ntz") : Text("timestamp");
    }
  }
};

template <>
struct action<g::interval_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, st.keep(in.string_view()), in);
    e.type = "interval";
  }
};

template <>
struct action<g::raw_value> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, st.keep(trim(in.string_view())), in);
    e.type = Text::stable(guess_literal_type(e.name));
  }
};

template <>
struct action<g::attribute> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Attribute, "", in);
    split_attribute(st, in.string_view(), e.name, e.expr_id);
  }
};

// `(avg(x) * 1.2)#31`: the previous node's text becomes the attribute's name.
template <>
struct action<g::attr_suffix> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    Item prev = pop(st);
    Expr e;
    e.kind = ExprKind::Attribute;
    e.begin = prev.e.begin;
    e.end = st.offset(in.end());
    const std::string_view whole(st.base + e.begin, e.end - e.begin);
    split_attribute(st, whole, e.name, e.expr_id);
    push(st, std::move(e));
  }
};

template <>
struct action<g::bare_name> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.allows(g::kBareIsColumn)) {
      push_leaf(st, ExprKind::Attribute, keep_unquoted(st, in.string_view()), in);
    } else {
      Expr& e = push_leaf(st, ExprKind::Literal, keep_unquoted(st, in.string_view()), in);
      e.type = "string";
    }
  }
};

template <>
struct action<g::bare_word> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, st.keep(in.string_view()), in);
    e.type = Text::stable(guess_literal_type(e.name));
  }
};

// An alias is read as an attribute: `name#12`.
template <>
struct action<g::alias_text> : action<g::attribute> {};

template <>
struct action<g::subquery_expr> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    std::string_view t = in.string_view();
    Expr& e = push_leaf(st, ExprKind::Subquery, "", in);
    if (t.rfind("ReusedSubquery", 0) == 0) e.type = "reused";
    if (auto tag = t.find(", ["); tag != std::string_view::npos) t = t.substr(0, tag);
    else if (auto tag2 = t.find(",["); tag2 != std::string_view::npos) t = t.substr(0, tag2);
    // last word: scalar-subquery#51
    const std::size_t sp = t.find_last_of(" \t\r\n");
    if (sp != std::string_view::npos) t = t.substr(sp + 1);
    split_attribute(st, t, e.name, e.expr_id);
  }
};

// Operator tokens: pushed as Raw nodes and consumed by the reductions below.

}  // namespace planlint::expr_parse
