// libFuzzer target: the explain-text parser and every rule over what it builds.
// Build and run: tools/fuzz.sh (FUZZ_SECONDS=30 by default).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/engine.hpp"
#include "parser/explain/explain.hpp"
#include "tools/fuzz/plan_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  planlint::ParseResult parsed = planlint::parse_explain_text(text, "fuzz.explain.txt");
  if (auto why = planlint::fuzz::plan_invariant_violation(parsed, text); !why.empty()) {
    std::fprintf(stderr, "plan invariant violated: %s\n", why.c_str());
    std::abort();
  }
  (void)planlint::run_rules(parsed, planlint::Config{});
  return 0;
}
