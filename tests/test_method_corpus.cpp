// Corpus cases of the troubleshooting-method rules: corpus/rules/<rule>/ for the nine PL1xx rules,
// each input with `<file>.expected` (one line per diagnostic of any rule:
// `line:col rule operator_id message`, the format of the mission-rule corpus). `trigger-*` files
// must produce a finding of the directory's rule, `near-miss-*` files none.
// Regenerate with PLANLINT_UPDATE_GOLDENS=1, then read the diff.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "lint/engine.hpp"
#include "rules/rule.hpp"
#include "support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

std::string format_method_diagnostics(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds)
    out += std::to_string(d.range.line) + ":" + std::to_string(d.range.column) + " " + d.rule + " " +
           (d.operator_id.empty() ? "-" : d.operator_id) + " " + d.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("corpus/rules: troubleshooting-method rules, trigger and near-miss cases") {
  const char* rules[] = {"slow-phase",     "low-file-pruning", "small-files",  "disk-spill",
                         "python-udf",     "duplicate-work",   "wide-projection", "aqe-disabled",
                         "single-partition-shuffle"};
  for (const char* rule : rules) {
    fs::path dir = test::corpus_dir() / "rules" / rule;
    INFO("rule directory: " << rule);
    REQUIRE(fs::is_directory(dir));
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      auto ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".txt" || ext == ".json")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::size_t triggers = 0, near_misses = 0;
    for (const auto& f : files) {
      std::string rel = fs::relative(f, test::source_dir()).string();
      CAPTURE(rel);
      LintResult r = lint_text(test::read_file(f), rel, Config{});
      CHECK_FALSE(r.parse.has_errors());
      std::size_t of_rule = 0;
      for (const auto& d : r.diagnostics) {
        if (d.rule == rule) ++of_rule;
        CHECK(d.range.known());
        CHECK_FALSE(d.evidence.empty());
        CHECK_FALSE(d.fix.empty());
      }
      std::string stem = f.filename().string();
      if (stem.rfind("trigger", 0) == 0) {
        ++triggers;
        CHECK(of_rule >= 1);
      }
      if (stem.rfind("near-miss", 0) == 0) {
        ++near_misses;
        CHECK(of_rule == 0);
      }
      fs::path expected = f;
      expected += ".expected";
      test::check_golden(expected, format_method_diagnostics(r.diagnostics));
    }
    CHECK(triggers >= 1);
    CHECK(near_misses >= 1);
  }
}
