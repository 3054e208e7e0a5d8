// libFuzzer target: the output writers on parsed hostile plans. Any input (explain text, Query
// Profile JSON, event log: format detection decides) is linted and written in every format (text,
// concise, json, sarif, github, junit, show, DOT, the parse tree, the HTML report); each must keep
// its promise (tools/fuzz/output_checks.hpp): terminal text without raw control characters or
// workflow-command lines, valid UTF-8, JSON that parses, well-formed XML.
// The file name is hostile too: it holds an escape, a newline and `::`.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "tools/fuzz/output_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::string path = "plans/\x1b[2Jq\n::warning::x\xff.txt";
  if (auto why = planlint::fuzz::check_all_outputs(text, path); !why.empty()) {
    std::fprintf(stderr, "output promise broken: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
