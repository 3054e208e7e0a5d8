// libFuzzer target: the baseline reader (`--baseline FILE`, a file users commit and edit). Any
// bytes either give a baseline or an error; a baseline applied to a report only ever removes
// findings, and a baseline we write reads back to itself.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/core/baseline.hpp"
#include "lint/engine/check.hpp"

namespace {
[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "baseline invariant violated: %s\n", why.c_str());
  std::abort();
}

const planlint::FileReport& sample() {
  static const planlint::FileReport r = planlint::check_text(
      "== Physical Plan ==\n* Project (3)\n+- * Filter (2)\n   +- Scan parquet db.t (1)\n\n(1) Scan parquet db.t\n"
      "Output [1]: [ts#1]\nReadSchema: struct<ts:timestamp>\n\n(2) Filter\nInput [1]: [ts#1]\n"
      "Condition : (cast(ts#1 as date) = 2024-03-01)\n\n(3) Project\n",
      "plans/q1.txt", planlint::Config{});
  return r;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto baseline = planlint::parse_baseline(text, error);
  if (!baseline) {
    if (error.empty()) fail("no baseline and no error");
    return 0;
  }
  planlint::FileReport report = sample();
  const std::size_t before = report.diagnostics.size();
  std::size_t removed = planlint::apply_baseline(*baseline, report, "baseline.json");
  if (report.diagnostics.size() + removed != before) fail("apply_baseline added findings or miscounted");
  // Round trip: what we write for the sample reads back and absorbs every finding.
  std::string written = planlint::baseline_json({sample()}, "baseline.json");
  auto again = planlint::parse_baseline(written, error);
  if (!again) fail("our own baseline does not read back: " + error);
  planlint::FileReport fresh = sample();
  planlint::apply_baseline(*again, fresh, "baseline.json");
  if (!fresh.diagnostics.empty()) fail("our own baseline does not absorb the findings it was written from");
  return 0;
}
