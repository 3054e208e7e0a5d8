// The state of the expression parser (parser/expression/): the stack of finished nodes, the marks
// that let a failed rule drop what it pushed, and the helpers that push, pop and reduce.
//
// The actions keep a stack of finished nodes. Every rule records the stack height when it starts;
// when it fails, whatever it pushed is dropped again (control::failure, expr_control.hpp), so
// backtracking never leaves stray nodes. Reductions (`a AND b`, `f(x, y)`) pop what their
// sub-rules pushed since the rule started. Nesting is bounded twice: the control counts the
// `nesting<>` rules (parentheses, calls, lists, NOT, unary minus; kMaxNesting), and every node
// carries its height so long flat chains (`a OR b OR c ...` in SQL text) cannot build a tree whose
// destructor would recurse too deeply (kMaxHeight).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tao/pegtl.hpp>

#include "grammar/expression.hpp"
#include "model/expr.hpp"
#include "model/plan.hpp"

namespace planlint::expr_parse {

namespace g = grammar::expr;
namespace pegtl = tao::pegtl;

inline constexpr std::size_t kMaxNesting = 200;
inline constexpr std::uint32_t kMaxHeight = 2000;

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


// ---------------------------------------------------------------- stack helpers
inline void push(State& st, Expr&& e, std::uint32_t height = 1) {
  st.stack.emplace_back(std::move(e), height);
}

inline Item pop(State& st) {
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
inline void push_node(State& st, const ParseInput& in, Expr e, std::vector<Item>&& kids) {
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
inline std::vector<Item> take_since_mark(State& st) {
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
inline std::size_t current_mark(const State& st) { return st.marks.empty() ? 0 : std::min(st.marks.back(), st.stack.size()); }

// `e` over the stack items from `from` to the top (they are moved into its arguments, with no
// list in between as take_since_mark + push_node would build), checking the height bound; the
// stack is cut to `to` (<= from) before `e` goes on it.
template <typename ParseInput>
inline void reduce_from(State& st, const ParseInput& in, Expr&& e, std::size_t from, std::size_t to) {
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
inline void reduce_from(State& st, const ParseInput& in, Expr&& e, std::size_t from) {
  reduce_from(st, in, std::move(e), from, from);
}

template <typename ParseInput>
inline Expr make(ExprKind k, Text name, const ParseInput& in, const State& st) {
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
inline Expr& push_leaf(State& st, ExprKind k, Text name, const ParseInput& in) {
  Expr& e = st.stack.emplace_back().e;
  e.kind = k;
  e.name = name;
  e.begin = st.offset(in.begin());
  e.end = st.offset(in.end());
  return e;
}

// "name#12L" / "#x" / "sum(x)#40L-T100ms" -> name and id.
inline void split_attribute(const State& st, std::string_view text, PackedView& name, PackedView& id) {
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
inline void combine_two(State& st, const ParseInput& in, ExprKind kind, Text name, Item first, Item second) {
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
inline void reduce_binary(State& st, const ParseInput& in) {
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
inline void wrap_unary(State& st, const ParseInput& in, Text name, std::uint32_t begin) {
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

// The two grammars the dialects read with; run_grammar parses `text` with one (expr_actions.cpp)
// under the grammar flags of the dialect (g::kSqlLiterals, ...). Never throws.
enum class ExprGrammar { Catalyst, PushedFilter };
ParsedExpr run_grammar(ExprGrammar grammar, TextStore& store, Text text, unsigned flags);

}  // namespace planlint::expr_parse
