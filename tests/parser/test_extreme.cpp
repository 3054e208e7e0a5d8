// Extreme inputs (tools/gen/generate.hpp) must parse and lint without crashing, without
// unbounded recursion and with sound plans. No timing assertions: the time each takes is
// bounded by CTest's timeout, and `planlint_bench scaling` measures the growth.
// Run under ASan + UBSan with `tools/test.sh --sanitize`.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/explain/explain.hpp"
#include "parser/profile/profile.hpp"
#include "tests/kept_text.hpp"
#include "tests/support.hpp"
#include "tools/fuzz/plan_invariants.hpp"
#include "tools/gen/generate.hpp"

namespace {

using planlint::Config;
using planlint::ParseResult;

// Parse with `reader`, check the invariants, run every rule; return the parse.
template <class Reader>
ParseResult parse_and_lint(const std::string& text, Reader reader) {
  ParseResult r = reader(text);
  CHECK(planlint::fuzz::plan_invariant_violation(r, text) == "");
  (void)planlint::run_rules(r, Config{});
  return r;
}

ParseResult explain(const std::string& text) { return planlint::parse_explain_text(text, "extreme.txt"); }
ParseResult profile(const std::string& text) { return planlint::parse_query_profile(text, "extreme.json"); }
ParseResult eventlog(const std::string& text) { return planlint::parse_event_log(text, "extreme.eventlog"); }
ParseResult any(const std::string& text) { return planlint::parse_input(text, "extreme"); }

std::size_t total_ops(const ParseResult& r) {
  std::size_t n = 0;
  for (const auto& p : r.plans) n += p.ops.size();
  return n;
}

// A real plan to damage: the first explain plan of our corpus/, else a Spark golden from
// ../shared, else a generated one.
std::string real_plan() {
  namespace fs = std::filesystem;
  std::vector<fs::path> found;
  if (fs::is_directory(planlint::test::corpus_dir()))
    for (const auto& e : fs::recursive_directory_iterator(planlint::test::corpus_dir()))
      if (e.is_regular_file() && e.path().string().ends_with(".explain.txt")) found.push_back(e.path());
  std::sort(found.begin(), found.end());
  if (!found.empty()) return planlint::test::read_file(found.front());
  if (auto shared = planlint::test::shared_dir()) {
    auto q = *shared / "corpus" / "spark" / "v4.1" / "tpcds-v1_4" / "q1.explain.txt";
    if (fs::exists(q)) return planlint::test::read_file(q);
  }
  MESSAGE("no corpus plan found: damaging a generated plan");
  return planlint::gen::formatted_plan(60);
}

}  // namespace

TEST_CASE("extreme: generated formatted plan of 10,000 operators") {
  std::string text = planlint::gen::formatted_plan(10000);
  auto r = parse_and_lint(text, explain);
  // One detail block `(N) Name` per operator.
  std::size_t blocks = 0;
  for (std::size_t i = text.find("\n("); i != std::string::npos; i = text.find("\n(", i + 1)) ++blocks;
  CHECK(blocks > 9900);
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == blocks);
}

TEST_CASE("extreme: text tree 2,000 operators deep") {
  // 3 columns of indentation per level: 2,000 deep is already 6 MB of text (20,000 deep would be
  // 600 MB); the 20,000-deep trees below use the JSON formats, whose size stays linear.
  std::string text = planlint::gen::deep_text_plan(2000);
  auto r = parse_and_lint(text, explain);
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == 2000);
}

TEST_CASE("extreme: profile tree 20,000 nodes deep") {
  auto r = parse_and_lint(planlint::gen::profile_json(20000, true), profile);
  REQUIRE(r.plans.size() == 1);
  CHECK(total_ops(r) == 20000);
}

TEST_CASE("extreme: event log with a sparkPlanInfo 20,000 levels deep") {
  auto r = parse_and_lint(planlint::gen::eventlog_deep(20000), eventlog);
  (void)r;
}

TEST_CASE("extreme: profile with 10,000 nodes") {
  auto r = parse_and_lint(planlint::gen::profile_json(10000), profile);
  REQUIRE(r.plans.size() == 1);
  CHECK(total_ops(r) == 10000);
}

TEST_CASE("extreme: JSON nested 100,000 arrays deep") {
  std::string text = planlint::gen::deep_json(100000);
  (void)parse_and_lint(text, profile);
  (void)parse_and_lint(text, any);
}

TEST_CASE("extreme: 100,000 nested parentheses") {
  std::string text = planlint::gen::nested_parens_plan(100000);
  (void)parse_and_lint(text, explain);
  std::string expr(100000, '(');
  expr += "a#1 > 5";
  expr.append(100000, ')');
  for (auto d : {planlint::ExprDialect::Catalyst, planlint::ExprDialect::PushedFilter, planlint::ExprDialect::Sql}) {
    auto e = planlint::test::parse_kept(expr, d);
    CHECK(e.text.size() == expr.size());
  }
  // Unbalanced: only openers, only closers.
  (void)planlint::test::parse_kept(std::string(100000, '('));
  (void)planlint::test::parse_kept(std::string(100000, ')'));
}

TEST_CASE("extreme: 1 MB lines") {
  (void)parse_and_lint(planlint::gen::long_line_plan(1 << 20), explain);
  (void)parse_and_lint("== Physical Plan ==\n" + std::string(1 << 20, 'x') + "\n", explain);
  (void)parse_and_lint(std::string(1 << 20, '('), any);
  (void)parse_and_lint("== Physical Plan ==\n* Filter (1)\n\n\n(1) Filter\nCondition : " + std::string(1 << 20, '(') +
                           "\n",
                       explain);
}

TEST_CASE("extreme: NUL bytes in a real plan") {
  std::string plan = real_plan();
  std::string every = plan;
  for (std::size_t i = 0; i < every.size(); i += 53) every[i] = '\0';
  (void)parse_and_lint(every, any);
  std::string prefixed = std::string(3, '\0') + plan;
  (void)parse_and_lint(prefixed, any);
  std::string nul_lines = plan;
  std::replace(nul_lines.begin(), nul_lines.end(), '\n', '\0');
  (void)parse_and_lint(nul_lines, any);
}

TEST_CASE("extreme: a real plan truncated at every 97th byte") {
  std::string plan = real_plan();
  for (std::size_t n = 0; n < plan.size(); n += 97) (void)parse_and_lint(plan.substr(0, n), any);
}
