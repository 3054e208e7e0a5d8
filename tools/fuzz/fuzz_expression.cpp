// libFuzzer target: the expression grammar (grammar/expression.hpp) in all three dialects, plus
// the expr_util helpers over every tree it builds.
// Build and run: tools/fuzz.sh fuzz_expression (clang, ASan+UBSan, in build-asan/), or by hand
//   build-asan/fuzz/fuzz_expression -max_total_time=60
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "lint/catalog/all_rules.hpp"
#include "model/expr_util.hpp"
#include "parser/expression/expression.hpp"

namespace {

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "expression invariant violated: %s\n", why);
  std::abort();
}

void check_spans(const planlint::Expr& e, std::size_t size) {
  std::vector<const planlint::Expr*> todo{&e};
  while (!todo.empty()) {
    const planlint::Expr* x = todo.back();
    todo.pop_back();
    if (x->begin > x->end || x->end > size) fail("node span outside the text");
    for (const auto& a : x->args) todo.push_back(&a);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto d : {planlint::ExprDialect::Catalyst, planlint::ExprDialect::PushedFilter, planlint::ExprDialect::Sql}) {
    planlint::TextStore store;  // the names the parser builds
    const planlint::ParsedExpr p = planlint::parse_expression(store, planlint::Text::stable(text), d);  // data lives for the call
    if (p.text != text) fail("text not kept");
    if (p.root) {
      if (!p.error.empty()) fail("tree and error at once");
      check_spans(*p.root, size);
      (void)planlint::to_string(*p.root);
      for (const planlint::Expr* c : planlint::split_conjuncts(*p.root)) {
        (void)planlint::catalyst_filter_parts(*c);
        (void)planlint::pushed_filter_parts(*c);
        (void)planlint::non_sargable_side(*c);
        (void)planlint::is_function_of_column(*c);
        (void)planlint::is_literal(*c);
      }
      for (const planlint::Expr* a : planlint::collect_attributes(*p.root)) (void)planlint::column_name(*a, true);
    } else {
      if (p.error.empty()) fail("no tree and no error");
      if (p.error_offset > size) fail("error offset outside the text");
    }
  }
  return 0;
}
