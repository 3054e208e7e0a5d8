// `planlint report`: the self-contained HTML page (lint/visual/report_html.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>

#include "lint/engine/engine.hpp"
#include "lint/visual/report_html.hpp"
#include "tests/support.hpp"

using namespace planlint;
using planlint::test::corpus_dir;
using planlint::test::read_file;

namespace {

LintResult lint_file(const std::filesystem::path& p) { return lint_text(read_file(p), p.string(), Config{}); }

// Every operator name and every finding's rule and message appear in the page (as the page's
// JSON spells them), and nothing is loaded from the network.
void check_page(const LintResult& r, const std::string& html) {
  REQUIRE(!r.parse.plans.empty());
  for (const auto& p : r.parse.plans)
    for (const auto& op : p.ops) {
      INFO("operator " << op.name);
      CHECK(html.find(script_safe_json(op.name.empty() ? op.label : op.name)) != std::string::npos);
    }
  for (const auto& d : r.diagnostics) {
    INFO("finding " << d.rule);
    CHECK(html.find(script_safe_json(d.rule)) != std::string::npos);
    CHECK(html.find(script_safe_json(d.message)) != std::string::npos);
  }
  std::regex external(R"re((src|href|action)\s*=\s*["']?\s*(https?:)?//)re", std::regex::icase);
  CHECK_FALSE(std::regex_search(html, external));
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  // Exactly the template's two </script> tags: the data cannot close its block.
  std::size_t closes = 0;
  for (auto at = html.find("</script"); at != std::string::npos; at = html.find("</script", at + 1)) ++closes;
  CHECK(closes == 2);
}

}  // namespace

TEST_CASE("report: a formatted text plan (structure only) with findings") {
  auto path = corpus_dir() / "rules/exploding-join/trigger-formatted-cartesian.txt";
  LintResult r = lint_file(path);
  REQUIRE(!r.diagnostics.empty());
  std::string html = report_html({r});
  check_page(r, html);
  // The finding is reported under the rule's secondary name; its docs are those of exploding-join.
  CHECK(r.diagnostics[0].rule == "cartesian-product");
  // The plan text has `struct<product_id:bigint,...>`: it reaches the page only escaped.
  CHECK(html.find("struct<product_id") == std::string::npos);
  CHECK(html.find("struct\\u003cproduct_id") != std::string::npos);
  // The rule docs of the rule that fired are embedded.
  const Rule* rule = find_rule("exploding-join");
  REQUIRE(rule);
  CHECK(html.find(script_safe_json(rule->doc().why)) != std::string::npos);
  auto data = report_data({r});
  CHECK(data["files"][0]["plans"][0]["ops"].size() == r.parse.plans[0].ops.size());
  CHECK(data["rules"].contains("cartesian-product"));
}

TEST_CASE("report: a Query Profile with metrics, shares and Photon/JVM engines") {
  auto path = corpus_dir() / "rules/native-engine-fallback/trigger-profile-jvm-aggregate.json";
  LintResult r = lint_file(path);
  REQUIRE(!r.diagnostics.empty());
  std::string html = report_html({r});
  check_page(r, html);
  auto data = report_data({r});
  const auto& plan = data["files"][0]["plans"][0];
  bool any_share = false, photon = false, jvm = false;
  double sum = 0;
  for (const auto& op : plan["ops"]) {
    if (op.contains("share")) {
      any_share = true;
      sum += op["share"].get<double>();
    }
    photon = photon || op["engine"] == "photon";
    jvm = jvm || op["engine"] == "spark";
  }
  CHECK(any_share);
  CHECK(sum == doctest::Approx(1.0));
  CHECK(photon);
  CHECK(jvm);
  CHECK(plan["summary"].get<std::string>().size() > 0);
  // Each finding on an operator is linked both ways.
  for (std::size_t i = 0; i < plan["diags"].size(); ++i) {
    const auto& d = plan["diags"][i];
    if (!d.contains("op")) continue;
    const auto& f = plan.at("ops").at(d.at("op").get<std::size_t>()).at("findings");
    CHECK(std::find(f.begin(), f.end(), i) != f.end());
  }
}

TEST_CASE("report: script-breaking text in the data is escaped") {
  nlohmann::json j = {{"name", "</script><script>alert(1)</script><!-- & >"}};
  std::string s = script_safe_json(j);
  CHECK(s.find('<') == std::string::npos);
  CHECK(s.find('>') == std::string::npos);
  CHECK(s.find('&') == std::string::npos);
  CHECK(nlohmann::json::parse(s) == j);
  // Invalid UTF-8 does not throw.
  CHECK_NOTHROW(script_safe_json(nlohmann::json("bad \xff byte")));
}

TEST_CASE("report: the CLI writes the page and reports what it drew") {
  auto out = std::filesystem::temp_directory_path() / "planlint-test-report.html";
  std::filesystem::remove(out);
  auto path = corpus_dir() / "rules/native-engine-fallback/trigger-profile-jvm-aggregate.json";
  auto r = planlint::test::run_planlint("report '" + path.string() + "' -o '" + out.string() + "'", true);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("wrote") != std::string::npos);
  REQUIRE(std::filesystem::exists(out));
  std::string html = read_file(out);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("native-engine-fallback") != std::string::npos);
  std::filesystem::remove(out);
  auto missing = planlint::test::run_planlint("report /nonexistent/plan.txt -o -", true);
  CHECK(missing.exit_code == 2);
}

TEST_CASE("show and report: event logs are streamed, rolling directories included") {
  const auto dir = corpus_dir() / "eventlog/eventlog_v2_app-20231114221320-0009";
  REQUIRE(std::filesystem::is_directory(dir));
  auto shown = planlint::test::run_planlint("show --color never '" + dir.string() + "'", true);
  CHECK(shown.exit_code == 0);
  CHECK(shown.out.find("execution 0: save at sessions.py:41") != std::string::npos);
  CHECK(shown.out.find("execution 1: save at sessions.py:58") != std::string::npos);
  CHECK(shown.out.find("2 operators with findings") != std::string::npos);
  // The same log as one file gives the same tree.
  auto single = planlint::test::run_planlint("show --color never '" + (corpus_dir() / "eventlog/multi-exec.eventlog").string() + "'", true);
  CHECK(single.out == shown.out);
  auto page = planlint::test::run_planlint("report '" + dir.string() + "' -o -");
  CHECK(page.exit_code == 0);
  CHECK(page.out.find("skew-not-handled") != std::string::npos);
}

TEST_CASE("report: the stage view of an event log (tasks, task time, median, max, histogram)") {
  LintResult r = lint_file(corpus_dir() / "eventlog" / "skewed-join.eventlog");
  REQUIRE(r.parse.plans.size() == 1);
  const Plan& p = r.parse.plans[0];
  REQUIRE(!p.stages.empty());
  nlohmann::json d = report_data({r});
  const auto& stages = d["files"][0]["plans"][0]["stages"];
  REQUIRE(stages.size() == p.stages.size());
  double total = 0;
  bool skewed = false;
  for (std::size_t i = 0; i < p.stages.size(); ++i) {
    const StageInfo& st = p.stages[i];
    const auto& s = stages[i];
    CHECK(s["id"] == st.id);
    if (!st.task_ms_max) continue;
    // The histogram holds every task once; the longest task is in the last bin.
    REQUIRE(s["hist"].size() == StageInfo::kTaskHistogramBins);
    std::uint32_t tasks = 0;
    for (const auto& c : s["hist"]) tasks += c.get<std::uint32_t>();
    CHECK(tasks > 0);
    CHECK(tasks <= *st.num_tasks);  // the timed (successful) tasks
    CHECK(s["hist"].back().get<std::uint32_t>() >= 1);
    CHECK(*st.task_ms_median <= *st.task_ms_max);
    CHECK(*st.task_ms_total >= *st.task_ms_max);
    total += *st.task_ms_total;
    if (s.contains("skew") && s["skew"].get<double>() >= 5) skewed = true;
  }
  // The stages' task times add up to the query's task time.
  CHECK(total == doctest::Approx(p.query.metric_value(Metric::TaskTotalTime).value_or(-1)));
  CHECK(skewed);  // the straggler of this log shows as max / median
  // The query's metrics.
  const auto& q = d["files"][0]["plans"][0]["query"];
  REQUIRE(q.contains("metrics"));
  CHECK(q["metrics"].size() >= 2);
}

TEST_CASE("report and show: executions listed by time, the trivial ones folded") {
  LintResult r = lint_file(corpus_dir() / "real-runtime" / "rt14-kubeflow-e2e-smj-spill-spark410.zstd");
  const std::size_t n = r.parse.plans.size();
  REQUIRE(n >= 7);
  ExecutionList list = list_executions(r.parse, r.diagnostics);
  REQUIRE(list.rows.size() == n);
  for (std::size_t i = 1; i < list.rows.size(); ++i)
    CHECK(list.rows[i - 1].duration_ms.value_or(-1) >= list.rows[i].duration_ms.value_or(-1));
  std::size_t folded = 0;
  for (const auto& row : list.rows) {
    if (row.trivial.empty()) continue;
    ++folded;
    CHECK(row.findings == 0);  // an execution with a finding is never folded
    CHECK(std::find(list.shown.begin(), list.shown.end(), row.plan) == list.shown.end());
  }
  CHECK(folded == list.folded());
  CHECK(folded >= 2);  // the two CreateViewCommand executions at least
  CHECK(list.shown.size() + folded == n);
  const std::size_t findings = r.diagnostics.size();
  std::size_t kept_findings = 0;
  for (std::size_t i : list.shown)
    for (const auto& dg : r.diagnostics) kept_findings += dg.plan_index == i;
  CHECK(kept_findings == findings);
  keep_shown_executions(list, r.parse, r.diagnostics);
  CHECK(r.parse.plans.size() == list.shown.size());
  CHECK(r.diagnostics.size() == findings);
  for (const auto& dg : r.diagnostics) CHECK(dg.plan_index < r.parse.plans.size());
  const std::string text = executions_text(list, 100);
  CHECK(text.rfind(std::to_string(n) + " SQL executions, longest first", 0) == 0);
  CHECK(text.find("trivial executions folded") != std::string::npos);
  // Execution 2's job 4 failed (a Python UDF raised; stage 5 failed 4 times): listed as failed.
  std::size_t failed_rows = 0;
  for (const auto& row : list.rows) {
    if (row.failed_jobs.empty()) continue;
    ++failed_rows;
    CHECK(row.id == "2");
    CHECK(row.failed_jobs == std::vector<std::string>{"4"});
    CHECK(row.trivial.empty());
  }
  CHECK(failed_rows == 1);
  CHECK(text.find("failed (job 4): collect at /app/generate_events.py:53") != std::string::npos);
  nlohmann::json d = report_data({r}, {list});
  CHECK(d["files"][0]["executions"].size() == n);
  bool failed_in_report = false;
  for (const auto& e : d["files"][0]["executions"]) failed_in_report = failed_in_report || e.value("failed", "") == "failed (job 4): ";
  CHECK(failed_in_report);
  CHECK(d["files"][0]["plans"].size() == list.shown.size());
}
