// The fast reader of expr_fast.hpp. Each function below names the grammar rule it stands for and
// why, on the text it accepts, the grammar takes the same path (PEG: the first alternative that
// matches wins, so every alternative tried before the one taken must fail on that text).
// Whatever is not certain is declined (returns false); the caller then runs the grammar.
#include "parser/expression/expr_fast.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "grammar/expression.hpp"
#include "parser/expression/expr_leaf_actions.hpp"
#include "support/byte_scan.hpp"

namespace planlint::expr_parse {

namespace {

namespace gx = grammar::expr;

// Far below the grammar's bounds (kMaxNesting 200 nesting rules, kMaxHeight 2000): a text this
// deep is left to the grammar, which also reports the ones past its bounds.
constexpr std::size_t kMaxDepth = 48;
constexpr std::uint32_t kMaxFastHeight = 48;

// Byte classes, one table look-up each: 1 [A-Za-z_] (ident_first), 2 [0-9$] (the rest of ident_other).
constexpr std::array<std::uint8_t, 256> kIdent = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const char x = static_cast<char>(c);
    if ((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || x == '_') t[static_cast<std::size_t>(c)] = 1;
    else if ((x >= '0' && x <= '9') || x == '$') t[static_cast<std::size_t>(c)] = 2;
  }
  return t;
}();
inline bool ident_first(char c) { return kIdent[static_cast<unsigned char>(c)] == 1; }
inline bool ident_other(char c) { return kIdent[static_cast<unsigned char>(c)] != 0; }  // [A-Za-z0-9_$]
inline bool digit(char c) { return c >= '0' && c <= '9'; }

// The end of the run of [A-Za-z0-9_$] bytes from b[q] (b[n] is not read).
inline std::size_t ident_run_end(const char* b, std::size_t q, std::size_t n) { return word_run_end<'_', '$'>(b, q, n); }

// From b[q]: the first byte that may end or stop a pushed filter's value (pf_raw_value: `,` a
// bracket `#` a backquote a tab or a line break), 16 bytes a look where SSE2 is there and 16 are
// left (TPC-DS values are padded with blanks to their column's width); else q itself (the caller
// reads on byte by byte).
inline std::size_t value_run_end(const char* b, std::size_t q, std::size_t n) {
#if defined(__SSE2__)
  using namespace byte_scan_detail;
  while (n - q >= 16) {
    const v16 x = load16(b + q);
    const v16 paren = x & splat(static_cast<char>(0xFE));  // ( ) to (
    const v16 bracket = x & splat(static_cast<char>(0xDF));  // [ ] { } to [ ]
    const v16 stop = eq(x, splat(',')) | eq(paren, splat('(')) | eq(bracket, splat('[')) | eq(bracket, splat(']')) |
                     eq(x, splat('#')) | eq(x, splat('`')) | eq(x, splat('\t')) | eq(x, splat('\r')) | eq(x, splat('\n'));
    const unsigned m = movemask(stop);
    if (m != 0) return q + static_cast<std::size_t>(__builtin_ctz(m));
    q += 16;
  }
#endif
  return q;
}

// The bytes value_run_end stops at: `,` ( ) [ ] { } `#` a backquote a tab or a line break.
constexpr std::array<bool, 256> kValueStop = [] {
  std::array<bool, 256> t{};
  for (char c : {',', '(', ')', '[', ']', '{', '}', '#', '`', '\t', '\r', '\n'}) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

// ASCII case-insensitive: `s` equals the lower-case `lower`.
inline bool iequals_lower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// Word lists, each a view of a literal with its size known (a braced list of literals made a view
// in the loop, a strlen call each: ~0.2 M instructions on the golden plans).
// Words an earlier alternative of primary reads in any case (bool_literal, null_literal,
// case_expr, cast_expr, interval_literal, input): no bare name.
constexpr std::string_view kEarlierWords[] = {"true", "false", "null", "case", "cast", "try_cast", "interval", "input"};
// After a comparand's bare word and blanks: words the grammar's additive would end before.
constexpr std::string_view kComparandEndWords[] = {"div", "and", "or",  "then", "else", "when",
                                                   "end", "as",  "asc", "desc", "windowspecdefinition"};
// After a raw list item's first word and blanks: words some rule after a primary reads.
constexpr std::string_view kItemEndWords[] = {"div", "is",  "in",   "inset", "not",  "like", "ilike",
                                              "rlike", "regexp", "between", "and", "or", "as", "asc",
                                              "desc", "nulls", "then", "else", "when", "end", "windowspecdefinition"};

// Whether `s` equals one of the lower-case `words` in any ASCII case.
template <std::size_t N>
inline bool iequals_any(std::string_view s, const std::string_view (&words)[N]) {
  for (std::string_view k : words)
    if (iequals_lower(s, k)) return true;
  return false;
}

// The names subquery_ref reads before a `#id` (the first alternative, `Subquery ...` /
// `ReusedSubquery ...`, needs a blank after the word, which the words read here never have).
// By length first: every attribute name asks, and few are 6, 8, 9 or 14 bytes long.
inline bool subquery_name(std::string_view w) {
  switch (w.size()) {
    case 6:
      return w == "exists";
    case 8:
      return w == "subquery";
    case 9:
      return w == "listquery";
    case 14:
      return w == "ScalarSubquery" || w == "dynamicpruning";
    default:
      return false;
  }
}

// What the next token after blanks is, for the levels of the operator chain.
// Mul: `*` `/`; Add: `+`, `-` not before `>` (the arithmetic operators read; see additive);
// CaseWord: THEN, ELSE, WHEN, END (upper case), which end an operand as `)` does (operand_end).
enum class Tok : std::uint8_t { End, And, Or, Not, Cmp, In, Is, Inset, As, Mul, Add, CaseWord, Other };

class Fast {
 public:
  Fast(const char* b, std::size_t n) : b_(b), n_(n) {}

  // catalyst_text: seq<ws, expression, ws, must<eof>>.
  bool catalyst(Expr& e) {
    blanks();
    std::uint32_t h = 0;
    if (!expression(e, h)) return false;
    blanks();
    return p_ == n_;
  }

  // pushed_filter_text with a v1 call: seq<ws, sor<pf_list, seq<opt<pf_handled>, pf_filter>, expression>, ws, must<eof>>.
  // pf_list needs '[', pf_handled '*' (declined). Blanks other than ' ' are declined (ws reads
  // them; the arguments' scan and the checks after each blank run stop at them).
  bool pushed_filter(Expr& e) {
    if (n_ == 0 || !ident_first(b_[0])) return false;
    if (!pf_filter(e)) return false;
    blanks();
    return p_ == n_;
  }

 private:
  // A part of the text (or a literal): fast_parse reads only texts whose parts all pack without
  // the long form (PackedView::short_parts).
  static PackedView sv(std::string_view v) noexcept { return PackedView::short_part(v.data(), v.size()); }

  // The v1 Filter names pf_known_name lists (kw<>: the whole word), by length (a loop over the
  // 17 names made a view of each literal, a strlen call each, for every nested filter).
  static bool pf_known_name(std::string_view w) {
    switch (w.size()) {
      case 2:
        return w == "Or" || w == "In";
      case 3:
        return w == "And" || w == "Not";
      case 6:
        return w == "IsNull";
      case 7:
        return w == "EqualTo";
      case 8:
        return w == "LessThan";
      case 9:
        return w == "IsNotNull";
      case 10:
        return w == "AlwaysTrue";
      case 11:
        return w == "GreaterThan" || w == "AlwaysFalse";
      case 13:
        return w == "EqualNullSafe";
      case 14:
        return w == "StringEndsWith" || w == "StringContains";
      case 15:
        return w == "LessThanOrEqual";
      case 16:
        return w == "StringStartsWith";
      case 18:
        return w == "GreaterThanOrEqual";
      default:
        return false;
    }
  }

  // pf_value: raw_value text from p_ up to `,` or `close` (`]` in a value list, `)` in a filter),
  // its trailing blanks dropped, as a Literal in `v`. Another bracket, `#`, a backquote or a line
  // break in it is declined, and so are an empty value (an error the grammar reports) and a text
  // that ends before its closer.
  // `hash_ok`: a `#` may be in the value (not in the first argument of a filter, which the
  // action reads as a column name).
  bool pf_raw_value(char close, bool hash_ok, Expr& v) {
    const std::size_t a0 = p_;
    bool hash = false;
    // The bytes after the 16-byte looks one table look each, in a local (a store to p_ before
    // every byte read otherwise: the read may alias it). p_ is left anywhere on a decline.
    std::size_t q = value_run_end(b_, p_, n_);
    for (; q < n_; ++q) {
      if (!kValueStop[static_cast<unsigned char>(b_[q])]) continue;
      const char c = b_[q];
      if (c == ',' || c == close) break;
      if (c == '#' && hash_ok) {
        hash = true;
        continue;
      }
      return false;  // another bracket or closer, `#`, a backquote, a tab or a line break
    }
    p_ = q;
    std::size_t end = p_;
    while (end > a0 && b_[end - 1] == ' ') --end;
    if (end == a0 || p_ == n_) return false;
    // A `#` (`exportiunivamalg #6`, TPC-DS's i_brand) only where pf_value's subquery_expr fails
    // at the first bytes: the value starts with no word it reads first.
    if (hash && starts_subquery_name(std::string_view(b_ + a0, end - a0))) return false;
    v.kind = ExprKind::Literal;
    v.name = sv(std::string_view(b_ + a0, end - a0));
    v.type = sv(guess_literal_type(v.name));
    v.begin = static_cast<std::uint32_t>(a0);
    v.end = static_cast<std::uint32_t>(end);
    return true;
  }

  // pf_value's first alternative, seq<at<subquery_start>, subquery_expr>, on a subquery_ref
  // without a tag (`EqualTo(d_week_seq,ScalarSubquery#100)`): a subquery name, then hash_id, then
  // blanks and `)`, or a `,` that no `[` follows (the tag subquery_ref would read). The node is
  // the one action<subquery_expr> makes (Subquery, named by the word before the `#`).
  bool pf_subquery(Expr& v) {
    const std::size_t s = p_;
    while (p_ < n_ && ((b_[p_] >= 'a' && b_[p_] <= 'z') || (b_[p_] >= 'A' && b_[p_] <= 'Z') || b_[p_] == '-')) ++p_;
    const std::string_view name(b_ + s, p_ - s);
    if (!(subquery_name(name) || name == "scalar-subquery") || p_ >= n_ || b_[p_] != '#') return false;
    const std::size_t hash = p_;
    if (!hash_id()) return false;
    const std::size_t after = after_blanks();
    if (after >= n_) return false;
    if (b_[after] == ',') {
      if (after != p_) return false;  // `subquery#3 ,`: left to the grammar
      std::size_t q = p_ + 1;
      while (q < n_ && b_[q] == ' ') ++q;
      if (q >= n_ || b_[q] == '[') return false;
    } else if (b_[after] != ')') {
      return false;
    }
    v.kind = ExprKind::Subquery;
    v.name = sv(name);
    v.expr_id = sv(std::string_view(b_ + hash + 1, p_ - hash - 1));
    v.begin = static_cast<std::uint32_t>(s);
    v.end = static_cast<std::uint32_t>(p_);
    return true;
  }

  // At the '[': the values are raw_value text without brackets or backquotes.
  bool pf_value_list(Expr& e) {
    if (++depth_ > kMaxDepth) return false;
    const std::size_t s = p_;
    ++p_;
    blanks();
    e.kind = ExprKind::List;
    e.name = "";
    e.begin = static_cast<std::uint32_t>(s);
    if (p_ < n_ && b_[p_] != ']') {
      for (;;) {
        if (!pf_raw_value(']', true, e.args.emplace_back())) return false;
        if (b_[p_] == ']') break;
        ++p_;  // list_sep
        blanks();
      }
    }
    if (p_ >= n_ || b_[p_] != ']') return false;
    ++p_;
    --depth_;
    e.end = static_cast<std::uint32_t>(p_);
    return true;
  }

  // pf_filter: nesting<pf_name, '(', ws, opt<pf_arg, star<list_sep, pf_arg>>, ws, must<pf_close>>;
  // pf_arg: sor<seq<pf_nested, at<ws, one<',', ')'>>>, pf_value_list, pf_value>. An argument is a
  // nested known filter (`And(EqualTo(a,1),IsNotNull(b))`) or raw_value text without brackets,
  // `#` or backquotes (pf_value_list needs '[', a subquery '#').
  bool pf_filter(Expr& e) {
    if (++depth_ > kMaxDepth) return false;
    const std::size_t s = p_;
    p_ = ident_run_end(b_, p_, n_);  // pf_name: word
    const std::string_view name(b_ + s, p_ - s);
    if (p_ == n_ || b_[p_] != '(') return false;
    ++p_;
    blanks();
    e.kind = ExprKind::Function;
    e.name = sv(name);
    e.begin = static_cast<std::uint32_t>(s);
    if (p_ < n_ && b_[p_] == ')') {
      ++p_;
    } else {
      // Room for two arguments at once (the first block would hold one, and the second argument
      // would move it to a block of three): every filter but IsNull, IsNotNull and Not has two
      // (more are declined below, but for And / Or, which Spark prints with two).
      if (!(name == "IsNotNull" || name == "IsNull" || name == "Not")) e.args.reserve(2);
      for (;;) {
        if (p_ >= n_) return false;  // `Name(` cut at its end: declined (the grammar reports it)
        const std::size_t a0 = p_;
        std::size_t w = p_;
        w = ident_run_end(b_, w, n_);
        if (w < n_ && b_[w] == '(' && pf_known_name(std::string_view(b_ + a0, w - a0))) {
          Expr& a = e.args.emplace_back();
          if (!pf_filter(a)) return false;
          const std::size_t q = after_blanks();
          if (q >= n_ || (b_[q] != ',' && b_[q] != ')')) return false;
        } else if (b_[p_] == '[') {
          // pf_value_list: nesting<'[', ws, opt<pf_value, star<list_sep, pf_value>>, ws, must<bracket_close>>;
          // a List "" over raw values (`In(d_year, [1999,2000])`).
          Expr& a = e.args.emplace_back();
          if (!pf_value_list(a)) return false;
        } else {
          // pf_value: a subquery reference where raw_value text declines one (at a `#`).
          const bool hash_ok = !e.args.empty();
          Expr& a = e.args.emplace_back();
          if (!pf_raw_value(')', hash_ok, a)) {
            p_ = a0;
            if (!pf_subquery(a)) return false;
          }
        }
        blanks();
        if (p_ >= n_) return false;
        if (b_[p_] == ')') {
          ++p_;
          break;
        }
        if (b_[p_] != ',') return false;
        ++p_;  // list_sep
        blanks();
      }
    }
    --depth_;
    // action<pf_filter>: more than two arguments of a value filter may be one literal split at
    // its commas (declined); the first argument of a value filter names a column.
    const bool logical = name == "And" || name == "Or" || name == "Not";
    if (!logical && e.args.size() > 2) return false;
    if (!logical && !e.args.empty() && e.args[0].kind == ExprKind::Literal) {
      e.args[0].kind = ExprKind::Attribute;
      e.args[0].type = Text{};
    }
    e.end = static_cast<std::uint32_t>(p_);
    return true;
  }

  // In a local: p_ would be stored before every byte read (the read may alias it).
  void blanks() {
    std::size_t q = p_;
    while (q < n_ && b_[q] == ' ') ++q;
    p_ = q;
  }
  std::size_t after_blanks() const {
    std::size_t q = p_;
    while (q < n_ && b_[q] == ' ') ++q;
    return q;
  }
  // A keyword `w` (upper case) at q, as a whole word (kw<>: not followed by [A-Za-z0-9_$]).
  bool word_at(std::size_t q, std::string_view w) const {
    if (q + w.size() > n_ || std::string_view(b_ + q, w.size()) != w) return false;
    return q + w.size() == n_ || !ident_other(b_[q + w.size()]);
  }
  // The token after blanks; `len` its length (Cmp). Words only in upper case: another spelling
  // (`and`, `Or`), which the grammar also reads, is Other and declined.
  // Each level of the operator chain asks after the same operand: the last answer is kept.
  Tok peek(std::size_t& at, std::size_t& len) const {
    if (memo_p_ == p_) {
      at = memo_at_;
      len = memo_len_;
      return memo_tok_;
    }
    memo_p_ = p_;
    memo_tok_ = classify(at, len);
    memo_at_ = at;
    memo_len_ = len;
    return memo_tok_;
  }
  Tok classify(std::size_t& at, std::size_t& len) const {
    const std::size_t q = after_blanks();
    at = q;
    len = 0;
    if (q == n_) return Tok::End;
    const char c = b_[q];
    if (c == ')' || c == ',' || c == ']') return Tok::End;
    auto has = [&](std::size_t k, char x) { return q + k < n_ && b_[q + k] == x; };
    switch (c) {
      case 'O':
        return word_at(q, "OR") ? (len = 2, Tok::Or) : Tok::Other;
      case 'N':
        return word_at(q, "NOT") ? (len = 3, Tok::Not) : Tok::Other;
      case 'I':
        if (word_at(q, "IN")) return len = 2, Tok::In;
        if (word_at(q, "IS")) return len = 2, Tok::Is;
        if (word_at(q, "INSET")) return len = 5, Tok::Inset;
        return Tok::Other;
      // `AS` in any case (kw_as): the end of a cast's operand; an alias elsewhere (declined).
      case 'A':
      case 'a':
        if (q + 2 <= n_ && iequals_lower(std::string_view(b_ + q, 2), "as") && (q + 2 == n_ || !ident_other(b_[q + 2])))
          return len = 2, Tok::As;
        return c == 'A' && word_at(q, "AND") ? (len = 3, Tok::And) : Tok::Other;
      // op_compare: sor<"<=>", "<=", "<>", ">=", "!=", "==", one<'=', '<', '>'>>.
      case '<':
        if (has(1, '=') && has(2, '>')) return len = 3, Tok::Cmp;
        if (has(1, '=') || has(1, '>')) return len = 2, Tok::Cmp;
        return len = 1, Tok::Cmp;
      case '>':
        return len = has(1, '=') ? 2 : 1, Tok::Cmp;
      case '!':
        return has(1, '=') ? (len = 2, Tok::Cmp) : Tok::Other;
      case '=':
        return len = has(1, '=') ? 2 : 1, Tok::Cmp;
      case '*':
      case '/':
        return len = 1, Tok::Mul;
      case '+':
        return len = 1, Tok::Add;
      case '-':
        return has(1, '>') ? Tok::Other : (len = 1, Tok::Add);
      case 'T':
        return word_at(q, "THEN") ? (len = 4, Tok::CaseWord) : Tok::Other;
      case 'W':
        return word_at(q, "WHEN") ? (len = 4, Tok::CaseWord) : Tok::Other;
      case 'E':
        if (word_at(q, "ELSE")) return len = 4, Tok::CaseWord;
        return word_at(q, "END") ? (len = 3, Tok::CaseWord) : Tok::Other;
      default:
        return Tok::Other;
    }
  }
  // What may follow an operand: a blank, a closer, the end. Anything else (`#` attr_suffix, `[`
  // index_suffix, `.` field_suffix, an operator without blanks, ...) is declined.
  bool operand_ends() const {
    if (p_ == n_) return true;
    const char c = b_[p_];
    return c == ' ' || c == ')' || c == ',' || c == ']';
  }
  // operand_end (after a comparand): ws, then `)` `,` `]` eof, AND, OR, ... (only the first of
  // these are accepted here).
  bool at_operand_end() const {
    std::size_t at = 0, len = 0;
    const Tok t = peek(at, len);
    return t == Tok::End || t == Tok::And || t == Tok::Or || t == Tok::As || t == Tok::CaseWord;
  }

  // expression: seq<or_expr, opt<at<alias_start>, alias_tail>, opt<at<sort_start>, sort_tail>>.
  // The or_expr must be followed by a closer or the end: `AS`, `ASC`, `DESC`, `NULLS` are Other.
  bool expression(Expr& e, std::uint32_t& h) {
    if (!or_expr(e, h)) return false;
    std::size_t at = 0, len = 0;
    return peek(at, len) == Tok::End;
  }

  // A Binary node `op` over `e` (the left operand, where it lies) and a right operand:
  // reduce_binary's node. binary_rhs makes the node where `e` is, `e` its first argument, and
  // gives its second, empty, for the caller to read the right operand into (in its place: not
  // built aside, moved and destroyed); binary_end then ends the node where that operand ends.
  // The node is only complete after binary_end; a decline in between drops the tree.
  static Expr& binary_rhs(Expr& e, std::string_view op) {
    CompactVector<Expr> args;
    args.reserve(2);
    const std::uint32_t begin = e.begin;
    args.push_back(std::move(e));
    Expr& rhs = args.emplace_back();
    e = Expr{};
    e.kind = ExprKind::Binary;
    e.name = sv(op);
    e.begin = begin;
    e.args.swap(args);  // the block, and `rhs` in it, stay where they are
    return rhs;
  }
  static void binary_end(Expr& e, std::uint32_t& h, std::uint32_t rh) {
    e.end = e.args[1].end;
    h = std::max(h, rh) + 1;
  }
  // wrap_unary: a Unary node `name` over `e`.
  static void unary(Expr& e, std::uint32_t& h, PackedView name, std::uint32_t begin, std::uint32_t end) {
    Expr x = std::move(e);
    e = Expr{};
    e.kind = ExprKind::Unary;
    e.name = name;
    e.begin = begin;
    e.end = end;
    e.args.reserve(1);
    e.args.push_back(std::move(x));
    h += 1;
  }

  // or_expr: seq<and_expr, star<at<ws, op_or>, or_tail>>; or_tail: seq<ws, op_or, ws, must<and_expr>>;
  // and_expr: seq<not_expr, star<at<ws, op_and>, and_tail>>. One not_expr, then (most operands
  // have neither) the AND tails folded into it and the OR tails, each right operand a not_expr
  // with its own AND tails: the tree star<> and reduce_binary build, folded to the left, without
  // a call per level for every operand.
  bool or_expr(Expr& e, std::uint32_t& h) {
    if (!not_expr(e, h)) return false;
    std::size_t at = 0, len = 0;
    const Tok t = peek(at, len);
    return (t != Tok::And && t != Tok::Or) || (tails<Tok::And>(e, h) && tails<Tok::Or>(e, h));
  }
  // The `kOp` tails folded into `e`: each right operand a not_expr, with its own AND tails after
  // an OR.
  template <Tok kOp>
  bool tails(Expr& e, std::uint32_t& h) {
    for (;;) {
      std::size_t at = 0, len = 0;
      if (peek(at, len) != kOp) return true;
      p_ = at + len;
      blanks();
      Expr& rhs = binary_rhs(e, std::string_view(b_ + at, len));
      std::uint32_t rh = 0;
      if (!not_expr(rhs, rh)) return false;
      if constexpr (kOp == Tok::Or) {
        if (!tails<Tok::And>(rhs, rh)) return false;
      }
      binary_end(e, h, rh);
      if (h > kMaxFastHeight) return false;
    }
  }

  // not_expr: sor<seq<at<kw_not>, not_rec>, predicate>; not_rec: nesting<op_not, ws, not_expr>.
  // `NOT` in another case (`not`, `Not`), which kw_not also reads, is declined.
  // The first byte is looked at where not_expr is called (or_expr, tails: every operand of every
  // argument, item and comparison), without a call of its own; the NOT branch, rare, is one.
  __attribute__((always_inline)) bool not_expr(Expr& e, std::uint32_t& h) {
    if (p_ + 3 <= n_ && (b_[p_] | 0x20) == 'n' && iequals_lower(std::string_view(b_ + p_, 3), "not") &&
        (p_ + 3 == n_ || !ident_other(b_[p_ + 3])))
      return not_rec(e, h);
    return predicate(e, h);
  }
  // not_rec: at a `not` in any case, a whole word.
  __attribute__((noinline)) bool not_rec(Expr& e, std::uint32_t& h) {
    if (!word_at(p_, "NOT") || ++depth_ > kMaxDepth) return false;
    const std::uint32_t begin = static_cast<std::uint32_t>(p_);
    p_ += 3;
    blanks();
    if (!not_expr(e, h)) return false;
    --depth_;
    unary(e, h, "NOT", begin, e.end);
    return true;
  }

  // additive: seq<multiplicative, star<at<add_start>, add_tail>>; add_tail: seq<ws, op_additive, ws,
  // multiplicative>; op_additive (Catalyst): sor<one<'+'>, seq<one<'-'>, not_at<one<'>'>>>> (`||`
  // is op_or there). multiplicative: seq<unary, star<at<mul_start>, mul_tail>>; mul_tail: seq<ws,
  // op_multiplicative, ws, unary>, of whose operators `*` and `/` are read here. Any other byte of
  // mul_start / add_start after an operand (`%` `&` `^` `|`, `div`, `->`) ends the loop, and the
  // caller, which takes none of them, declines; so does a right operand that is not read (where
  // the grammar's star<> would back off and read on otherwise). Folded to the left as star<> and
  // reduce_binary do: each node spans its left operand to its right one, named by the operator.
  // `ops`: an operator was read (the operand is not a lone word or number).
  // The operand and its operators: most operands have none (one look, which the caller's next
  // look finds kept), the loops are apart.
  __attribute__((always_inline)) bool additive(Expr& e, std::uint32_t& h, bool& ops) {
    if (!multiplicative(e, h, ops)) return false;
    std::size_t at = 0, len = 0;
    return !may_be_arithmetic() || peek(at, len) != Tok::Add || add_tails(e, h, ops);
  }
  __attribute__((always_inline)) bool multiplicative(Expr& e, std::uint32_t& h, bool& ops) {
    if (!operand(e, h)) return false;
    std::size_t at = 0, len = 0;
    return !may_be_arithmetic() || peek(at, len) != Tok::Mul || mul_tails(e, h, ops);
  }
  // After an operand (a blank, a closer or the end follows it): whether an operator may come next
  // (a blank, then another blank or `*` `/` `+` `-`); false for most operands, without a peek.
  // (Or, after a bare word, the operator right after it: `self-help`, `N/A`.)
  bool may_be_arithmetic() const {
    if (p_ + 1 >= n_) return false;
    if (b_[p_] != ' ') return arith_byte(b_[p_]);
    const char c = b_[p_ + 1];
    return c == ' ' || c == '*' || c == '/' || c == '+' || c == '-';
  }
  static bool arith_byte(char c) { return c == '*' || c == '/' || c == '+' || c == '-'; }
  // A bare word (word() read it: a Literal at its place) right before `*` `/` `+` `-`.
  bool bare_word_before_operator(const Expr& e) const {
    return p_ < n_ && arith_byte(b_[p_]) && e.kind == ExprKind::Literal && e.end == p_ && last_bare_word_ == e.begin;
  }
  // At an operator of `kind` (Tok::Add, Tok::Mul): the tails, as long as one follows, each right
  // operand read by `read_rhs` (the next tighter level).
  template <Tok kind, class ReadRhs>
  bool tails(Expr& e, std::uint32_t& h, bool& ops, ReadRhs read_rhs) {
    std::size_t at = 0, len = 0;
    while (peek(at, len) == kind) {
      p_ = at + len;
      blanks();
      Expr& rhs = binary_rhs(e, std::string_view(b_ + at, len));
      std::uint32_t rh = 0;
      if (!read_rhs(rhs, rh)) return false;
      binary_end(e, h, rh);
      ops = true;
      if (h > kMaxFastHeight) return false;
    }
    return true;
  }
  bool add_tails(Expr& e, std::uint32_t& h, bool& ops) {
    return tails<Tok::Add>(e, h, ops, [&](Expr& rhs, std::uint32_t& rh) { return multiplicative(rhs, rh, ops); });
  }
  bool mul_tails(Expr& e, std::uint32_t& h, bool& ops) {
    return tails<Tok::Mul>(e, h, ops, [&](Expr& rhs, std::uint32_t& rh) { return operand(rhs, rh); });
  }

  // predicate: seq<additive, star<at<predicate_start>, predicate_tail>>. The bytes that start a
  // predicate tail (= < > ! I N ...) are no operator of additive's.
  // One tail at most, then the text must go on with AND, OR, a closer or the end.
  // Inline where not_expr is (one call less for every operand).
  __attribute__((always_inline)) bool predicate(Expr& e, std::uint32_t& h) {
    bool ops = false;
    if (!additive(e, h, ops)) return false;
    std::size_t at = 0, len = 0;
    switch (peek(at, len)) {
      case Tok::End:
      case Tok::And:
      case Tok::Or:
      case Tok::As:
      case Tok::CaseWord:  // the end of a CASE part (only case_expr reads on after one)
        return true;
      case Tok::Cmp: {
        // compare_tail: seq<ws, op_compare, ws, must<comparand>>; comparand (Catalyst):
        // sor<seq<additive, at<operand_end>>, raw_value>: the first when operand_end holds.
        const std::string_view op(b_ + at, len);
        p_ = at + len;
        blanks();
        Expr& rhs = binary_rhs(e, op);
        std::uint32_t rh = 0;
        if (!comparand(rhs, rh)) return false;
        binary_end(e, h, rh);
        return true;
      }
      case Tok::Inset: {
        // inset_tail: seq<ws, kw_inset, ws, inset_item, star<list_sep, inset_item>>; inset_item:
        // sor<seq<additive, at<operand_end>>, raw_literal> (only the first is taken). The node
        // is In "IN" over the operand and the items.
        p_ = at + len;
        blanks();
        Expr in;
        in.kind = ExprKind::In;
        in.name = "IN";
        in.begin = e.begin;
        std::uint32_t ih = h;
        in.args.push_back(std::move(e));
        for (;;) {
          Expr item;
          std::uint32_t it = 0;
          if (!operand(item, it) || !at_operand_end()) return false;
          ih = std::max(ih, it);
          in.args.push_back(std::move(item));
          const std::size_t q = after_blanks();
          if (q < n_ && b_[q] == ',') {
            p_ = q + 1;
            blanks();
            continue;
          }
          break;
        }
        in.end = static_cast<std::uint32_t>(p_);
        e = std::move(in);
        h = ih + 1;
        return h <= kMaxFastHeight && at_operand_end();
      }
      case Tok::Is: {
        // is_null_tail: seq<ws, op_is_null>; op_is_null: seq<kw_is, ws, opt<kw_not, ws>, kw_null>.
        // The operator is kept as printed when it is `IS NULL` / `IS NOT NULL` (keep_op).
        const std::size_t s = at;
        std::size_t q = at + 2;
        if (q >= n_ || b_[q] != ' ') return false;
        ++q;
        if (word_at(q, "NOT")) {
          q += 3;
          if (q >= n_ || b_[q] != ' ') return false;
          ++q;
        }
        if (!word_at(q, "NULL")) return false;
        q += 4;
        p_ = q;
        unary(e, h, sv(std::string_view(b_ + s, q - s)), e.begin, static_cast<std::uint32_t>(q));
        return at_operand_end();
      }
      case Tok::In: {
        const std::size_t op_end = at + len;
        p_ = op_end;
        if (p_ >= n_ || b_[p_] != ' ') return false;  // `IN(`: declined
        blanks();
        if (p_ < n_ && b_[p_] == '(') {
          // in_list_tail: seq<ws, op_in, ws, in_list>; in_list: nesting<'(', ws, call_args, ws, must<in_close>>.
          if (++depth_ > kMaxDepth) return false;
          ++p_;
          Expr in;
          in.kind = ExprKind::In;
          in.name = sv(std::string_view(b_ + at, len));
          in.begin = e.begin;
          std::uint32_t ih = h;
          in.args.push_back(std::move(e));
          if (!call_args(in.args, ih)) return false;
          --depth_;
          in.end = static_cast<std::uint32_t>(p_);
          e = std::move(in);
          h = ih + 1;
          if (h > kMaxFastHeight) return false;
          return at_operand_end();
        }
        // in_subquery_tail: seq<ws, op_in, plus<blank_char>, sor<subquery_expr, attribute>>
        // (in_list_tail needs '(' and inset_tail `INSET`). Only a subquery is taken.
        const std::size_t s = p_;
        p_ = ident_run_end(b_, p_, n_);
        const std::string_view w(b_ + s, p_ - s);
        if (!subquery_name(w) || p_ >= n_ || b_[p_] != '#') return false;
        const std::size_t hash = p_;
        if (!hash_id() || !subquery_ends()) return false;
        Expr sub;
        sub.kind = ExprKind::InSubquery;
        sub.name = sv(w);
        sub.expr_id = sv(std::string_view(b_ + hash + 1, p_ - hash - 1));
        sub.begin = e.begin;
        sub.end = static_cast<std::uint32_t>(p_);
        sub.args.reserve(1);
        sub.args.push_back(std::move(e));
        e = std::move(sub);
        h += 1;
        return at_operand_end();
      }
      default:
        return false;
    }
  }

  // unary: sor<seq<at<unary_start>, unary_rec>, postfix> (unary minus declined); postfix with no
  // suffix (the byte after the primary must end it).
  // A number with a minus: unary_rec over a literal that is no string / null / boolean folds
  // the sign into the literal (`-5.00`), spanning from the minus; the type stays the number's.
  bool operand(Expr& e, std::uint32_t& h) {
    if (p_ + 1 < n_ && b_[p_] == '-' && digit(b_[p_ + 1])) {
      const std::size_t s = p_;
      ++p_;
      if (!number(e, h, false) || number_runs_on(s + 1)) return false;
      e.name = sv(std::string_view(b_ + s, e.end - s));
      e.begin = static_cast<std::uint32_t>(s);
      return true;
    }
    if (!primary(e, h)) return false;
    // attr_suffix: `(avg(x) * 1.2)#34`, `max(val)#x`, `ctr_state#15#35` (postfix's star<> reads
    // a `#id` right after any primary; action<attr_suffix> makes the node an Attribute, named by
    // its text up to the last `#`, with no arguments). Only after a call, a cast, parentheses, a
    // CASE or an attribute: a number there is declined (its digits, `.` and `-` are name
    // characters, and attr_start makes the whole an attribute first).
    while (p_ < n_ && b_[p_] == '#' && suffix_may_follow(e)) {
      const std::size_t hash = p_;
      if (!hash_id()) return false;
      const std::uint32_t begin = e.begin;
      e = Expr{};
      e.kind = ExprKind::Attribute;
      e.name = sv(std::string_view(b_ + begin, hash - begin));
      e.expr_id = sv(std::string_view(b_ + hash + 1, p_ - hash - 1));
      e.begin = begin;
      e.end = static_cast<std::uint32_t>(p_);
      h = 1;
    }
    return operand_ends() || bare_word_before_operator(e);
  }
  // What primary read, by what it starts with: `(` (parentheses), or a call, cast, CASE or
  // attribute (a name and `#id`).
  bool suffix_may_follow(const Expr& e) const {
    if (b_[e.begin] == '(') return true;
    return e.kind == ExprKind::Function || e.kind == ExprKind::Cast || e.kind == ExprKind::Case ||
           (e.kind == ExprKind::Attribute && ident_first(b_[e.begin]));
  }
  // A number at s followed by `-` or `/` (name characters): attr_start may reach a `#` through
  // them (`1 - ss_item_sk#1` is an attribute, as `2024-01-01 - x#1` is), and the attribute rule
  // is tried before the literals (declined). Other operators and words end the scan, or were
  // read before arithmetic was.
  // (After the operand: a blank, a closer or the end; most numbers end in a closer.)
  __attribute__((always_inline)) bool number_runs_on(std::size_t s) const {
    if (p_ + 1 >= n_ || b_[p_] != ' ') return false;
    const char c = b_[p_ + 1];
    return (c == '-' || c == '/' || c == ' ') && reaches_hash_through(s);
  }
  bool reaches_hash_through(std::size_t s) const {
    const std::size_t q = after_blanks();
    return q < n_ && (b_[q] == '-' || b_[q] == '/') && hash_reachable(s);
  }
  // Name characters and blanks from s up to a '#': attr_start holds, and the attribute rule is
  // tried before the literals and names (declined).
  bool hash_reachable(std::size_t s) const {
    while (s < n_ && (gx::name_chars::is_name(b_[s]) || b_[s] == ' ')) ++s;
    return s < n_ && b_[s] == '#';
  }

  // comparand (Catalyst): sor<seq<additive, at<operand_end>>, raw_value>. The first when the
  // operand is followed by an operand_end; raw_value (unquoted text up to `,` `)` `]`) only after
  // a bare word or a plain number that nothing of the additive rule can go on from
  // (`= Advanced Degree   )`, `= 4 yr Degree   )`).
  bool comparand(Expr& e, std::uint32_t& h) {
    const std::size_t s = p_;
    if (s < n_ && (b_[s] == '>' || b_[s] == '<' || b_[s] == '=')) {
      // `= >10000         )` (TPC-DS's hd_buy_potential): unary needs `-` `~` `+` and every
      // alternative of primary another first byte (attr_start a name byte, a blank or the `#`), so
      // additive fails where it starts and raw_value reads the text.
      if (!raw_value(s, false, e)) return false;
      h = 1;
      return true;
    }
    bool ops = false;
    if (!additive(e, h, ops)) return false;
    if (at_operand_end()) return true;
    if (ops || (!bare_word_at(s) && !plain_number_at(s, e))) return false;
    // After the word and its blanks: no mul / add operator, no `windowspecdefinition(`, and no
    // operand_end word in any case (the grammar's additive would end there).
    const std::size_t q = after_blanks();
    if (q == p_ || q >= n_) return false;
    const char c = b_[q];
    if (c == '*' || c == '/' || c == '%' || c == '&' || c == '^' || c == '|' || c == '+' || c == '-' || c == '\t' ||
        c == '\r' || c == '\n')
      return false;
    std::size_t w = q;
    w = ident_run_end(b_, w, n_);
    const std::string_view next(b_ + q, w - q);
    if (iequals_any(next, kComparandEndWords)) return false;
    if (!raw_value(s, false, e)) return false;
    h = 1;
    return true;
  }
  // A Literal of the text [s, end), with the type guess_literal_type gives (action<raw_value>,
  // action<number>).
  void set_literal(Expr& e, std::size_t s, std::size_t end) {
    e.kind = ExprKind::Literal;
    e.name = sv(std::string_view(b_ + s, end - s));
    e.type = sv(guess_literal_type(e.name));
    e.begin = static_cast<std::uint32_t>(s);
    e.end = static_cast<std::uint32_t>(end);
  }
  // raw_value: the unquoted text from s up to a `,` `)` or `]` (a bracket opened in it, a tab or a
  // line break: declined; `closed`: the end of the input before one too), its trailing blanks
  // dropped, as a Literal with the type guess_literal_type gives (action<raw_value>); p_ at its end.
  bool raw_value(std::size_t s, bool closed, Expr& e) {
    std::size_t r = value_run_end(b_, s, n_);  // no byte before r stops the loop below
    while (r < n_ && b_[r] != ',' && b_[r] != ')' && b_[r] != ']') {
      const char x = b_[r];
      if (x == '(' || x == '[' || x == '\t' || x == '\r' || x == '\n') return false;
      ++r;
    }
    if (closed && r >= n_) return false;
    std::size_t end = r;
    while (end > s && b_[end - 1] == ' ') --end;
    e = Expr{};
    set_literal(e, s, end);
    p_ = end;
    return true;
  }
  // list_item: sor<seq<expression, at<ws, one<',', ')', ']'>>>, raw_literal>. The raw text of an
  // item at s whose expression the fast reader did not read, in two cases where the grammar's
  // expression is sure to fail or to end before a word: (1) a keyword other than NOT and CASE
  // (which start a not_expr and a case_expr), not before a `(` (a function_call), where every
  // alternative of primary fails; (2) a bare word (word() read it) followed by blanks and a word
  // that none of the rules after a primary reads (postfix: `#` `[` `.` right after it, or
  // windowspecdefinition; `div`; the predicate tails' IS, IN, INSET, NOT, LIKE, ILIKE, RLIKE,
  // REGEXP, BETWEEN; AND, OR; AS (alias_tail, whose must<> would fail the text); ASC, DESC,
  // NULLS), so at<ws, one<',', ')', ']'>> fails after it. raw_literal: the text up to a `,` `)` or
  // `]` (a bracket opened in it, a tab or a line break: declined), its trailing blanks dropped; a
  // Literal with the type guess_literal_type gives (action<raw_value>).
  bool raw_item(std::size_t s, Expr& e) {
    if (s >= n_ || !ident_first(b_[s])) return false;
    std::size_t w = s;
    w = ident_run_end(b_, w, n_);
    const std::string_view word(b_ + s, w - s);
    if (gx::reserved::is_keyword(word.data(), word.size())) {
      if (iequals_lower(word, "not") || iequals_lower(word, "case") || (w < n_ && b_[w] == '(') || hash_reachable(s))
        return false;
    } else {
      if (!bare_word_at(s) && !bare_word_before_hash(s, w, word)) return false;
      std::size_t q = w;
      while (q < n_ && b_[q] == ' ') ++q;
      if (q == w || q >= n_) return false;
      if (b_[q] == '#') return raw_value(s, true, e);  // only after bare_word_before_hash (word() read no `#`)
      if (!ident_first(b_[q])) return false;
      std::size_t r = q;
      r = ident_run_end(b_, r, n_);
      const std::string_view next(b_ + q, r - q);
      if (iequals_any(next, kItemEndWords)) return false;
    }
    return raw_value(s, true, e);
  }
  bool bare_word_at(std::size_t s) const { return s < n_ && ident_first(b_[s]) && last_bare_word_ == s; }
  // An item `scholaramalgamalg #7      ` or `edu packscholar #9   ` (TPC-DS's i_brand): the word
  // `word` at s (ending at w, a blank after it, no keyword) is what the grammar's primary reads as
  // a bare_name, although word() declined it for the `#` that attr_start reaches: the words and
  // blanks from s end at a `#` after a blank, so attr_name ends before a blank and hash_id fails
  // there (attribute fails), and every alternative between attribute and bare_name fails on a
  // word that is not case / cast / try_cast / interval / input / true / false / null nor starts
  // a subquery reference (Subquery, ReusedSubquery or a subquery_name: declined).
  bool bare_word_before_hash(std::size_t s, std::size_t w, std::string_view word) const {
    if (w >= n_ || b_[w] != ' ') return false;
    if (iequals_any(word, kEarlierWords)) return false;
    if (starts_subquery_name(word)) return false;
    std::size_t q = s;
    while (q < n_ && (ident_other(b_[q]) || b_[q] == ' ')) ++q;
    return q < n_ && b_[q] == '#' && b_[q - 1] == ' ';
  }
  // Whether `v` starts with a word subquery_expr can read first (kw_subquery, reused_mark, or a
  // subquery_name, which is matched as a prefix).
  static bool starts_subquery_name(std::string_view v) {
    static constexpr std::string_view kStarts[] = {"Subquery",       "ReusedSubquery", "scalar-subquery", "subquery",
                                                   "ScalarSubquery", "dynamicpruning", "listquery",       "exists"};
    for (std::string_view k : kStarts)
      if (v.starts_with(k)) return true;
    return false;
  }
  // A number read at s (`= 4 yr Degree     )`, TPC-DS's education status): primary's alternatives
  // before `literal` fail on it (attribute only if a `#` is reachable through name characters and
  // blanks, as in `4 yr Degree#3`: declined), date_literal and month_literal need four digits and
  // a '-' (a date is declined), and `number` reads what number() read; the checks after it are
  // the bare word's.
  bool plain_number_at(std::size_t s, const Expr& e) const {
    return s < n_ && digit(b_[s]) && e.kind == ExprKind::Literal && std::string_view(e.type) != "date" &&
           !hash_reachable(s);
  }

  // hash_id: seq<'#', expr_id>; expr_id: seq<sor<digits, 'x'>, opt<'L'>, not_at<ident_other>,
  // opt<watermark>>. At the '#'; the watermark (`-T10ms`) is declined by the caller's next byte.
  bool hash_id() {
    std::size_t q = p_ + 1;
    if (q < n_ && digit(b_[q])) {
      q = digits_end(q + 1);
    } else if (q < n_ && b_[q] == 'x') {
      ++q;
    } else {
      p_ = q;
      return false;
    }
    if (q < n_ && b_[q] == 'L') ++q;
    p_ = q;
    return q == n_ || !ident_other(b_[q]);
  }
  // The end of the run of digits from q (a local, not p_, that every byte read would make stored).
  std::size_t digits_end(std::size_t q) const {
    while (q < n_ && digit(b_[q])) ++q;
    return q;
  }
  // After a subquery reference: not `,` (subquery_ref's opt<',', ws, plan_tag>), not `-` (a watermark).
  bool subquery_ends() const {
    if (p_ == n_) return true;
    const char c = b_[p_];
    return c == ' ' || c == ')' || c == ']';
  }

  // primary: sor<paren_expr, subquery_expr, attribute, case_expr, cast_expr, sql_literal,
  // interval_literal, bound_reference, ellipsis, literal, function_call, list_expr, bare_name, bare_word>,
  // each behind a look at its first bytes.
  bool primary(Expr& e, std::uint32_t& h) {
    if (p_ >= n_) return false;
    const char c = b_[p_];
    if (c == '(') return paren(e, h);
    if (digit(c)) {
      const std::size_t s = p_;
      if (number(e, h, true)) return !number_runs_on(s);
      p_ = s;
      return digit_word(e, h, s);
    }
    if (!ident_first(c)) return false;
    const std::size_t s = p_;
    p_ = ident_run_end(b_, p_, n_);
    const std::string_view w(b_ + s, p_ - s);
    if (p_ < n_ && b_[p_] == '#') {
      // A word and `#id`: subquery_ref when the word is a subquery name, else attribute
      // (attr_start holds; attr_name is the one name_word, which is no keyword).
      if (gx::reserved::is_keyword(w.data(), w.size())) return false;
      const std::size_t hash = p_;
      if (!hash_id()) return false;
      const bool sub = subquery_name(w);
      if (sub && !subquery_ends()) return false;
      e.kind = sub ? ExprKind::Subquery : ExprKind::Attribute;
      e.name = sv(w);
      e.expr_id = sv(std::string_view(b_ + hash + 1, p_ - hash - 1));
      e.begin = static_cast<std::uint32_t>(s);
      e.end = static_cast<std::uint32_t>(p_);
      h = 1;
      return true;
    }
    if (p_ < n_ && b_[p_] == '(') return call(e, h, s, w);
    if (p_ < n_ && b_[p_] == ' ' && (w == "Subquery" || w == "ReusedSubquery")) return subquery(e, h, s, w == "ReusedSubquery");
    // case_expr (after attribute, which a `#` reachable through name characters and blanks
    // would try first: declined).
    if (w == "CASE" && p_ < n_ && b_[p_] == ' ' && !hash_reachable(s)) return case_expr(e, h, s);
    return word(e, h, s, w);
  }

  // bare_word (`2001Q1`): [A-Za-z0-9_$] bytes from a digit, where `number` fails (not_at<ident_other>
  // after the digits: the first other byte is a letter that starts no exponent or suffix, so the
  // grammar's number neither matches nor raises its must<digits>) and every alternative of primary
  // before bare_word needs another first byte (attribute a `#` that attr_start reaches: declined).
  // A Literal typed as action<bare_word> types it; followed by a blank, a closer or the end.
  bool digit_word(Expr& e, std::uint32_t& h, std::size_t s) {
    std::size_t q = s;
    while (q < n_ && digit(b_[q])) ++q;
    if (q >= n_ || !ident_other(b_[q]) || digit(b_[q])) return false;
    const char x = b_[q];
    if (x == 'e' || x == 'E' || x == 'L' || x == 'S' || x == 'Y' || x == 'D' || x == 'F' || x == 'B' || x == '$' || x == '_')
      return false;
    q = ident_run_end(b_, q, n_);
    p_ = q;
    if (!operand_ends() || hash_reachable(s)) return false;
    set_literal(e, s, q);
    h = 1;
    return true;
  }

  // case_expr: nesting<kw_case, ws, opt<not_at<kw_when>, case_operand, ws>, plus<case_when>,
  // opt<case_else>, must<case_end>>; case_when: seq<kw_when, ws, must<case_condition>, ws,
  // must<case_then>, ws, must<case_value>, ws>; case_else: seq<kw_else, ws, must<case_value>, ws>;
  // each part an or_expr. Only the searched form (`CASE WHEN`; `CASE x WHEN` is declined) with its
  // words in upper case. The node (action<case_expr>): Case "CASE" over each condition and its
  // value in turn, then the ELSE value, spanning CASE to END. `p_` is after CASE.
  bool case_expr(Expr& e, std::uint32_t& h, std::size_t s) {
    if (++depth_ > kMaxDepth) return false;
    blanks();
    if (!word_at(p_, "WHEN")) return false;
    e.kind = ExprKind::Case;
    e.name = "CASE";
    e.begin = static_cast<std::uint32_t>(s);
    std::uint32_t mh = 0;
    // One part (an or_expr, its blanks after it), then `word` (nullptr: none asked).
    auto part = [&](const char* word, std::size_t size) {
      Expr& x = e.args.emplace_back();
      std::uint32_t xh = 0;
      if (!or_expr(x, xh)) return false;
      mh = std::max(mh, xh);
      blanks();
      if (word == nullptr) return true;
      if (!word_at(p_, std::string_view(word, size))) return false;
      p_ += size;
      blanks();
      return true;
    };
    while (word_at(p_, "WHEN")) {
      p_ += 4;
      blanks();
      if (!part("THEN", 4) || !part(nullptr, 0)) return false;
    }
    if (word_at(p_, "ELSE")) {
      p_ += 4;
      blanks();
      if (!part(nullptr, 0)) return false;
    }
    if (!word_at(p_, "END")) return false;
    p_ += 3;
    --depth_;
    e.end = static_cast<std::uint32_t>(p_);
    h = mh + 1;
    return h <= kMaxFastHeight;
  }

  // A word alone (followed by a blank, a closer or the end): `true` / `false` (bool_literal),
  // `null` (null_literal), else a bare_name, which Catalyst reads as a string literal. Declined:
  // keywords, words an earlier alternative reads (case, cast, interval, `Subquery ...`), other
  // spellings of true / false / null, and a `#` that attr_start reaches.
  // A word right before `*` `/` `+` `-` (`self-help`, `N/A`: the grammar's bare_name, then
  // mul_tail or add_tail without blanks) is read too, but for a run of one datetime pattern
  // letter (`M/d`, `yyyy-MM`: datetime_pattern, a literal, comes before bare_name).
  bool word(Expr& e, std::uint32_t& h, std::size_t s, std::string_view w) {
    if (!(operand_ends() || (arith_byte(b_[p_]) && !pattern_run(w))) || gx::reserved::is_keyword(w.data(), w.size()) ||
        hash_reachable(s))
      return false;
    e.kind = ExprKind::Literal;
    e.name = sv(w);
    e.begin = static_cast<std::uint32_t>(s);
    e.end = static_cast<std::uint32_t>(p_);
    h = 1;
    if (w == "true" || w == "false") {
      e.type = "boolean";
      return true;
    }
    if (w == "null") {
      e.type = "null";
      return true;
    }
    if (iequals_any(w, kEarlierWords)) return false;
    if (w == "Subquery" || w == "ReusedSubquery") return false;
    e.type = "string";
    last_bare_word_ = s;
    return true;
  }

  // The word is one letter of pattern_run repeated (`yyyy`, `M`, `dd`).
  static bool pattern_run(std::string_view w) {
    const char c = w[0];
    if (c != 'y' && c != 'M' && c != 'd' && c != 'H' && c != 'm' && c != 's' && c != 'S') return false;
    for (char x : w)
      if (x != c) return false;
    return true;
  }

  // subquery_expr's first alternative: seq<opt<reused_mark>, kw_subquery, plus<blank_char>, subquery_ref>;
  // subquery_ref: seq<subquery_name, hash_id, opt<',', ws, plan_tag>>. `p_` is after the first word.
  // The leaf (action<subquery_expr>): type "reused" after ReusedSubquery, name and id from the
  // last word before the tag.
  bool subquery(Expr& e, std::uint32_t& h, std::size_t s, bool reused) {
    blanks();
    if (reused) {
      if (!word_at(p_, "Subquery")) return false;
      p_ += 8;
      if (p_ >= n_ || b_[p_] != ' ') return false;
      blanks();
    }
    const std::size_t ns = p_;
    while (p_ < n_ && ((b_[p_] >= 'a' && b_[p_] <= 'z') || (b_[p_] >= 'A' && b_[p_] <= 'Z') || b_[p_] == '-')) ++p_;
    const std::string_view name(b_ + ns, p_ - ns);
    if (!(subquery_name(name) || name == "scalar-subquery") || p_ >= n_ || b_[p_] != '#') return false;
    const std::size_t hash = p_;
    if (!hash_id()) return false;
    const std::size_t id_end = p_;
    // opt<',', ws, plan_tag>; plan_tag: seq<'[', sor<"id=#", "plan_id=">, sor<digits, 'x'>, ']'>.
    // Only `, [` or `,[` before the tag (the action cuts the text there).
    if (p_ < n_ && b_[p_] == ',') {
      std::size_t q = p_ + 1;
      if (q < n_ && b_[q] == ' ') ++q;
      if (q < n_ && b_[q] == '[') {
        ++q;
        if (n_ - q >= 4 && std::string_view(b_ + q, 4) == "id=#") q += 4;
        else if (n_ - q >= 8 && std::string_view(b_ + q, 8) == "plan_id=") q += 8;
        else return false;
        if (q < n_ && digit(b_[q])) {
          while (q < n_ && digit(b_[q])) ++q;
        } else if (q < n_ && b_[q] == 'x') {
          ++q;
        } else {
          return false;
        }
        if (q >= n_ || b_[q] != ']') return false;
        p_ = q + 1;
      } else if (q < n_ && b_[q] == ' ') {
        return false;  // `,  [`: the tag would stay in the text the name is read from
      }
    }
    if (!operand_ends()) return false;
    e.kind = ExprKind::Subquery;
    e.name = sv(name);
    e.expr_id = sv(std::string_view(b_ + hash + 1, id_end - hash - 1));
    if (reused) e.type = "reused";
    e.begin = static_cast<std::uint32_t>(s);
    e.end = static_cast<std::uint32_t>(p_);
    h = 1;
    return true;
  }

  // paren_expr: nesting<'(', ws, expression, ws, must<paren_close>>; the node's span takes the parentheses.
  bool paren(Expr& e, std::uint32_t& h) {
    if (++depth_ > kMaxDepth) return false;
    const std::size_t open = p_;
    ++p_;
    blanks();
    if (!expression(e, h)) return false;
    blanks();
    if (p_ >= n_ || b_[p_] != ')') return false;
    ++p_;
    --depth_;
    e.begin = static_cast<std::uint32_t>(open);
    e.end = static_cast<std::uint32_t>(p_);
    return true;
  }

  // number: digits, an optional '.' and digits, and nothing name-like after (date_literal and
  // month_literal need a '-' after four digits; attribute an `#id` after a name word, and the
  // token after the number is a closer, an operator or a keyword).
  // With `dates`, also date_literal's date part alone (`2024-01-01`; a time after it is declined).
  bool number(Expr& e, std::uint32_t& h, bool dates) {
    const std::size_t s = p_;
    p_ = digits_end(p_);
    if (dates && p_ - s == 4 && p_ + 6 <= n_ && b_[p_] == '-' && digit(b_[p_ + 1]) && digit(b_[p_ + 2]) && b_[p_ + 3] == '-' &&
        digit(b_[p_ + 4]) && digit(b_[p_ + 5])) {
      p_ += 6;
      if (p_ < n_ && (b_[p_] == 'T' || (b_[p_] == ' ' && p_ + 1 < n_ && digit(b_[p_ + 1])))) return false;
      if (!operand_ends()) return false;
      e.kind = ExprKind::Literal;
      e.name = sv(std::string_view(b_ + s, p_ - s));
      e.type = "date";
      e.begin = static_cast<std::uint32_t>(s);
      e.end = static_cast<std::uint32_t>(p_);
      h = 1;
      return true;
    }
    if (p_ < n_ && b_[p_] == '.') p_ = digits_end(p_ + 1);
    if (!operand_ends()) return false;  // an exponent, a suffix (L, BD, ...), a date, a name: declined
    set_literal(e, s, p_);
    h = 1;
    return true;
  }

  // function_call: nesting<function_name, '(', ws, opt<distinct_mark>, call_args, ws, must<call_close>>.
  // Words an earlier alternative takes before a '(' are declined: case / cast / try_cast (case_expr,
  // cast_expr), interval, true / false / null (literals), and keywords.
  bool call(Expr& e, std::uint32_t& h, std::size_t s, std::string_view w) {
    if (w == "cast" || w == "try_cast") return cast(e, h, s, w);
    if (gx::reserved::is_keyword(w.data(), w.size()) || iequals_lower(w, "case") || iequals_lower(w, "cast") ||
        iequals_lower(w, "try_cast") || iequals_lower(w, "interval") || iequals_lower(w, "true") ||
        iequals_lower(w, "false") || iequals_lower(w, "null"))
      return false;
    if (++depth_ > kMaxDepth) return false;
    ++p_;  // '('
    blanks();
    if (p_ + 8 <= n_ && iequals_lower(std::string_view(b_ + p_, 8), "distinct")) return false;
    e.kind = ExprKind::Function;
    e.name = sv(w);
    e.begin = static_cast<std::uint32_t>(s);
    std::uint32_t ah = 0;
    if (!call_args(e.args, ah)) return false;
    --depth_;
    e.end = static_cast<std::uint32_t>(p_);
    h = ah + 1;
    return h <= kMaxFastHeight;
  }

  // cast_expr: nesting<kw_cast, '(', ws, must<cast_operand>, ws, must<cast_as>, ws, must<cast_type>, ws,
  // must<cast_close>>; cast_operand: or_expr; cast_type: type_text (up to the `)` closing the
  // cast, `(` `[` `<` nesting). The node: Cast "cast" / "try_cast" over the operand, the type in
  // `type`. Only the lower-case spellings (another is kept upper-cased, then lowered: the same
  // name, but not a view).
  bool cast(Expr& e, std::uint32_t& h, std::size_t s, std::string_view w) {
    if (++depth_ > kMaxDepth) return false;
    ++p_;  // '('
    blanks();
    Expr x;
    std::uint32_t xh = 0;
    if (!or_expr(x, xh)) return false;
    std::size_t at = 0, len = 0;
    if (peek(at, len) != Tok::As) return false;
    p_ = at + len;
    blanks();
    const std::size_t ts = p_;
    std::size_t depth = 0, q = p_;
    for (; q < n_; ++q) {
      const char c = b_[q];
      if (c == '\t' || c == '\r' || c == '\n') return false;
      if (c == '(' || c == '[' || c == '<') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '>') {
        if (depth == 0) break;
        --depth;
      }
    }
    std::size_t te = q;
    while (te > ts && b_[te - 1] == ' ') --te;
    if (depth != 0 || te == ts) return false;
    p_ = te;
    blanks();
    if (p_ >= n_ || b_[p_] != ')') return false;
    ++p_;
    --depth_;
    e.kind = ExprKind::Cast;
    e.name = w == "cast" ? Text("cast") : Text("try_cast");
    e.type = sv(std::string_view(b_ + ts, te - ts));
    e.begin = static_cast<std::uint32_t>(s);
    e.end = static_cast<std::uint32_t>(p_);
    e.args.reserve(1);
    e.args.push_back(std::move(x));
    h = xh + 1;
    return h <= kMaxFastHeight;
  }

  // After the '(' and its blanks: call_args, ws, ')'. call_args: opt<item_list>; item_list:
  // seq<first_item, star<list_sep, next_item>>; an item is an expression followed by `,` or `)`
  // (list_item's first alternative), or an empty literal (empty_literal: the first only before
  // a ','). `h` grows to the highest item.
  bool call_args(CompactVector<Expr>& args, std::uint32_t& h) {
    if (p_ < n_ && b_[p_] == ')') {
      ++p_;
      return true;
    }
    bool first = true;
    for (;;) {
      const char c = p_ < n_ ? b_[p_] : '\0';
      if (c == ',' || (!first && c == ')')) {
        Expr& lit = args.emplace_back();
        lit.kind = ExprKind::Literal;
        lit.name = "";
        lit.type = "string";
        lit.begin = lit.end = static_cast<std::uint32_t>(p_);
        h = std::max<std::uint32_t>(h, 1);
      } else {
        // Read in its place in the list (nothing below touches `args`; a decline drops the tree).
        Expr& item = args.emplace_back();
        std::uint32_t ih = 0;
        const std::size_t s = p_, depth = depth_;
        if (!expression(item, ih)) {
          // list_item's second alternative, raw_literal (`IN (Williamson County,Bronx County)`,
          // `IN (IN,OH,NJ)`), where the grammar's expression cannot be what the item is.
          p_ = s;
          depth_ = depth;
          if (!raw_item(s, item)) return false;
          ih = 1;
        }
        h = std::max(h, ih);
      }
      blanks();
      if (p_ >= n_) return false;
      if (b_[p_] == ',') {
        ++p_;
        blanks();
        first = false;
        continue;
      }
      if (b_[p_] == ')') {
        ++p_;
        return true;
      }
      return false;
    }
  }

  const char* b_;
  std::size_t n_;
  std::size_t p_ = 0;
  std::size_t depth_ = 0;
  std::size_t last_bare_word_ = static_cast<std::size_t>(-1);  // where word() last read a bare name
  mutable std::size_t memo_p_ = static_cast<std::size_t>(-1);  // peek's last position and answer
  mutable std::size_t memo_at_ = 0;
  mutable std::size_t memo_len_ = 0;
  mutable Tok memo_tok_ = Tok::Other;
};

// Whether the n bytes at b hold "..." (Spark's mark of a cut text). From 16 bytes: the '.' found
// 16 bytes a look where SSE2 is there, the last look ending at the text's end (overlapping the one
// before), each '.' checked for two more. Under 16 bytes (most keys and attribute texts): whether
// a '.' is there at all, two word loads that overlap, and byte by byte only when one is. The byte
// loop over the last (n mod 16) bytes cost ~1.0 M instructions on the golden plans.
inline bool holds_cut_mark(const char* b, std::size_t n) {
  if (n < 3) return false;
#if defined(__SSE2__)
  if (n >= 16) {
    using namespace byte_scan_detail;
    for (std::size_t q = 0;; q = std::min(q + 16, n - 16)) {
      for (unsigned m = movemask(eq(load16(b + q), splat('.'))); m != 0; m &= m - 1) {
        const std::size_t i = q + static_cast<std::size_t>(__builtin_ctz(m));
        if (i + 2 < n && b[i + 1] == '.' && b[i + 2] == '.') return true;
      }
      if (q + 16 == n) return false;
    }
  }
#endif
  if (n >= 4 && n <= 16) {
    // A zero byte in x ^ dots where a '.' is: (x - 0x01..) & ~x & 0x80.. is not zero exactly when
    // some byte of x is zero (its false marks lie only above a true one).
    auto dots8 = [](const char* p) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      const std::uint64_t x = w ^ 0x2E2E2E2E2E2E2E2Eull;
      return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
    };
    auto dots4 = [](const char* p) {
      std::uint32_t w;
      std::memcpy(&w, p, 4);
      const std::uint32_t x = w ^ 0x2E2E2E2Eu;
      return (x - 0x01010101u) & ~x & 0x80808080u;
    };
    if (n >= 8 ? (dots8(b) | dots8(b + n - 8)) == 0 : (dots4(b) | dots4(b + n - 4)) == 0) return false;
  }
  for (std::size_t q = 0; q + 2 < n; ++q)
    if (b[q] == '.' && b[q + 1] == '.' && b[q + 2] == '.') return true;
  return false;
}

}  // namespace

bool fast_parse(TextStore& store, Text text, ExprDialect dialect, ParsedExpr& out) {
  if (dialect == ExprDialect::Sql) return false;
  // A text of 64 KiB or more (its names could be too): the grammar, which packs any text.
  if (!PackedView::short_parts(text.data(), text.size())) return false;
  const BlockScope blocks(store);  // the tree's argument lists live in the plan's store
  Fast f(text.data(), text.size());
  Expr& root = out.root.emplace();
  const bool ok = dialect == ExprDialect::PushedFilter ? f.pushed_filter(root) : f.catalyst(root);
  if (!ok) {
    out.root.reset();
    return false;
  }
  out.text = PackedView::short_part(text.data(), text.size());
  out.error = PackedView{};
  out.error_offset = 0;
  out.truncated = holds_cut_mark(text.data(), text.size());
  return true;
}

}  // namespace planlint::expr_parse
