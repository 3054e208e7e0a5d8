// The rules over Spark's own golden plans in ../shared (TPC-DS and SQL tests, Spark 3.2 and 4.1).
// These plans carry no runtime metrics and no statistics, so rules that need size or runtime
// evidence must stay silent. Every other finding is listed in tests/goldens/shared-spark-findings.txt
// (regenerate with PLANLINT_UPDATE_GOLDENS=1); each line there was read and judged true.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "lint/engine/engine.hpp"
#include "rules/rule.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// Every plan rule (RuleDoc::family), selected by code.
Config plan_rules() {
  Config c;
  for (const auto& r : all_rules())
    if (r->doc().family == RuleFamily::Plan) c.select.insert(r->doc().code);
  return c;
}

}  // namespace

TEST_CASE("rules over ../shared Spark plans: no size/runtime findings, the rest as reviewed" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  fs::path spark = *shared / "corpus" / "spark";
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(spark))
    if (e.is_regular_file() && e.path().string().ends_with(".explain.txt")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() > 400);
  const std::vector<std::string> need_evidence = {"shuffle-join-could-broadcast", "skew-not-handled",
                                                  "stale-broadcast-hint", "oversized-broadcast", "exploding-join"};
  const Config mission = plan_rules();  // other rules keep their own reviewed lists
  std::string report;
  std::size_t total = 0;
  for (const auto& f : files) {
    std::string rel = fs::relative(f, spark).string();
    LintResult r = lint_text(test::read_file(f), rel, mission);
    for (const auto& d : r.diagnostics) {
      CAPTURE(rel);
      CAPTURE(d.message);
      CHECK(std::find(need_evidence.begin(), need_evidence.end(), d.rule) == need_evidence.end());
      report += rel + ":" + std::to_string(d.range.line) + ":" + std::to_string(d.range.column) + " " + d.rule + " " +
                d.message + "\n";
      ++total;
    }
  }
  MESSAGE(total << " findings on " << files.size() << " Spark plans:\n" << report);
  test::check_golden(test::source_dir() / "tests" / "goldens" / "shared-spark-findings.txt", report);
}

TEST_CASE("rules over ../shared Databricks profiles, Photon explanation and Gluten plan, as reviewed" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  fs::path dir = *shared / "corpus" / "databricks";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".txt"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 8);
  const Config mission = plan_rules();
  std::string report;
  for (const auto& f : files) {
    LintResult r = lint_text(test::read_file(f), f.filename().string(), mission);
    for (const auto& d : r.diagnostics) {
      CHECK_FALSE(d.evidence.empty());
      CHECK_FALSE(d.fix.empty());
      report += f.filename().string() + ":" + std::to_string(d.range.line) + ":" + std::to_string(d.range.column) + " " +
                d.rule + " " + d.message + "\n";
    }
  }
  MESSAGE(report);
  test::check_golden(test::source_dir() / "tests" / "goldens" / "shared-databricks-findings.txt", report);
}
