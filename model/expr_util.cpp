#include "model/expr_util.hpp"

#include <utility>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <cctype>

namespace planlint {
namespace {


}  // namespace

bool is_conjunction(const Expr& e) {
  return (e.kind == ExprKind::Binary && (e.name == "AND" || e.name == "and")) ||
         (e.kind == ExprKind::Function && e.name == "And") || e.kind == ExprKind::List;
}

namespace {

bool is_comparison(std::string_view op) {
  return op == "=" || op == "==" || op == "<=>" || op == "<" || op == "<=" || op == ">" ||
         op == ">=" || op == "!=" || op == "<>";
}

// Spark-internal wrappers that are not user functions on a column.
bool is_internal_wrapper(std::string_view lname) {
  static constexpr std::string_view kWrappers[] = {
      "knownfloatingpointnormalized", "normalizenanandzero", "promote_precision", "checkoverflow",
      "unscaledvalue", "makedecimal"};
  return std::find(std::begin(kWrappers), std::end(kWrappers), lname) != std::end(kWrappers);
}

bool is_column_function(std::string_view lname) {
  static constexpr std::string_view kFunctions[] = {
      "cast", "try_cast", "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear",
      "weekday", "weekofyear", "quarter", "hour", "minute", "second", "to_date", "to_timestamp",
      "date_format", "from_unixtime", "unix_timestamp", "to_unix_timestamp", "from_utc_timestamp",
      "to_utc_timestamp", "date_trunc", "trunc", "date_add", "date_sub", "add_months", "datediff",
      "last_day", "substr", "substring", "left", "right", "upper", "lower", "ucase", "lcase",
      "trim", "ltrim", "rtrim", "btrim", "concat", "concat_ws", "length", "char_length", "lpad",
      "rpad", "replace", "translate", "regexp_replace", "regexp_extract", "split", "coalesce",
      "nvl", "ifnull", "abs", "round", "floor", "ceil", "md5", "hash", "initcap"};
  return std::find(std::begin(kFunctions), std::end(kFunctions), lname) != std::end(kFunctions);
}

bool contains_attribute(const Expr& e) {
  std::vector<const Expr*> todo{&e};
  while (!todo.empty()) {
    const Expr* x = todo.back();
    todo.pop_back();
    if (x->kind == ExprKind::Attribute) return true;
    for (const auto& a : x->args) todo.push_back(&a);
  }
  return false;
}

// Peel casts Spark adds around literals: cast(2024-01-01 as date).
const Expr* peel_literal_cast(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast && x->args.size() == 1) x = &x->args[0];
  return x;
}

void print(const Expr& e, std::string& out);

void print_args(const std::vector<Expr>& args, std::size_t from, const char* sep, std::string& out) {
  for (std::size_t i = from; i < args.size(); ++i) {
    if (i > from) out += sep;
    print(args[i], out);
  }
}

// A function call; BETWEEN, a window expression and input[...] as Spark prints them.
void print_function(const Expr& e, std::string& out) {
  if (e.name == "BETWEEN" && e.args.size() == 3) {
    out += "(";
    print(e.args[0], out);
    out += " BETWEEN ";
    print(e.args[1], out);
    out += " AND ";
    print(e.args[2], out);
    out += ")";
    return;
  }
  if (e.name == "windowexpression" && e.args.size() == 2) {
    print(e.args[0], out);
    out += " ";
    print(e.args[1], out);
    return;
  }
  if (e.name == "input") {
    out += "input[";
    print_args(e.args, 0, ", ", out);
    out += "]";
    return;
  }
  out += e.name + "(";
  if (e.type == "distinct") out += "DISTINCT ";
  print_args(e.args, 0, ", ", out);
  out += ")";
}

// A binary operator (two arguments): aliases, subscripts, field access and LIKE without
// parentheses, every other operator inside them.
void print_binary(const Expr& e, std::string& out) {
  if (e.name == "AS") {
    print(e.args[0], out);
    out += " AS ";
    print(e.args[1], out);
    return;
  }
  if (e.name == "[]") {
    print(e.args[0], out);
    out += "[";
    print(e.args[1], out);
    out += "]";
    return;
  }
  if (e.name == ".") {
    print(e.args[0], out);
    out += ".";
    print(e.args[1], out);
    return;
  }
  if (e.name == "LIKE" || e.name == "RLIKE" || e.name == "ILIKE" || e.name == "REGEXP") {
    print(e.args[0], out);
    out += " " + e.name + " ";
    print(e.args[1], out);
    return;
  }
  out += "(";
  print(e.args[0], out);
  out += " " + e.name + " ";
  print(e.args[1], out);
  out += ")";
}

// A unary operator (one argument): NOT and signs before it, IS NULL, ASC NULLS FIRST, ... after.
void print_unary(const Expr& e, std::string& out) {
  if (e.name == "NOT") {
    out += "NOT ";
    print(e.args[0], out);
  } else if (e.name == "-" || e.name == "+" || e.name == "~") {
    out += e.name;
    print(e.args[0], out);
  } else {  // IS NULL, IS NOT NULL, ASC NULLS FIRST, ...
    print(e.args[0], out);
    out += " " + e.name;
  }
}

// CASE WHEN a THEN b ... [ELSE c] END: the arguments are the WHEN/THEN pairs, then the ELSE.
void print_case(const Expr& e, std::string& out) {
  out += "CASE";
  std::size_t i = 0;
  for (; i + 1 < e.args.size(); i += 2) {
    out += " WHEN ";
    print(e.args[i], out);
    out += " THEN ";
    print(e.args[i + 1], out);
  }
  if (i < e.args.size()) {
    out += " ELSE ";
    print(e.args[i], out);
  }
  out += " END";
}

void print(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::Attribute:
      out += e.name;
      if (!e.expr_id.empty()) out += "#" + e.expr_id;
      return;
    case ExprKind::Literal:
    case ExprKind::Raw:
      out += e.name;
      return;
    case ExprKind::Function:
      print_function(e, out);
      return;
    case ExprKind::Cast:
      out += e.name + "(";
      print_args(e.args, 0, ", ", out);
      out += " as " + e.type + ")";
      return;
    case ExprKind::Binary:
      if (e.args.size() != 2) break;
      print_binary(e, out);
      return;
    case ExprKind::Unary:
      if (e.args.size() != 1) break;
      print_unary(e, out);
      return;
    case ExprKind::In:
      if (e.args.empty()) break;
      print(e.args[0], out);
      out += " " + e.name + " (";
      print_args(e.args, 1, ",", out);
      out += ")";
      return;
    case ExprKind::InSubquery:
      if (e.args.empty()) break;
      print(e.args[0], out);
      out += " IN " + e.name + "#" + e.expr_id;
      return;
    case ExprKind::Case:
      print_case(e, out);
      return;
    case ExprKind::List:
      out += "[";
      print_args(e.args, 0, ", ", out);
      out += "]";
      return;
    case ExprKind::Subquery:
      if (e.type == "reused") out += "ReusedSubquery ";
      out += e.name + "#" + e.expr_id;
      return;
  }
  // Malformed node (never produced by the parser): print what there is.
  out += e.name;
  if (!e.args.empty()) {
    out += "(";
    print_args(e.args, 0, ", ", out);
    out += ")";
  }
}

}  // namespace

std::vector<const Expr*> split_conjuncts(const Expr& e) {
  std::vector<const Expr*> out;
  if (!is_conjunction(e)) {
    out.push_back(&e);  // the usual single predicate: one allocation, no work list
    return out;
  }
  out.reserve(8);
  // The work list lives on the stack up to kInline entries (a condition's AND nesting rarely goes
  // deeper), then in a vector.
  constexpr std::size_t kInline = 32;
  const Expr* inline_todo[kInline];
  std::size_t n = 0;
  std::vector<const Expr*> more;
  auto push = [&](const Expr* x) {
    if (n < kInline) inline_todo[n++] = x;
    else more.push_back(x);
  };
  auto pop = [&]() -> const Expr* {
    if (!more.empty()) {
      const Expr* x = more.back();
      more.pop_back();
      return x;
    }
    return inline_todo[--n];
  };
  push(&e);
  while (n > 0 || !more.empty()) {
    const Expr* x = pop();
    if (is_conjunction(*x)) {
      for (auto it = x->args.rbegin(); it != x->args.rend(); ++it) push(&*it);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

std::vector<const Expr*> collect_attributes(const Expr& e) {
  std::vector<const Expr*> out;
  std::vector<const Expr*> todo{&e};
  while (!todo.empty()) {
    const Expr* x = todo.back();
    todo.pop_back();
    if (x->kind == ExprKind::Attribute) out.push_back(x);
    for (auto it = x->args.rbegin(); it != x->args.rend(); ++it) todo.push_back(&*it);
  }
  return out;
}

std::string column_name(const Expr& attribute, bool unqualified) {
  std::string name;
  name.reserve(attribute.name.size());
  for (char c : attribute.name)
    if (c != '`') name.push_back(c);
  if (unqualified) {
    if (auto dot = name.rfind('.'); dot != std::string::npos && attribute.name.find('`') == std::string::npos)
      name = name.substr(dot + 1);
  }
  return name;
}

std::string to_string(const Expr& e) {
  std::string out;
  print(e, out);
  return out;
}

bool is_literal(const Expr& e) {
  const Expr* x = peel_literal_cast(e);
  while ((x->kind == ExprKind::Unary && (x->name == "-" || x->name == "+")) && x->args.size() == 1)
    x = peel_literal_cast(x->args[0]);
  return x->kind == ExprKind::Literal;
}

namespace {

// Whether `name` is `word`, a word of lower-case ASCII letters only, in any case (iequals): a
// byte with its 0x20 bit set is a lower-case letter only if it was that letter in either case,
// so eight bytes at a time are compared (the conjuncts' `isnotnull` is asked of every call).
bool is_letter_word_folded(std::string_view name, std::string_view word) noexcept {
  if (name.size() != word.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= name.size(); i += 8) {
    std::uint64_t a = 0, b = 0;
    std::memcpy(&a, name.data() + i, 8);
    std::memcpy(&b, word.data() + i, 8);
    if ((a | 0x2020202020202020ull) != b) return false;
  }
  for (; i < name.size(); ++i)
    if ((static_cast<unsigned char>(name[i]) | 0x20u) != static_cast<unsigned char>(word[i])) return false;
  return true;
}

// The v1 Filter names, one table for both directions.
constexpr std::pair<std::string_view, FilterOp> kFilterNames[] = {
    {"EqualTo", FilterOp::EqualTo}, {"EqualNullSafe", FilterOp::EqualNullSafe}, {"GreaterThan", FilterOp::GreaterThan},
    {"GreaterThanOrEqual", FilterOp::GreaterThanOrEqual}, {"LessThan", FilterOp::LessThan},
    {"LessThanOrEqual", FilterOp::LessThanOrEqual}, {"In", FilterOp::In}, {"IsNull", FilterOp::IsNull},
    {"IsNotNull", FilterOp::IsNotNull}, {"StringStartsWith", FilterOp::StringStartsWith},
    {"StringEndsWith", FilterOp::StringEndsWith}, {"StringContains", FilterOp::StringContains}};

std::string_view filter_name(FilterOp op) {
  for (const auto& [name, o] : kFilterNames)
    if (o == op) return name;
  return {};
}

// A Catalyst comparison operator as the v1 filter it is pushed as, seen from the column's side
// (`flipped`: the column is on the right). Other for anything else (also != and <>).
FilterOp comparison_filter(std::string_view op, bool flipped) {
  if (op == "=" || op == "==") return FilterOp::EqualTo;
  if (op == "<=>") return FilterOp::EqualNullSafe;
  if (op == ">") return flipped ? FilterOp::LessThan : FilterOp::GreaterThan;
  if (op == ">=") return flipped ? FilterOp::LessThanOrEqual : FilterOp::GreaterThanOrEqual;
  if (op == "<") return flipped ? FilterOp::GreaterThan : FilterOp::LessThan;
  if (op == "<=") return flipped ? FilterOp::GreaterThanOrEqual : FilterOp::LessThanOrEqual;
  return FilterOp::Other;
}

}  // namespace

std::string_view v1_filter_name(std::string_view op) { return filter_name(comparison_filter(op, false)); }

std::string_view flip_comparison(std::string_view op) {
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  return op;
}

std::optional<ColumnFilter> pushed_filter_parts(const Expr& f) {
  if (f.kind != ExprKind::Function || f.args.empty()) return std::nullopt;
  if (f.name == "And" || f.name == "Or" || f.name == "Not") return std::nullopt;
  if (f.args[0].kind != ExprKind::Attribute) return std::nullopt;
  ColumnFilter out;
  out.op = f.name;
  out.column = column_name(f.args[0]);
  if (f.args.size() > 1) out.value = &f.args[1];
  return out;
}

std::optional<CatalystFilter> catalyst_filter(const Expr& c) {
  auto column_of = [](const Expr& x) -> const Expr* {
    return x.kind == ExprKind::Attribute ? &x : nullptr;
  };
  CatalystFilter out;
  if (c.kind == ExprKind::Binary && c.args.size() == 2) {
    FilterOp op;
    if (const Expr* l = column_of(c.args[0]); l && (op = comparison_filter(c.name, false)) != FilterOp::Other &&
                                              is_literal(c.args[1])) {
      out.attribute = l;
      out.value = &c.args[1];
    } else if (const Expr* r = column_of(c.args[1]); r && (op = comparison_filter(c.name, true)) != FilterOp::Other &&
                                                     is_literal(c.args[0])) {
      out.attribute = r;
      out.value = &c.args[0];
    } else {
      return std::nullopt;  // != and <> are pushed as Not(EqualTo(..))
    }
    out.op = op;
    return out;
  }
  if (c.kind == ExprKind::Unary && c.args.size() == 1 &&
      (c.name == "IS NULL" || c.name == "IS NOT NULL")) {
    const Expr* a = column_of(c.args[0]);
    if (!a) return std::nullopt;
    out.op = c.name == "IS NULL" ? FilterOp::IsNull : FilterOp::IsNotNull;
    out.attribute = a;
    return out;
  }
  if (c.kind == ExprKind::Function && c.args.size() >= 1) {
    const Expr* a = column_of(c.args[0]);
    if (!a) return std::nullopt;
    auto is = [&c](std::string_view word) { return is_letter_word_folded(c.name, word); };
    if ((is("isnotnull") || is("isnull")) && c.args.size() == 1) {
      out.op = is("isnull") ? FilterOp::IsNull : FilterOp::IsNotNull;
    } else if (c.args.size() == 2 && (is("startswith") || is("endswith") || is("contains")) &&
               is_literal(c.args[1])) {
      out.op = is("startswith") ? FilterOp::StringStartsWith : is("endswith") ? FilterOp::StringEndsWith
                                                                               : FilterOp::StringContains;
      out.value = &c.args[1];
    } else {
      return std::nullopt;
    }
    out.attribute = a;
    return out;
  }
  if (c.kind == ExprKind::In && c.name == "IN" && !c.args.empty()) {
    const Expr* a = column_of(c.args[0]);
    if (!a) return std::nullopt;
    for (std::size_t i = 1; i < c.args.size(); ++i)
      if (!is_literal(c.args[i])) return std::nullopt;
    out.op = FilterOp::In;
    out.attribute = a;
    out.value = &c;
    return out;
  }
  return std::nullopt;
}

std::optional<ColumnFilter> catalyst_filter_parts(const Expr& c) {
  auto f = catalyst_filter(c);
  if (!f) return std::nullopt;
  ColumnFilter out;
  out.op = std::string(filter_name(f->op));
  out.column = column_name(*f->attribute);
  out.value = f->value;
  return out;
}

bool was_pushed(const Expr& conjunct, const std::vector<const Expr*>& pushed_filters) {
  const auto want = catalyst_filter_parts(conjunct);
  if (!want) return false;
  for (const Expr* p : pushed_filters) {
    if (!p) continue;
    for (const Expr* f : split_conjuncts(*p)) {
      const auto have = pushed_filter_parts(*f);
      if (have && have->op == want->op && have->column == want->column) return true;
    }
  }
  return false;
}

bool is_function_of_column(const Expr& e, std::string* function) {
  if (e.kind != ExprKind::Function && e.kind != ExprKind::Cast) return false;
  const std::string n = to_lower(e.name);
  if (is_internal_wrapper(n)) {
    // promote_precision(cast(x#1 as ...)): look through Spark's own wrapper
    return e.args.size() == 1 && is_function_of_column(e.args[0], function);
  }
  if (!is_column_function(n)) return false;
  if (!contains_attribute(e)) return false;
  if (function) *function = e.name;
  return true;
}

const Expr* non_sargable_side(const Expr& c) {
  if (c.kind != ExprKind::Binary || c.args.size() != 2) return nullptr;
  if (!is_comparison(c.name) && c.name != "LIKE") return nullptr;
  for (const Expr& side : c.args)
    if (is_function_of_column(side)) return &side;
  return nullptr;
}

FilterOp filter_op(std::string_view n) {
  for (const auto& [name, op] : kFilterNames)
    if (name == n) return op;
  return FilterOp::Other;
}

bool mentions_is_not_null(std::string_view t) {
  std::string s;
  s.reserve(t.size());
  for (char c : t) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s.find("is not null") != std::string::npos || s.find("isnotnull(") != std::string::npos;
}

namespace {
// Whether `e` or any expression inside it satisfies `hit` (iterative: no recursion on deep trees).
// The work list lives on the stack up to kInline entries (as in split_conjuncts), then in a vector:
// this runs for every conjunct a rule inspects. The order of the visits does not matter.
template <class Hit>
bool any_subexpression(const Expr& e, Hit hit) {
  constexpr std::size_t kInline = 32;
  const Expr* inline_todo[kInline];
  std::size_t n = 0;
  std::vector<const Expr*> more;
  inline_todo[n++] = &e;
  while (n > 0 || !more.empty()) {
    const Expr* x;
    if (!more.empty()) {
      x = more.back();
      more.pop_back();
    } else {
      x = inline_todo[--n];
    }
    if (hit(*x)) return true;
    for (const auto& a : x->args) {
      if (n < kInline) inline_todo[n++] = &a;
      else more.push_back(&a);
    }
  }
  return false;
}
}  // namespace

bool is_runtime_filter(const Expr& e) {
  return any_subexpression(e, [](const Expr& x) {
    if (x.kind == ExprKind::InSubquery || x.kind == ExprKind::Subquery) return true;
    if (x.kind != ExprKind::Function) return false;
    const std::string_view n = x.name;
    return iequals(n, "dynamicpruningexpression") || iequals(n, "might_contain") ||
           iequals(n, "bloom_filter_might_contain") || iequals(n, "hashedrelationcontains");
  });
}

bool is_bloom_filter(const Expr& e) {
  return any_subexpression(e, [](const Expr& x) {
    if (x.kind != ExprKind::Function) return false;
    const std::string_view n = x.name;
    return iequals(n, "might_contain") || iequals(n, "bloom_filter_might_contain") || iequals(n, "bloom_filter_agg");
  });
}

bool is_udf_call(const Expr& e) {
  if (e.kind != ExprKind::Function) return false;
  std::string n;
  for (char c : e.name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n.find("udf") != std::string::npos;
}

bool is_masked_expr_id(std::string_view id) { return id.empty() || id == "x" || id == "X"; }

bool handled_by_source(const Expr& f) { return f.type == "handled"; }

}  // namespace planlint
