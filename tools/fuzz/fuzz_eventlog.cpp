// libFuzzer target: the Spark event-log reader (JSON lines) and every rule over what it builds.
// The input is the log itself, read twice through the public entry points: whole
// (parse_event_log on the buffer) and streamed (parse_event_log_stream on an istringstream over
// the same bytes). Both must keep the plan invariants and agree on how many plans they build.
// Build and run: tools/fuzz.sh fuzz_eventlog (seeds: corpus/**/*.jsonl|*eventlog*, tests/fuzz_regressions/eventlog).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/engine.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "tools/fuzz/plan_invariants.hpp"

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "event-log invariant violated: %s\n", why.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const planlint::EventLogOptions opts;
  planlint::ParseResult whole = planlint::parse_event_log(text, "fuzz.eventlog", opts);
  if (auto why = planlint::fuzz::plan_invariant_violation(whole, text); !why.empty()) fail("whole: " + why);
  std::istringstream in{std::string(text)};
  planlint::ParseResult streamed = planlint::parse_event_log_stream(in, "fuzz.eventlog", opts);
  if (auto why = planlint::fuzz::plan_invariant_violation(streamed, text); !why.empty()) fail("streamed: " + why);
  if (whole.plans.size() != streamed.plans.size()) fail("whole and streamed reads build different plans");
  (void)planlint::run_rules(whole, planlint::Config{});
  return 0;
}
