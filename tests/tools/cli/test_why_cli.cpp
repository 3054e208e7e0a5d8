// `planlint check --why RULE`: the texts a rule builds only while a front end asks for them
// (RuleContext::explaining()) still reach the output, and plain `check` builds none of them.
#include <doctest/doctest.h>

#include <string>

#include "tests/support.hpp"

namespace {
std::string corpus_file(const char* name) { return "'" + (planlint::test::corpus_dir() / "real" / name).string() + "'"; }
}  // namespace

TEST_CASE("check --why: the explanations a rule builds only on request are printed") {
  auto r = planlint::test::run_planlint("check --why shuffle-join-could-broadcast " +
                                        corpus_file("012-jacek-smj-fullouter-spark31.txt"));
  CHECK(r.out.find("looked for a side that may be broadcast with a known size at most 10.0 MiB") != std::string::npos);
  CHECK(r.out.find("missing: the left side cannot be broadcast in a FullOuter join; the right side cannot be "
                   "broadcast in a FullOuter join") != std::string::npos);

  r = planlint::test::run_planlint("check --why shuffle-join-could-broadcast " +
                                   corpus_file("005-jacek-smj-reused-exchange-spark22.txt"));
  CHECK(r.out.find("missing: no size for the left side (no Statistics(sizeInBytes), query-stage size or runtime "
                   "metric); no size for the right side") != std::string::npos);

  // Without --why the same input prints no explanation.
  r = planlint::test::run_planlint("check " + corpus_file("012-jacek-smj-fullouter-spark31.txt"));
  CHECK(r.out.find("looked for") == std::string::npos);
}
