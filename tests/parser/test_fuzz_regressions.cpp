// Replays every input of tests/fuzz_regressions/<kind>/ through the code its fuzz target
// exercises (see tests/fuzz_regressions/README.md). A crash here is a regression; under
// `tools/test.sh --sanitize` so is any memory error or undefined behaviour.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "lint/core/config_file.hpp"
#include "lint/engine/check.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/suppress.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/explain/explain.hpp"
#include "parser/history_server/history_server.hpp"
#include "parser/profile/profile.hpp"
#include "tests/kept_text.hpp"
#include "tests/support.hpp"
#include "tools/fuzz/lsp_drive.hpp"
#include "tools/fuzz/output_checks.hpp"
#include "tools/fuzz/plan_invariants.hpp"

namespace {

namespace fs = std::filesystem;

void replay_plan(const planlint::ParseResult& r, const std::string& text) {
  CHECK(planlint::fuzz::plan_invariant_violation(r, text) == "");
  (void)planlint::run_rules(r, planlint::Config{});
}

void replay(const std::string& kind, const fs::path& file) {
  const std::string text = planlint::test::read_file(file);
  const std::string name = file.filename().string();
  if (kind == "explain") {
    replay_plan(planlint::parse_explain_text(text, name), text);
  } else if (kind == "profile") {
    replay_plan(planlint::parse_query_profile(text, name), text);
  } else if (kind == "eventlog") {
    // As tools/fuzz/fuzz_eventlog.cpp: whole and streamed.
    auto whole = planlint::parse_event_log(text, name, planlint::EventLogOptions{});
    replay_plan(whole, text);
    std::istringstream in(text);
    auto streamed = planlint::parse_event_log_stream(in, name, planlint::EventLogOptions{});
    CHECK(planlint::fuzz::plan_invariant_violation(streamed, text) == "");
    CHECK(streamed.plans.size() == whole.plans.size());
  } else if (kind == "history_server") {
    // As tools/fuzz/fuzz_history_server.cpp: the whole answer, then one execution.
    replay_plan(planlint::parse_history_server(text, name), text);
    planlint::HistoryServerOptions one;
    one.execution = 1;
    replay_plan(planlint::parse_history_server(text, name, one), text);
  } else if (kind == "expression") {
    for (auto d : {planlint::ExprDialect::Catalyst, planlint::ExprDialect::PushedFilter, planlint::ExprDialect::Sql}) {
      auto e = planlint::test::parse_kept(text, d);
      CHECK(e.text == text);
    }
  } else if (kind == "config") {
    bool pyproject = text.find("[tool.") != std::string::npos;
    planlint::ConfigError error;
    auto project = planlint::parse_config_text(text, name, pyproject, error);
    if (project) (void)planlint::config_for_path(*project, "plans/q1.explain.txt");
    else CHECK(!error.message.empty());
  } else if (kind == "output") {
    // As tools/fuzz/fuzz_output.cpp: every output format keeps its promise.
    CHECK(planlint::fuzz::check_all_outputs(text, "plans/\x1b[2Jq\n::warning::x\xff.txt") == "");
  } else if (kind == "suppress") {
    // As tools/fuzz/fuzz_suppress.cpp: the text in front of a plan with findings, linted, then its
    // suppression directives applied.
    const std::string whole =
        text + "\n== Physical Plan ==\n* Filter (2)\n+- Scan parquet db.t (1)\n\n(1) Scan parquet db.t\n"
               "Output [1]: [ts#1]\n\n(2) Filter\nInput [1]: [ts#1]\nCondition : (cast(ts#1 as date) = 2024-03-01)\n";
    planlint::Config config;
    planlint::LintResult lint = planlint::lint_text(whole, "q.txt", config);
    std::size_t before = lint.diagnostics.size();
    auto directives = planlint::find_suppressions(whole);
    CHECK(planlint::apply_suppressions(directives, lint.diagnostics, config) <= before);
  } else if (kind == "lsp_framing") {
    // As tools/fuzz/fuzz_lsp_framing.cpp: after an `initialize`, framed and unframed.
    CHECK(!planlint::fuzz::drive_lsp_framing(text).empty());
  } else {
    replay_plan(planlint::parse_input(text, name), text);
  }
}

}  // namespace

TEST_CASE("fuzz regressions replay without crashing") {
  const fs::path dir = planlint::test::source_dir() / "tests" / "fuzz_regressions";
  REQUIRE(fs::is_directory(dir));
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().parent_path() != dir) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    const std::string kind = f.parent_path().filename().string();
    INFO("replaying " << kind << "/" << f.filename().string());
    replay(kind, f);
  }
  MESSAGE("replayed " << files.size() << " fuzz regression inputs");
}

// ---- Hand-made hostile inputs (docs/performance.md, "Robustness") ----

namespace {

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// A formatted outline: one Union with n scans (each id once), optionally printed twice as AQE's
// final and initial plans, whose repeated ids are merged into the same operators.
std::string wide_union(std::size_t n, bool aqe) {
  std::string body = "Union (2)\n";
  for (std::size_t i = 0; i < n; ++i) body += ":- Scan parquet t (" + std::to_string(i + 3) + ")\n";
  if (!aqe) return "== Physical Plan ==\n" + body;
  std::string indented;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t nl = body.find('\n', start);
    indented += "   " + body.substr(start, nl - start + 1);
    start = nl + 1;
  }
  return "== Physical Plan ==\nAdaptiveSparkPlan (1)\n+- == Final Plan ==\n" + indented + "+- == Initial Plan ==\n" +
         indented;
}

}  // namespace

TEST_CASE("fuzz regression: a reuse link back up the plan ends the photon-fallback walk") {
  // Found by fuzz_explain (timeout): `ReusedExchange [Reuses operator id: N]` naming its own
  // parent (or itself) made a cycle through `reuses`, and photon-fallback's walk never ended.
  const fs::path dir = planlint::test::source_dir() / "tests" / "fuzz_regressions" / "explain";
  for (const char* name : {"reused-exchange-reuses-its-parent-gluten.txt", "reused-exchange-reuses-itself-gluten.txt"}) {
    INFO(name);
    const std::string text = planlint::test::read_file(dir / name);
    auto r = planlint::parse_explain_text(text, name);
    REQUIRE(r.plans.size() == 1);
    bool cycle = false;
    for (const auto& op : r.plans[0].ops) cycle = cycle || (op.reuses && *op.reuses <= op.index);
    CHECK(cycle);  // the model keeps the link; the rule must cope
    (void)planlint::run_rules(r, planlint::Config{});
  }
}

TEST_CASE("fuzz regression: a key of 100,000 dotted parts is an error, not a stack overflow") {
  // toml++ recurses once per key part: `a.b.b.b... = 1` overflowed the stack.
  for (const std::string& text : {"a" + repeat(".b", 100000) + " = 1\n", "[a" + repeat(".b", 100000) + "]\n",
                                  "select = []\n[[x" + repeat(".y", 5000) + "]]\n"}) {
    planlint::ConfigError error;
    auto project = planlint::parse_config_text(text, ".planlint.toml", false, error);
    CHECK(!project);
    CHECK(error.message.find("dots on one line") != std::string::npos);
    CHECK(error.line == (text.starts_with("select") ? 2u : 1u));
  }
  // Dots inside strings and comments do not count.
  const std::string fine = "# " + repeat(".", 5000) + "\nselect = [\"" + repeat(".", 5000) + "\"]\n" +
                           "[per-file-ignores]\n'''" + repeat(".", 5000) + "''' = []\n";
  planlint::ConfigError error;
  auto project = planlint::parse_config_text(fine, ".planlint.toml", false, error);
  // Not a valid rule name, but a normal config error, found after TOML parsing.
  CHECK(error.message.find("dots on one line") == std::string::npos);
  (void)project;
}

TEST_CASE("fuzz regression: wide plans, repeated ids and long reasons cost linear time") {
  // Each of these was quadratic: duplicate children removed by scanning the child list
  // (Plan::link, the outline's placement, the profile's edges) and photon-fallback's reason
  // flattening (one string replace per detail line). The sizes are chosen so that the quadratic
  // code took minutes (200,000 children: ~2 * 10^10 comparisons) and the linear code well under a
  // second: no timing assertion here (speed lives in planlint_bench), but a regression shows as a
  // test that runs into CTest's timeout. The checks are on the results.
  SUBCASE("Plan::link over one operator with 200,000 children, each listed twice") {
    planlint::Plan p;
    const std::size_t n = 200000;
    p.ops.resize(n + 1);
    for (std::size_t i = 0; i <= n; ++i) p.ops[i].index = i;
    for (std::size_t i = 1; i <= n; ++i) p.ops[0].children.push_back(i);
    for (std::size_t i = n; i >= 1; --i) p.ops[0].children.push_back(i);
    p.ops[0].children.push_back(0);      // itself: dropped
    p.ops[0].children.push_back(n + 7);  // out of range: dropped
    p.link();
    REQUIRE(p.ops[0].children.size() == n);
    CHECK(p.ops[0].children.front() == 1);  // first occurrence kept, in order
    CHECK(p.ops[0].children.back() == n);
    CHECK(p.ops[n].parents == std::vector<std::size_t>{0});
  }
  SUBCASE("an operator line hand-wrapped over 3,000 continuation lines: joined once") {
    // join_continuations rebuilt the whole joined line (and its column map) per continuation:
    // quadratic time and memory (20,000 lines took minutes and gigabytes; found by fuzz_output).
    std::string text = "== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Filter (x#1 = 1)\n";
    for (int i = 0; i < 3000; ++i) text += "   and_more_" + std::to_string(i) + ", col_" + std::to_string(i) + "\n";
    text += "   +- Scan parquet t (1)\n";
    auto r = planlint::parse_explain_text(text, "wrapped.txt");
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].ops.size() == 3);
    bool joined = false;
    for (const auto& op : r.plans[0].ops) joined |= op.label.find("col_2999") != std::string::npos;
    CHECK(joined);
    CHECK(planlint::fuzz::plan_invariant_violation(r, text) == "");
  }
  SUBCASE("AQE final and initial plans repeating 3,000 ids: each child once") {
    auto r = planlint::parse_explain_text(wide_union(3000, true), "aqe.txt");
    REQUIRE(r.plans.size() == 1);
    const planlint::Operator* u = r.plans[0].find_id("2");
    REQUIRE(u);
    CHECK(u->children.size() == 3000);
    CHECK(planlint::fuzz::plan_invariant_violation(r, wide_union(3000, true)) == "");
  }
  SUBCASE("a profile node with 3,000 edges, each listed twice: each child once") {
    std::string s = R"({"query":{"id":"q"},"graphs":[{"nodes":[)";
    const std::size_t n = 3000;
    for (std::size_t i = 0; i <= n; ++i)
      s += (i ? "," : "") + std::string(R"({"id":")") + std::to_string(i) + R"(","name":"Scan","tag":"X"})";
    s += R"(],"edges":[)";
    for (std::size_t k = 0; k < 2 * n; ++k)
      s += (k ? "," : "") + std::string(R"({"fromId":"0","toId":")") + std::to_string(k % n + 1) + R"("})";
    s += "]}]}";
    auto r = planlint::parse_query_profile(s, "wide.json");
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].ops[0].children.size() == n);
  }
  SUBCASE("photon-fallback over a reason with 100,000 detail lines") {
    const std::string text =
        "== Photon Explanation ==\nPhoton does not fully support the query because:\n\tUDF(a#1) is not supported:\n" +
        repeat("\t\tThe expression `scalaudf` is currently unimplemented.\n", 100000) +
        "Reference node:\n\tProject [UDF(a#1) AS b#2]\n";
    auto r = planlint::parse_explain_text(text, "photon.txt");
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].photon.reasons.size() == 1);
    const auto found = planlint::run_rules(r, planlint::Config{});
    const bool reported = std::any_of(found.begin(), found.end(), [](const planlint::Diagnostic& d) {
      return d.rule == "native-engine-fallback" && d.message.find("UDF(a#1)") != std::string::npos;
    });
    CHECK(reported);
  }
}
