// libFuzzer target: the History Server SQL answer reader (`/api/v1/applications/<app>/sql`) and
// every rule over what it builds. Build and run: tools/fuzz.sh fuzz_history_server (seeds:
// corpus/history-server/*.json, tests/fuzz_regressions/history_server; dictionary
// tools/fuzz/fuzz_history_server.dict with out-of-range numbers and the reader's keys).
// Beyond the shared plan invariants: every message has a location, and a bad answer (invalid
// JSON, a number out of range) is a message, never an exception.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/engine.hpp"
#include "parser/history_server/history_server.hpp"
#include "tools/fuzz/plan_invariants.hpp"

namespace {

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "history server invariant violated: %s\n", why);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)planlint::looks_like_history_server(text);
  planlint::ParseResult parsed = planlint::parse_history_server(text, "fuzz.sql.json");
  if (auto why = planlint::fuzz::plan_invariant_violation(parsed, text); !why.empty()) fail(why.c_str());
  for (const auto& m : parsed.messages)
    if (!m.loc.known()) fail("message without a location");
  (void)planlint::run_rules(parsed, planlint::Config{});
  // One execution only, as `--execution 1` asks.
  planlint::HistoryServerOptions one;
  one.execution = 1;
  planlint::ParseResult single = planlint::parse_history_server(text, "fuzz.sql.json", one);
  if (auto why = planlint::fuzz::plan_invariant_violation(single, text); !why.empty()) fail(why.c_str());
  if (single.plans.size() > parsed.plans.size()) fail("--execution gave more plans than the whole answer");
  return 0;
}
