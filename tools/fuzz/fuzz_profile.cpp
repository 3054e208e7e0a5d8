// libFuzzer target: the Query Profile JSON reader and every rule over what it builds.
// Build and run: tools/fuzz.sh fuzz_profile (seeds: corpus/**/*.json, tests/fuzz_regressions/profile).
// Beyond the shared plan invariants, the reader promises an acyclic DAG (cycles in the file are
// broken with a message) and a location on every message. The reader's own JSON scanner must read
// every input exactly as nlohmann's parser does (parse_query_profile with ProfileJsonParser::Nlohmann:
// the same `parse --format json`, diagnostics included).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "lint/catalog/all_rules.hpp"
#include "lint/core/plan_json.hpp"
#include "lint/engine/engine.hpp"
#include "parser/profile/profile.hpp"
#include "tools/fuzz/plan_invariants.hpp"

namespace {

bool acyclic(const planlint::Plan& p) {
  const std::size_t n = p.ops.size();
  std::vector<std::size_t> indegree(n, 0);
  for (const auto& op : p.ops)
    for (std::size_t c : op.children) ++indegree[c];
  std::vector<std::size_t> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (!indegree[i]) ready.push_back(i);
  std::size_t seen = 0;
  while (!ready.empty()) {
    std::size_t v = ready.back();
    ready.pop_back();
    ++seen;
    for (std::size_t c : p.ops[v].children)
      if (--indegree[c] == 0) ready.push_back(c);
  }
  return seen == n;
}

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "profile invariant violated: %s\n", why);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  planlint::ParseResult parsed = planlint::parse_query_profile(text, "fuzz.json");
  if (auto why = planlint::fuzz::plan_invariant_violation(parsed, text); !why.empty()) fail(why.c_str());
  planlint::ParseResult reference =
      planlint::parse_query_profile(text, "fuzz.json", planlint::ProfileJsonParser::Nlohmann);
  if (planlint::dump_json(planlint::parse_result_json(parsed)) != planlint::dump_json(planlint::parse_result_json(reference)))
    fail("the scanner and nlohmann's parser read the text differently");
  for (const auto& m : parsed.messages)
    if (!m.loc.known()) fail("message without a location");
  for (const auto& p : parsed.plans)
    if (!acyclic(p)) fail("cycle left in the operator graph");
  (void)planlint::run_rules(parsed, planlint::Config{});
  return 0;
}
