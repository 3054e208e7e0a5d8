// Actions for grammar/expression.hpp: build the Expr tree of one printed expression.
//
// The actions keep a stack of finished nodes. Every rule records the stack height when it starts;
// when it fails, whatever it pushed is dropped again (control::failure), so backtracking never
// leaves stray nodes. Reductions (`a AND b`, `f(x, y)`) pop what their sub-rules pushed since the
// rule started. Nesting is bounded twice: the control counts the `nesting<>` rules (parentheses,
// calls, lists, NOT, unary minus; kMaxNesting), and every node carries its height so long flat
// chains (`a OR b OR c ...` in SQL text) cannot build a tree whose destructor would recurse too
// deeply (kMaxHeight).
#include <algorithm>
#include <cctype>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "grammar/expression.hpp"
#include "parser/registry/parse.hpp"

namespace planlint {
namespace {

namespace g = grammar::expr;
namespace pegtl = tao::pegtl;

constexpr std::size_t kMaxNesting = 200;
constexpr std::uint32_t kMaxHeight = 2000;

struct Item {
  // Constructors, not an aggregate: emplace_back(e, height) must also compile where parenthesised
  // aggregate initialisation is missing (clang 14, the fuzz build).
  Item() = default;
  Item(Expr expr, std::uint32_t h) : e(std::move(expr)), height(h) {}
  Expr e;
  std::uint32_t height = 1;
};

// Stack heights at the start of each rule being tried: pushed and popped for most rules the
// parser tries, so kept as plain stores into a buffer that only grows.
class MarkStack {
 public:
  void push(std::size_t height) {
    if (n_ == buf_.size()) [[unlikely]]
      grow();
    buf_[n_++] = height;
  }
  void pop() { --n_; }
  [[nodiscard]] std::size_t back() const { return buf_[n_ - 1]; }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  void clear() { n_ = 0; }

 private:
  [[gnu::noinline]] void grow() { buf_.resize(n_ == 0 ? 256 : 2 * n_); }
  std::vector<std::size_t> buf_;
  std::size_t n_ = 0;
};

struct State {
  const char* base = nullptr;
  std::size_t size = 0;
  TextStore* store = nullptr;  // the plan's: names the parser builds
  unsigned flags = 0;
  std::vector<Item> stack;
  std::vector<std::vector<Item>> spare;  // emptied lists of children, reused by take_since_mark
  MarkStack marks;
  std::size_t depth = 0;
  bool truncated = false;

  void reset(const char* b, std::size_t n, TextStore* s, unsigned f) {
    base = b;
    size = n;
    store = s;
    flags = f;
    stack.clear();
    marks.clear();
    depth = 0;
    truncated = false;
  }
  bool allows(unsigned f) const { return (flags & f) != 0; }
  std::uint32_t offset(const char* p) const { return static_cast<std::uint32_t>(p - base); }
  // A name for the tree: a view when it is a part of the expression's text, else kept in the store.
  Text keep(std::string_view s) const {
    if (s.empty()) return {};
    const auto p = reinterpret_cast<std::uintptr_t>(s.data());
    const auto b = reinterpret_cast<std::uintptr_t>(base);
    if (p >= b && p + s.size() <= b + size) return Text::stable(s);
    return store->keep(s);
  }
  // `built` from `from` (unquoted, upper-cased, ...): a view of `from` when nothing changed.
  Text keep_built(std::string_view from, const std::string& built) const {
    return built == from ? keep(from) : keep(built);
  }
};

std::string_view trim_view(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
bool is_op_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Upper-case keywords and collapse runs of blanks: "is  not null" -> "IS NOT NULL".
std::string normalise_op(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (is_op_blank(c)) {
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
Text keep_op(const State& st, std::string_view s) {
  bool normal = !s.empty() && !is_op_blank(s.front()) && !is_op_blank(s.back());
  for (std::size_t i = 0; normal && i < s.size(); ++i) {
    const char c = s[i];
    // s[i + 1] exists after a blank: the last byte is not one.
    normal = !(c >= 'a' && c <= 'z') && c != '\t' && c != '\r' && c != '\n' && !(c == ' ' && s[i + 1] == ' ');
  }
  return normal ? st.keep(s) : st.keep_built(s, normalise_op(s));
}

// ASCII case-insensitive equality with an upper-case word.
bool equals_upper(std::string_view s, std::string_view upper) {
  if (s.size() != upper.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (ascii_upper(s[i]) != upper[i]) return false;
  return true;
}

std::string strip_backquotes(std::string_view s) {
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
Text keep_unquoted(const State& st, std::string_view s) {
  return s.find('`') == std::string_view::npos ? st.keep(s) : st.keep_built(s, strip_backquotes(s));
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A type for literal text as Spark prints it: 10 int, 10L bigint, 2.5 decimal, 1.0E3 double, ...
const char* guess_literal_type(std::string_view t) {
  if (t.empty()) return "string";
  std::string_view body = t;
  if (body.front() == '-' || body.front() == '+') body.remove_prefix(1);
  if (body.empty()) return "string";
  // Most literals are plain integers; no suffix below ends in a digit.
  if (all_digits(body)) return "int";
  auto suffix_type = [&](std::string_view suffix, const char* type) -> const char* {
    if (body.size() > suffix.size() && body.substr(body.size() - suffix.size()) == suffix) {
      std::string_view num = body.substr(0, body.size() - suffix.size());
      bool ok = std::all_of(num.begin(), num.end(),
                            [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'E' ||
                                                c == 'e' || c == '-' || c == '+'; });
      if (ok && num.front() >= '0' && num.front() <= '9') return type;
    }
    return nullptr;
  };
  if (const char last = body.back(); last == 'D' || last == 'L' || last == 'S' || last == 'Y' || last == 'F') {
    if (auto* ty = suffix_type("BD", "decimal")) return ty;
    if (auto* ty = suffix_type("L", "bigint")) return ty;
    if (auto* ty = suffix_type("S", "smallint")) return ty;
    if (auto* ty = suffix_type("Y", "tinyint")) return ty;
    if (auto* ty = suffix_type("D", "double")) return ty;
    if (auto* ty = suffix_type("F", "float")) return ty;
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
    if (ok && exp) return "double";
    if (ok && dot) return "decimal";
  }
  // 2024-01-01 and 2024-01-01 12:00:00
  if (t.size() >= 10 && all_digits(t.substr(0, 4)) && t[4] == '-' && all_digits(t.substr(5, 2)) &&
      t[7] == '-' && all_digits(t.substr(8, 2))) {
    return t.size() == 10 ? "date" : "timestamp";
  }
  if (t == "null") return "null";
  if (t == "true" || t == "false") return "boolean";
  return "string";
}

// ---------------------------------------------------------------- stack helpers
void push(State& st, Expr&& e, std::uint32_t height = 1) {
  st.stack.emplace_back(std::move(e), height);
}

Item pop(State& st) {
  Item it = std::move(st.stack.back());
  st.stack.pop_back();
  return it;
}

template <typename ParseInput>
[[noreturn]] void too_deep(const ParseInput& in) {
  throw pegtl::parse_error("expression nested too deeply", in);
}

// Build a node over children, checking the height bound.
template <typename ParseInput>
void push_node(State& st, const ParseInput& in, Expr e, std::vector<Item>&& kids) {
  std::uint32_t h = 0;
  e.args.reserve(kids.size());
  for (auto& k : kids) {
    h = std::max(h, k.height);
    e.args.push_back(std::move(k.e));
  }
  if (h + 1 > kMaxHeight) too_deep(in);
  push(st, std::move(e), h + 1);
  // The emptied list is kept for the next take_since_mark (one heap block per call node before).
  kids.clear();
  if (kids.capacity() <= 64 && st.spare.size() < 16) st.spare.push_back(std::move(kids));
}

// Everything the current rule pushed since it started.
std::vector<Item> take_since_mark(State& st) {
  const std::size_t mark = st.marks.empty() ? 0 : st.marks.back();
  std::vector<Item> out;
  if (!st.spare.empty()) {
    out = std::move(st.spare.back());
    st.spare.pop_back();
  }
  if (mark >= st.stack.size()) return out;
  out.reserve(st.stack.size() - mark);
  for (std::size_t i = mark; i < st.stack.size(); ++i) out.push_back(std::move(st.stack[i]));
  st.stack.resize(mark);
  return out;
}

// Where the items the current rule pushed start on the stack.
std::size_t current_mark(const State& st) { return st.marks.empty() ? 0 : std::min(st.marks.back(), st.stack.size()); }

// `e` over the stack items from `from` to the top (they are moved into its arguments, with no
// list in between as take_since_mark + push_node would build), checking the height bound; the
// stack is cut to `to` (<= from) before `e` goes on it.
template <typename ParseInput>
void reduce_from(State& st, const ParseInput& in, Expr&& e, std::size_t from, std::size_t to) {
  std::uint32_t h = 0;
  const std::size_t n = st.stack.size();
  e.args.reserve(n - from);
  for (std::size_t i = from; i < n; ++i) {
    h = std::max(h, st.stack[i].height);
    e.args.push_back(std::move(st.stack[i].e));
  }
  if (h + 1 > kMaxHeight) too_deep(in);
  st.stack.resize(to);
  push(st, std::move(e), h + 1);
}
template <typename ParseInput>
void reduce_from(State& st, const ParseInput& in, Expr&& e, std::size_t from) {
  reduce_from(st, in, std::move(e), from, from);
}

template <typename ParseInput>
Expr make(ExprKind k, Text name, const ParseInput& in, const State& st) {
  Expr e;
  e.kind = k;
  e.name = name;
  e.begin = st.offset(in.begin());
  e.end = st.offset(in.end());
  return e;
}

// A leaf built where it stays, on top of the stack (not built aside, moved there and destroyed).
// The reference holds until the next push.
template <typename ParseInput>
Expr& push_leaf(State& st, ExprKind k, Text name, const ParseInput& in) {
  Expr& e = st.stack.emplace_back().e;
  e.kind = k;
  e.name = name;
  e.begin = st.offset(in.begin());
  e.end = st.offset(in.end());
  return e;
}

// "name#12L" / "#x" / "sum(x)#40L-T100ms" -> name and id.
void split_attribute(const State& st, std::string_view text, Text& name, Text& id) {
  const std::size_t hash = text.rfind('#');
  if (hash == std::string_view::npos) {
    name = st.keep(text);
    return;
  }
  name = st.keep(text.substr(0, hash));
  std::string_view rest = text.substr(hash + 1);
  if (auto w = rest.find("-T"); w != std::string_view::npos) rest = rest.substr(0, w);
  id = st.keep(rest);
}

// A node `kind` `name` over two items, spanning from the first to the end of `in`.
template <typename ParseInput>
void combine_two(State& st, const ParseInput& in, ExprKind kind, Text name, Item first, Item second) {
  Expr e;
  e.kind = kind;
  e.name = name;
  e.begin = first.e.begin;
  e.end = st.offset(in.end());
  // As push_node, without a vector of two items in between.
  const std::uint32_t h = std::max(first.height, second.height);
  e.args.reserve(2);
  e.args.push_back(std::move(first.e));
  e.args.push_back(std::move(second.e));
  if (h + 1 > kMaxHeight) too_deep(in);
  push(st, std::move(e), h + 1);
}

// A binary reduction: the stack holds lhs, op (a Raw node), rhs.
template <typename ParseInput>
void reduce_binary(State& st, const ParseInput& in) {
  if (st.stack.size() < 3) return;
  // In place: the node replaces lhs on the stack (as combine_two, with no Item moved out first).
  const std::size_t n = st.stack.size();
  Item& lhs = st.stack[n - 3];
  Item& op = st.stack[n - 2];
  Item& rhs = st.stack[n - 1];
  const std::uint32_t h = std::max(lhs.height, rhs.height);
  if (h + 1 > kMaxHeight) too_deep(in);
  CompactVector<Expr> args;
  args.reserve(2);
  args.push_back(std::move(lhs.e));
  args.push_back(std::move(rhs.e));
  // lhs's slot (moved from; its span starts where the node does) becomes the node.
  Expr& e = lhs.e;
  e.kind = ExprKind::Binary;
  e.name = op.e.name;
  e.expr_id = Text{};
  e.type = Text{};
  e.end = st.offset(in.end());
  e.args.swap(args);
  lhs.height = h + 1;
  st.stack.pop_back();
  st.stack.pop_back();
}

// Wrap the top of the stack in a Unary node `name`, spanning from it to the end of `in`.
template <typename ParseInput>
void wrap_unary(State& st, const ParseInput& in, Text name, std::uint32_t begin) {
  Item x = pop(st);
  Expr e;
  e.kind = ExprKind::Unary;
  e.name = name;
  e.begin = begin;
  e.end = st.offset(in.end());
  // As push_node, without a vector of one item in between.
  const std::uint32_t h = x.height;
  e.args.reserve(1);
  e.args.push_back(std::move(x.e));
  if (h + 1 > kMaxHeight) too_deep(in);
  push(st, std::move(e), h + 1);
}

// ---------------------------------------------------------------- control
template <typename Rule>
struct control;
// Actions are specialised below (after the control).
template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// The control inside a `token` rule (a word, a number, a string): plain PEGTL matching with no
// actions and no bookkeeping, keeping only the error messages of `must<>` failures.
template <typename Rule>
struct token_control : pegtl::normal<Rule> {
  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&...) {
    throw pegtl::parse_error(control<Rule>::message(), in);
  }
};

// Rules that need no mark: when they fail, they have left no node behind.
// - `star` and `opt` never fail.
// - `at` and `not_at` run their rules without actions.
// - `sor` fails only when every alternative failed, and each dropped its own nodes: an
//   alternative pushes nothing unless it succeeds, or it is itself a rule of this list, or a rule
//   with its own mark.
// - A sequence whose rules after the first never fail (`seq<unary, star<mul_tail>>`, most levels
//   of the operator chain) fails only when its first rule fails, which dropped its own nodes.
template <typename R>
struct never_fails : std::false_type {};
template <typename... R>
struct never_fails<pegtl::internal::star<R...>> : std::true_type {};
template <typename... R>
struct never_fails<pegtl::internal::opt<R...>> : std::true_type {};

template <typename R>
struct markless : never_fails<R> {};
template <typename... R>
struct markless<pegtl::internal::at<R...>> : std::true_type {};
template <typename... R>
struct markless<pegtl::internal::not_at<R...>> : std::true_type {};
template <typename... R>
struct markless<pegtl::internal::sor<R...>> : std::true_type {};
template <typename R0, typename... Rs>
struct markless<pegtl::internal::seq<R0, Rs...>>
    : std::bool_constant<(never_fails<typename Rs::rule_t>::value && ...)> {};
// - A guarded rule `seq<at<First>, R>`: the lookahead pushes nothing, and R drops its own nodes
//   when it fails (as every rule does, by its mark or by this list).
template <typename... G, typename R>
struct markless<pegtl::internal::seq<pegtl::at<G...>, R>> : std::true_type {};

template <typename Rule>
struct control : pegtl::normal<Rule> {
  static constexpr bool counts = std::is_base_of_v<g::nesting_tag, Rule>;
  static constexpr bool is_token = std::is_base_of_v<g::token, Rule>;
  static constexpr bool has_action = !std::is_base_of_v<pegtl::nothing<Rule>, action<Rule>>;
  // A rule without sub-rules (a character) or a token pushes nothing before it fails, and no
  // action that collects items (take_since_mark) is attached to one: it needs no mark. Skipping
  // them saves most of the bookkeeping, as they are most of the rules tried. The same holds for
  // the combinators and sequences above, unless an action collects what they matched (an action
  // reads its own rule's mark).
  static constexpr bool marks =
      !is_token && !std::is_same_v<typename Rule::subs_t, pegtl::empty_list> &&
      !(markless<typename Rule::rule_t>::value && !has_action);
  // With no mark, no nesting count and no action, the hooks would do nothing: skip them (PEGTL
  // then calls the rule's match directly).
  static constexpr bool enable = pegtl::normal<Rule>::enable && (marks || counts || has_action || is_token);

  // A token's sub-rules run under token_control with actions off (the token's own action, if
  // any, still runs on the whole match).
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  [[nodiscard]] static bool match(ParseInput& in, States&&... st) {
    // Inside `at` / `not_at` (apply_mode::nothing) no action runs and nothing is pushed: the
    // lookahead is matched like a token. No rule the grammar looks ahead with is recursive, so
    // the nesting count is not needed there.
    if constexpr (is_token || A == pegtl::apply_mode::nothing) {
      constexpr bool apply_whole = A == pegtl::apply_mode::action && !std::is_base_of_v<pegtl::nothing<Rule>, Action<Rule>>;
      const auto begin = in.iterator();
      const bool ok = pegtl::match<Rule, pegtl::apply_mode::nothing, apply_whole ? pegtl::rewind_mode::required : M,
                                   Action, token_control>(in, st...);
      if constexpr (apply_whole) {
        if (ok) {
          const typename ParseInput::action_t whole(begin, in);
          Action<Rule>::apply(whole, st...);
        }
      }
      return ok;
    } else {
      return pegtl::normal<Rule>::template match<A, M, Action, Control>(in, st...);
    }
  }

  template <typename ParseInput, typename... States>
  static void start(const ParseInput& in, State& st, States&&...) {
    if constexpr (marks) st.marks.push(st.stack.size());
    if constexpr (counts) {
      if (++st.depth > kMaxNesting) too_deep(in);
    }
  }
  template <typename ParseInput, typename... States>
  static void success(const ParseInput&, State& st, States&&...) {
    if constexpr (marks) st.marks.pop();
    if constexpr (counts) --st.depth;
  }
  template <typename ParseInput, typename... States>
  static void failure(const ParseInput&, State& st, States&&...) {
    if constexpr (marks) {
      if (st.stack.size() > st.marks.back()) st.stack.resize(st.marks.back());
      st.marks.pop();
    }
    if constexpr (counts) --st.depth;
  }

  static const char* message();

  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&...) {
    throw pegtl::parse_error(message(), in);
  }
};

template <typename Rule>
const char* control<Rule>::message() {
  return "unexpected text in expression";
}

#define PLANLINT_EXPR_ERROR(RULE, MSG)          \
  template <>                                   \
  const char* control<g::RULE>::message() {     \
    return MSG;                                 \
  }

PLANLINT_EXPR_ERROR(paren_close, "expected ')' to close the parenthesis")
PLANLINT_EXPR_ERROR(call_close, "expected ')' after function arguments")
PLANLINT_EXPR_ERROR(in_close, "expected ')' to close the IN list")
PLANLINT_EXPR_ERROR(cast_close, "expected ')' after cast type")
PLANLINT_EXPR_ERROR(cast_operand, "expected an expression after 'cast('")
PLANLINT_EXPR_ERROR(cast_as, "expected 'as' after the cast operand")
PLANLINT_EXPR_ERROR(cast_type, "expected a type after 'as' in cast")
PLANLINT_EXPR_ERROR(bracket_close, "expected ']'")
PLANLINT_EXPR_ERROR(pf_close, "expected ')' after filter arguments")
PLANLINT_EXPR_ERROR(case_condition, "expected a condition after WHEN")
PLANLINT_EXPR_ERROR(case_then, "expected THEN after the WHEN condition")
PLANLINT_EXPR_ERROR(case_value, "expected a value after THEN / ELSE")
PLANLINT_EXPR_ERROR(case_end, "expected END to close CASE")
PLANLINT_EXPR_ERROR(comparand, "expected an operand after the comparison operator")
PLANLINT_EXPR_ERROR(not_expr, "expected an operand after AND / OR")
PLANLINT_EXPR_ERROR(and_expr, "expected an operand after OR")
PLANLINT_EXPR_ERROR(additive, "expected an operand in BETWEEN")
PLANLINT_EXPR_ERROR(kw_and, "expected AND in BETWEEN")
PLANLINT_EXPR_ERROR(alias_name, "expected a name after AS")
PLANLINT_EXPR_ERROR(expression, "expected an expression")
PLANLINT_EXPR_ERROR(digits, "expected digits in the exponent")
PLANLINT_EXPR_ERROR(eof, "unexpected text after the expression")
PLANLINT_EXPR_ERROR(one<'\''>, "unterminated string literal")
PLANLINT_EXPR_ERROR(one<'"'>, "unterminated string literal")
PLANLINT_EXPR_ERROR(one<'`'>, "unterminated backquoted name")

#undef PLANLINT_EXPR_ERROR

// ---------------------------------------------------------------- actions

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
std::string unquote(std::string_view q) {
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
Text unquoted(const State& st, std::string_view q) {
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
    Expr& e = push_leaf(st, ExprKind::Literal, st.keep(trim_view(in.string_view())), in);
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
template <typename Rule>
struct op_action {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    push_leaf(st, ExprKind::Raw, keep_op(st, in.string_view()), in);
  }
};
template <> struct action<g::op_or> : op_action<g::op_or> {};
template <> struct action<g::op_and> : op_action<g::op_and> {};
template <> struct action<g::op_not> : op_action<g::op_not> {};
template <> struct action<g::op_compare> : op_action<g::op_compare> {};
template <> struct action<g::op_additive> : op_action<g::op_additive> {};
template <> struct action<g::op_multiplicative> : op_action<g::op_multiplicative> {};
template <> struct action<g::op_unary> : op_action<g::op_unary> {};
template <> struct action<g::op_is_null> : op_action<g::op_is_null> {};
template <> struct action<g::op_in> : op_action<g::op_in> {};
template <> struct action<g::op_like> : op_action<g::op_like> {};
template <> struct action<g::op_between> : op_action<g::op_between> {};

template <typename Rule>
struct binary_action {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    reduce_binary(st, in);
  }
};
template <> struct action<g::mul_tail> : binary_action<g::mul_tail> {};
template <> struct action<g::add_tail> : binary_action<g::add_tail> {};
template <> struct action<g::compare_tail> : binary_action<g::compare_tail> {};
template <> struct action<g::and_tail> : binary_action<g::and_tail> {};
template <> struct action<g::or_tail> : binary_action<g::or_tail> {};

// x LIKE p / x NOT LIKE p (-> NOT (x LIKE p)); an ESCAPE clause stays in the span only.
template <>
struct action<g::like_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 3) return;
    Text& op = st.stack[st.stack.size() - 2].e.name;
    const bool negated = op.starts_with("NOT ");
    if (negated) op = op.sub(4);
    const std::uint32_t begin = st.stack[st.stack.size() - 3].e.begin;
    reduce_binary(st, in);
    if (negated) wrap_unary(st, in, "NOT", begin);
  }
};

template <>
struct action<g::unary_rec> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item x = pop(st);
    Item op = pop(st);
    // -5 is a literal, not an operation on one
    if (op.e.name == "-" && x.e.kind == ExprKind::Literal && x.e.type != "string" &&
        x.e.type != "null" && x.e.type != "boolean" && !x.e.name.empty() && x.e.name[0] != '-') {
      x.e.name = st.store->concat({"-", x.e.name});
      x.e.begin = op.e.begin;
      push(st, std::move(x.e), x.height);
      return;
    }
    push(st, std::move(x.e), x.height);
    wrap_unary(st, in, op.e.name, op.e.begin);
  }
};

template <>
struct action<g::not_rec> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item x = pop(st);
    Item op = pop(st);
    push(st, std::move(x.e), x.height);
    wrap_unary(st, in, "NOT", op.e.begin);
  }
};

template <>
struct action<g::is_null_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item op = pop(st);
    const std::uint32_t begin = st.stack.back().e.begin;
    wrap_unary(st, in, op.e.name, begin);
  }
};

template <>
struct action<g::in_list_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    // stack: ..., lhs, op, items...   (lhs was pushed before this rule started)
    const std::size_t from = current_mark(st);
    if (from == st.stack.size()) return;
    if (from == 0) {
      st.stack.clear();
      return;
    }
    Expr e;
    e.kind = ExprKind::In;
    e.name = st.stack[from].e.name;
    e.begin = st.stack[from - 1].e.begin;
    e.end = st.offset(in.end());
    // lhs next to the items, the operator below them (dropped with the cut to from - 1).
    std::swap(st.stack[from - 1], st.stack[from]);
    reduce_from(st, in, std::move(e), from, from - 1);
  }
};

template <>
struct action<g::empty_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    Expr& e = push_leaf(st, ExprKind::Literal, "", in);
    e.type = "string";
  }
};

// x INSET a, b, c -> In "IN" like x IN (a,b,c)
template <>
struct action<g::inset_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    // stack: ..., lhs, items...   (lhs was pushed before this rule started)
    const std::size_t from = current_mark(st);
    if (from == 0) {
      st.stack.clear();
      return;
    }
    Expr e;
    e.kind = ExprKind::In;
    e.name = "IN";
    e.begin = st.stack[from - 1].e.begin;
    e.end = st.offset(in.end());
    reduce_from(st, in, std::move(e), from - 1);
  }
};

template <>
struct action<g::in_subquery_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 3) return;
    Item sub = pop(st);
    Item op = pop(st);
    Item lhs = pop(st);
    Expr e;
    e.kind = ExprKind::InSubquery;
    e.name = sub.e.name;
    e.expr_id = sub.e.expr_id;
    e.begin = lhs.e.begin;
    e.end = st.offset(in.end());
    const std::uint32_t begin = lhs.e.begin;
    std::vector<Item> kids;
    kids.push_back(std::move(lhs));
    push_node(st, in, std::move(e), std::move(kids));
    if (op.e.name == "NOT IN") wrap_unary(st, in, "NOT", begin);
  }
};

template <>
struct action<g::between_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 4) return;
    Item hi = pop(st);
    Item lo = pop(st);
    Item op = pop(st);
    Item x = pop(st);
    const bool negated = op.e.name.rfind("NOT ", 0) == 0;
    Expr e;
    e.kind = ExprKind::Function;
    e.name = "BETWEEN";
    e.begin = x.e.begin;
    e.end = st.offset(in.end());
    const std::uint32_t begin = x.e.begin;
    std::vector<Item> kids;
    kids.push_back(std::move(x));
    kids.push_back(std::move(lo));
    kids.push_back(std::move(hi));
    push_node(st, in, std::move(e), std::move(kids));
    if (negated) wrap_unary(st, in, "NOT", begin);
  }
};

template <>
struct action<g::function_call> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    const std::string_view t = in.string_view();
    const std::size_t open = t.find('(');
    Expr e = make(ExprKind::Function, keep_unquoted(st, t.substr(0, open)), in, st);
    std::string_view rest = t.substr(open + 1);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (rest.size() > 9 && equals_upper(rest.substr(0, 8), "DISTINCT")) e.type = "distinct";
    reduce_from(st, in, std::move(e), current_mark(st));
  }
};

// `(a#1 + 1)`: the node's span includes its parentheses (so `(avg(x) * 1.2)#31` names it whole).
template <>
struct action<g::paren_expr> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    st.stack.back().e.begin = st.offset(in.begin());
    st.stack.back().e.end = st.offset(in.end());
  }
};

// `rank(x#1) windowspecdefinition(...)` -> Function "windowexpression" {function, spec}
template <>
struct action<g::window_suffix> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item spec = pop(st);
    Item fn = pop(st);
    combine_two(st, in, ExprKind::Function, "windowexpression", std::move(fn), std::move(spec));
  }
};

template <>
struct action<g::bound_reference> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    reduce_from(st, in, make(ExprKind::Function, "input", in, st), current_mark(st));
  }
};

template <>
struct action<g::window_spec> : action<g::function_call> {};

template <>
struct action<g::list_expr> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    reduce_from(st, in, make(ExprKind::List, "", in, st), current_mark(st));
  }
};

template <>
struct action<g::cast_type> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    push_leaf(st, ExprKind::Raw, st.keep(trim_view(in.string_view())), in);
  }
};

template <>
struct action<g::cast_expr> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    std::vector<Item> parts = take_since_mark(st);
    const std::string_view t = in.string_view();
    std::string name = normalise_op(t.substr(0, t.find('(')));
    for (char& c : name) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    Expr e = make(ExprKind::Cast, st.keep(name), in, st);
    if (parts.size() == 2) {
      e.type = parts[1].e.name;
      parts.pop_back();
    }
    push_node(st, in, std::move(e), std::move(parts));
  }
};

// CASE: case_operand / case_else wrap their value in a marker so the reduction can tell them apart.
template <>
struct action<g::case_operand> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    Item x = pop(st);
    Expr m = make(ExprKind::Raw, "CASE_OPERAND", in, st);
    m.args.push_back(std::move(x.e));
    push(st, std::move(m), x.height + 1);
  }
};
template <>
struct action<g::case_else> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    Item x = pop(st);
    Expr m = make(ExprKind::Raw, "ELSE", in, st);
    m.args.push_back(std::move(x.e));
    push(st, std::move(m), x.height + 1);
  }
};

template <>
struct action<g::case_expr> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    std::vector<Item> parts = take_since_mark(st);
    std::optional<Item> operand;
    std::optional<Item> otherwise;
    std::vector<Item> branches;
    for (auto& p : parts) {
      if (p.e.kind == ExprKind::Raw && p.e.name == "CASE_OPERAND" && p.e.args.size() == 1) {
        operand = Item{std::move(p.e.args[0]), p.height - 1};
      } else if (p.e.kind == ExprKind::Raw && p.e.name == "ELSE" && p.e.args.size() == 1) {
        otherwise = Item{std::move(p.e.args[0]), p.height - 1};
      } else {
        branches.push_back(std::move(p));
      }
    }
    // CASE x WHEN v THEN ... becomes CASE WHEN (x = v) THEN ...
    if (operand) {
      for (std::size_t i = 0; i + 1 < branches.size(); i += 2) {
        Expr eq;
        eq.kind = ExprKind::Binary;
        eq.name = "=";
        eq.begin = branches[i].e.begin;
        eq.end = branches[i].e.end;
        const std::uint32_t h = std::max(operand->height, branches[i].height) + 1;
        eq.args.push_back(operand->e);
        eq.args.push_back(std::move(branches[i].e));
        branches[i] = Item{std::move(eq), h};
      }
    }
    if (otherwise) branches.push_back(std::move(*otherwise));
    push_node(st, in, make(ExprKind::Case, "CASE", in, st), std::move(branches));
  }
};

template <>
struct action<g::index_suffix> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item idx = pop(st);
    Item base = pop(st);
    combine_two(st, in, ExprKind::Binary, "[]", std::move(base), std::move(idx));
  }
};

template <>
struct action<g::field_suffix> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    Item base = pop(st);
    Expr field = make(ExprKind::Literal, keep_unquoted(st, in.string_view().substr(1)), in, st);
    field.type = "string";
    field.begin += 1;
    combine_two(st, in, ExprKind::Binary, ".", std::move(base), Item{std::move(field), 1});
  }
};

template <>
struct action<g::alias_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.size() < 2) return;
    Item name = pop(st);
    Item x = pop(st);
    if (name.e.kind == ExprKind::Literal) name.e.kind = ExprKind::Attribute;  // AS plain_name
    name.e.type = Text{};
    combine_two(st, in, ExprKind::Binary, "AS", std::move(x), std::move(name));
  }
};

template <>
struct action<g::sort_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    if (st.stack.empty()) return;
    const std::uint32_t begin = st.stack.back().e.begin;
    wrap_unary(st, in, keep_op(st, in.string_view()), begin);
  }
};

// ---- pushed filters
bool is_logical_filter(std::string_view n) { return n == "And" || n == "Or" || n == "Not"; }

template <>
struct action<g::pf_filter> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    // The arguments are edited where they lie on the stack, from `from` up.
    const std::size_t from = current_mark(st);
    auto arg = [&](std::size_t i) -> Item& { return st.stack[from + i]; };
    const std::size_t nargs = st.stack.size() - from;
    const std::string_view t = in.string_view();
    Expr e = make(ExprKind::Function, st.keep(t.substr(0, t.find('('))), in, st);
    if (in.begin() > st.base && in.begin()[-1] == '*') e.type = "handled";
    if (!is_logical_filter(e.name)) {
      // EqualTo(s,a,b): a literal with a comma was split; join it again.
      if (nargs > 2 && e.name != "In" && arg(1).e.kind == ExprKind::Literal &&
          st.stack.back().e.kind == ExprKind::Literal) {
        Item& v = arg(1);
        v.e.end = st.stack.back().e.end;
        v.e.name = st.keep(std::string_view(st.base + v.e.begin, v.e.end - v.e.begin));
        v.e.type = "string";
        st.stack.resize(from + 2);
      }
      // The first argument of a value filter names a column.
      if (nargs > 0 && arg(0).e.kind == ExprKind::Literal) {
        arg(0).e.kind = ExprKind::Attribute;
        arg(0).e.name = keep_unquoted(st, arg(0).e.name);
        arg(0).e.type = Text{};
      }
    }
    reduce_from(st, in, std::move(e), from);
  }
};

template <>
struct action<g::pf_value_list> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    reduce_from(st, in, make(ExprKind::List, "", in, st), current_mark(st));
  }
};

template <>
struct action<g::pf_list> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    reduce_from(st, in, make(ExprKind::List, "", in, st), current_mark(st));
  }
};

template <typename Grammar>
ParsedExpr run(TextStore& store, Text text, unsigned flags) {
  ParsedExpr out;
  out.text = text;
  out.truncated = text.find("...") != std::string_view::npos;
  // One State per thread, reused: its stacks keep their capacity from one expression to the next
  // (a plan has thousands of expressions). parse_expression is not re-entered from an action.
  thread_local State st;
  st.reset(out.text.data(), out.text.size(), &store, flags);
  const BlockScope blocks(store);  // the tree's argument lists live in the plan's store
  try {
    // The source name is a plain pointer (the default, std::string, is built for every expression).
    pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*> in(out.text.data(), out.text.size(), "expression");
    if (pegtl::parse<Grammar, action, control>(in, st) && st.stack.size() == 1) {
      out.root = std::move(st.stack.front().e);
    } else {
      out.error = "expected an expression";
      out.error_offset = 0;
    }
  } catch (const pegtl::parse_error& e) {
    out.error = store.keep(e.message());
    out.error_offset = e.positions().empty() ? 0 : static_cast<std::uint32_t>(e.positions().front().byte);
  } catch (const std::exception& e) {
    out.error = store.concat({"expression parser failed: ", e.what()});
  }
  st.stack.clear();
  if (st.stack.capacity() > 4096) st.stack.shrink_to_fit();  // keep no huge buffer after a huge list
  if (!out.root) out.root.reset();
  out.truncated = out.truncated || st.truncated;
  return out;
}

}  // namespace

ParsedExpr parse_expression(TextStore& store, Text text, ExprDialect dialect) {
  switch (dialect) {
    case ExprDialect::PushedFilter:
      return run<g::pushed_filter_text>(store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Sql:
      return run<g::catalyst_text>(store, text, g::kSqlLiterals | g::kBareIsColumn);
    case ExprDialect::Catalyst:
    default:
      return run<g::catalyst_text>(store, text, g::kRawLiterals);
  }
}

}  // namespace planlint
