// The control of the expression parser: marks for backtracking (expr_state.hpp), the nesting
// count, and the fast path for tokens and lookaheads.
//
// PEGTL version relied on: 3.2.7 (TAO_PEGTL_VERSION). `never_fails` and `markless` below are
// specialised on the types PEGTL's public combinators stand for (`pegtl::star<R>::rule_t` is
// `pegtl::internal::star<R>`, and so on): that is PEGTL's private namespace, so an upgrade may
// rename them. A renamed type fails to compile here; a type that merely stops being the one a
// public combinator stands for would silently turn the specialisations off (more bookkeeping, the
// same trees), which tests/parser/expression/test_expr_control.cpp catches: it asserts that the
// combinators the grammar uses are recognised, and that the PEGTL version is the one named here.
#pragma once

#include <type_traits>

#include <tao/pegtl.hpp>

#include "grammar/expression.hpp"
#include "parser/expression/expr_errors.hpp"
#include "parser/expression/expr_state.hpp"

namespace planlint::expr_parse {

// The PEGTL version the names below were checked against (test_expr_control.cpp compares).
inline constexpr const char* kPegtlVersionReliedOn = "3.2.7";

template <typename Rule>
struct control;
// Actions are specialised in expr_leaf_actions.hpp, expr_actions.cpp and expr_pushed_filter.hpp;
// every action of a parse must be declared before the parse is instantiated (expr_actions.cpp).
template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// The control inside a `token` rule (a word, a number, a string): plain PEGTL matching with no
// actions and no bookkeeping, keeping only the error messages of `must<>` failures.
template <typename Rule>
struct token_control : pegtl::normal<Rule> {
  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&...) {
    static_assert(error_message<Rule> != nullptr, "a must<> of grammar/expression.hpp has no message in expr_errors.hpp");
    throw pegtl::parse_error(error_message<Rule>, in);
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

  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&...) {
    static_assert(error_message<Rule> != nullptr, "a must<> of grammar/expression.hpp has no message in expr_errors.hpp");
    throw pegtl::parse_error(error_message<Rule>, in);
  }
};

}  // namespace planlint::expr_parse
