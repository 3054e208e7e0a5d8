// Actions of the expression parser for the pushed-filter dialect (`PushedFilters: [IsNotNull(a),
// EqualTo(a,1)]`). Included by expr_actions.cpp, where the parse is instantiated.
#pragma once

#include <string_view>
#include <vector>

#include "parser/expression/expr_control.hpp"
#include "parser/expression/expr_leaf_actions.hpp"
#include "parser/expression/expr_state.hpp"

namespace planlint::expr_parse {

// ---- pushed filters
inline bool is_logical_filter(std::string_view n) { return n == "And" || n == "Or" || n == "Not"; }

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

}  // namespace planlint::expr_parse
