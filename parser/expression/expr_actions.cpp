// Actions of the expression parser for operators, calls, lists, CASE, casts and suffixes, and the
// parse itself: the one place where grammar, control and every action meet.
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tao/pegtl.hpp>

#include "grammar/expression.hpp"
#include "parser/expression/expr_control.hpp"
#include "parser/expression/expr_leaf_actions.hpp"
#include "parser/expression/expr_pushed_filter.hpp"
#include "parser/expression/expr_state.hpp"

namespace planlint::expr_parse {

template <typename Rule>
struct op_action {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    push_leaf(st, ExprKind::Raw, keep_op(st, in.string_view()), in);
  }
};
// `&&` / `||` (Spark 2.x) are kept as AND / OR: rules see one spelling.
template <char Symbol, const char* Word>
struct logical_op_action {
  template <typename ActionInput>
  static void apply(const ActionInput& in, State& st) {
    std::string_view s = in.string_view();
    if (s.size() == 2 && s[0] == Symbol && s[1] == Symbol)
      push_leaf(st, ExprKind::Raw, st.keep_built(s, Word), in);
    else
      push_leaf(st, ExprKind::Raw, keep_op(st, s), in);
  }
};
inline constexpr char kOrWord[] = "OR";
inline constexpr char kAndWord[] = "AND";
template <> struct action<g::op_or> : logical_op_action<'|', kOrWord> {};
template <> struct action<g::op_and> : logical_op_action<'&', kAndWord> {};
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
    PackedView& op = st.stack[st.stack.size() - 2].e.name;
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
    if (rest.size() > 9 && iequals(rest.substr(0, 8), "DISTINCT")) e.type = "distinct";
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
    push_leaf(st, ExprKind::Raw, st.keep(trim(in.string_view())), in);
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


template <typename Grammar>
ParsedExpr run(TextStore& store, Text text, unsigned flags) {
  // The tree's argument lists live in the plan's store, and so does the view of a text of 64 KiB
  // or more (PackedView).
  const BlockScope blocks(store);
  ParsedExpr out;
  out.text = text;
  out.truncated = text.find("...") != std::string_view::npos;
  // One State per thread, reused: its stacks keep their capacity from one expression to the next
  // (a plan has thousands of expressions). parse_expression is not re-entered from an action.
  thread_local State st;
  st.reset(text.data(), text.size(), &store, flags);
  try {
    // The source name is a plain pointer (the default, std::string, is built for every expression).
    pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*> in(text.data(), text.size(), "expression");
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

ParsedExpr run_grammar(ExprGrammar grammar, TextStore& store, Text text, unsigned flags) {
  return grammar == ExprGrammar::PushedFilter ? run<g::pushed_filter_text>(store, text, flags)
                                              : run<g::catalyst_text>(store, text, flags);
}

}  // namespace planlint::expr_parse
