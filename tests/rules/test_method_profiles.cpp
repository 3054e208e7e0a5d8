// The troubleshooting-method rules and the summary on the six real Databricks Query Profile
// exports in ../shared/corpus/databricks. Every expected finding below was checked by hand against
// the file's numbers (docs/method-rules.md has the reasoning). Skips when ../shared is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "lint/engine/summary.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {

const std::set<std::string> kMethodRules = {"slow-phase",     "low-file-pruning", "small-files",
                                            "disk-spill",     "python-udf",       "duplicate-work",
                                            "wide-projection", "aqe-disabled",    "single-partition-shuffle"};

struct Expected {
  const char* file;
  std::set<std::pair<std::string, std::string>> findings;  // (rule, operator id) of the method rules
  const char* first_top_rule;                               // costliest finding of the main plan, or ""
};

}  // namespace

TEST_CASE("method rules and summary on the real Databricks profiles" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  const Expected cases[] = {
      {"profile-01-itagaki-mixed-photon-jvm.json", {}, ""},
      {"profile-02-itagaki-skewtest.json", {}, ""},
      {"profile-03-itagaki-query3.json", {}, ""},
      {"profile-04-itagaki-nophoton-v1.1.json", {}, ""},
      {"profile-05-itagaki-replace-table-spill-v1.1.json", {{"disk-spill", "6134"}, {"disk-spill", "6132"}},
       "disk-spill"},
      {"profile-06-itagaki-aqe-skew-v1.1.json", {}, ""},
  };
  for (const Expected& e : cases) {
    auto path = *shared / "corpus" / "databricks" / e.file;
    INFO(e.file);
    REQUIRE(std::filesystem::exists(path));
    LintResult r = lint_text(test::read_file(path), path.string(), Config{});
    REQUIRE(!r.parse.plans.empty());

    std::set<std::pair<std::string, std::string>> got;
    for (const Diagnostic& d : r.diagnostics)
      if (kMethodRules.count(d.rule)) got.insert({d.rule, d.operator_id});
    CHECK(got == e.findings);

    // Every one of the six is execution-bound (execution is 90-99% of the wall-clock time).
    auto sums = summarize(r);
    REQUIRE(sums.size() == r.parse.plans.size());
    std::size_t main_plan = 0;
    for (std::size_t p = 0; p < r.parse.plans.size(); ++p)
      if (r.parse.plans[p].ops.size() > r.parse.plans[main_plan].ops.size()) main_plan = p;
    const PlanSummary& s = sums[main_plan];
    CHECK(s.phase == "execution");
    CHECK(s.verdict.rfind("execution-bound: execution ", 0) == 0);
    REQUIRE(s.parallelism.has_value());
    CHECK(*s.parallelism > 4);  // lowest of the six: profile-04, 51,277 ms task / 9,711 ms execution
    if (*e.first_top_rule) {
      REQUIRE(!s.top.empty());
      CHECK(s.top[0].rule == e.first_top_rule);
    }
  }
}

TEST_CASE("summary verdicts name the dominant phase with its numbers (profile-01)" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  auto path = *shared / "corpus" / "databricks" / "profile-01-itagaki-mixed-photon-jvm.json";
  LintResult r = lint_text(test::read_file(path), path.string(), Config{});
  auto sums = summarize(r);
  REQUIRE(sums.size() == 1);
  // totalTimeMs 22,098; executionTimeMs 21,504; taskTotalTimeMs 1,159,125 -> parallelism 53.9.
  CHECK(sums[0].verdict == "execution-bound: execution 21.5 s of 22.1 s (97%), effective parallelism 53.9");
}
