// libFuzzer target: suppression comments (`# planlint: disable=RULE operator=ID`). Any text is
// scanned for directives; every directive found is on a directive line, applying them only removes
// findings or adds `unused-suppression` ones, and a plan with the text prepended still lints.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/check.hpp"
#include "lint/core/suppress.hpp"

namespace {
[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "suppression invariant violated: %s\n", why.c_str());
  std::abort();
}

std::string_view line_at(std::string_view text, std::uint32_t n) {
  std::size_t pos = 0;
  for (std::uint32_t k = 1; k < n; ++k) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  std::size_t e = text.find('\n', pos);
  return text.substr(pos, e == std::string_view::npos ? std::string_view::npos : e - pos);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto found = planlint::find_suppressions(text);
  for (const auto& s : found) {
    std::string_view line = line_at(text, s.loc.line);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!planlint::is_directive_line(line)) fail("a directive on a line that is not a directive line");
  }
  // Directives in front of a plan that has findings.
  static const std::string plan =
      "== Physical Plan ==\n* Project (3)\n+- * Filter (2)\n   +- Scan parquet db.t (1)\n\n(1) Scan parquet db.t\n"
      "Output [1]: [ts#1]\nReadSchema: struct<ts:timestamp>\n\n(2) Filter\nInput [1]: [ts#1]\n"
      "Condition : (cast(ts#1 as date) = 2024-03-01)\n\n(3) Project\n";
  std::string whole = std::string(text) + "\n" + plan;
  planlint::Config config;
  planlint::LintResult lint = planlint::lint_text(whole, "q.txt", config);
  std::size_t before = lint.diagnostics.size();
  auto directives = planlint::find_suppressions(whole);
  std::size_t entries = 0;
  for (const auto& d : directives) entries += d.understood ? d.rules.size() : 1;  // one report per line not understood
  std::size_t removed = planlint::apply_suppressions(directives, lint.diagnostics, config);
  if (removed > before) fail("removed more findings than there were");
  if (lint.diagnostics.size() > before - removed + entries) fail("more unused-suppression findings than entries");
  (void)planlint::check_text(whole, "q.txt", config);
  return 0;
}
