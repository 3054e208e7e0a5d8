// The committed rule docs (docs/rules/*.md) are exactly what `planlint rule NAME --markdown` and
// `planlint rules --markdown` print, so they never drift from the RuleDoc in the code.
// Regenerate with PLANLINT_UPDATE_GOLDENS=1.
#include <doctest/doctest.h>

#include "rules/rule_doc.hpp"
#include "tests/support.hpp"

using namespace planlint;

TEST_CASE("docs/rules/<name>.md equal `planlint rule NAME --markdown`") {
  for (const auto& r : all_rules()) {
    const RuleDoc& d = r->doc();
    CAPTURE(d.name);
    auto run = test::run_planlint("rule " + d.name + " --markdown");
    CHECK(run.exit_code == 0);
    CHECK(run.out == render_rule_doc(d, DocFormat::Markdown));
    test::check_golden(test::source_dir() / "docs" / "rules" / (d.name + ".md"), run.out);
    // By code and by secondary name too.
    CHECK(test::run_planlint("rule " + d.code + " --markdown").out == run.out);
    for (const auto& a : d.also_reports) {
      CHECK(test::run_planlint("rule " + a.name + " --markdown").out == run.out);
      CHECK(test::run_planlint("rule " + a.code + " --markdown").out == run.out);
    }
  }
  auto list = test::run_planlint("rules --markdown");
  CHECK(list.exit_code == 0);
  test::check_golden(test::source_dir() / "docs" / "rules" / "README.md", list.out);
}

TEST_CASE("planlint rules / rule: exit codes and text") {
  auto list = test::run_planlint("rules");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("PL001  filter-not-pushed-down") != std::string::npos);
  CHECK(list.out.find("PL009  cartesian-product") != std::string::npos);
  CHECK(list.out.find("PL010  oversized-broadcast") != std::string::npos);
  auto one = test::run_planlint("rule PL002");
  CHECK(one.exit_code == 0);
  CHECK(one.out.find("broadcast-threshold = 10485760 bytes (10.0 MiB)") != std::string::npos);
  CHECK(one.out.find("Why is this bad?\n----------------\n") != std::string::npos);
  CHECK(test::run_planlint("rule no-such-rule").exit_code == 2);
}
