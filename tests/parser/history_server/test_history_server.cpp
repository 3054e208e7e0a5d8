#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "lint/core/report.hpp"
#include "lint/engine/engine.hpp"
#include "parser/history_server/history_server.hpp"
#include "parser/registry/parse.hpp"
#include "parser/registry/reader.hpp"
#include "tests/support.hpp"
#include "tools/gen/generate.hpp"

using namespace planlint;
using planlint::test::corpus_dir;
using planlint::test::read_file;

namespace {
const Operator* final_op(const Plan& p, std::string_view name) {
  for (const auto& op : p.ops)
    if (op.name == name && op.section != Section::AqeInitial) return &op;
  return nullptr;
}
std::string hs(const char* name) { return read_file(corpus_dir() / "history-server" / name); }
}  // namespace

TEST_CASE("history server: metric display strings of SQLMetrics.stringValue") {
  TextStore store;
  MetricNames names(store);
  auto m = history_server_metric(names, "number of output rows", "10,000");
  REQUIRE(m);
  CHECK(m->label == "Number of output rows");
  CHECK(m->unit == MetricUnit::Count);
  CHECK(*m->value == 10000);
  m = history_server_metric(names, "spill size", "total (min, med, max (stageId: taskId))\n22.0 GiB (0.0 B, 0.0 B, 14.0 GiB (stage 2.0: task 57))");
  REQUIRE(m);
  CHECK(m->unit == MetricUnit::Bytes);
  CHECK(*m->value == doctest::Approx(22.0 * 1024 * 1024 * 1024));
  m = history_server_metric(names, "duration", "total (min, med, max (stageId: taskId))\n4.3 m (1.2 s, 1.4 s, 1.6 m (stage 2.0: task 57))");
  REQUIRE(m);
  CHECK(m->unit == MetricUnit::Millis);
  CHECK(*m->value == doctest::Approx(4.3 * 60000));
  m = history_server_metric(names, "sort time", "44 ms");
  REQUIRE(m);
  CHECK(*m->value == 44);
  CHECK(*history_server_metric(names, "time", "1.50 h")->value == doctest::Approx(1.5 * 3600000));
  // Spark 3.0: the header in the name, the REST layer strips the value's leading newline.
  m = history_server_metric(names, "data size total (min, med, max)", "9.4 MiB (1.2 MiB, 2.3 MiB, 3.1 MiB)");
  REQUIRE(m);
  CHECK(m->label == "Data size");
  CHECK(*m->value == doctest::Approx(9.4 * 1048576));
  // Averages carry no total; odd strings are not numbers.
  CHECK_FALSE(history_server_metric(names, "avg hash probe", "(min, med, max (stageId: taskId)):\n(1.2, 2.2, 6.3 (stage 3.0: task 9))"));
  CHECK_FALSE(history_server_metric(names, "x", "n/a"));
  CHECK_FALSE(history_server_metric(names, "x", "12 parsecs"));
  CHECK_FALSE(history_server_metric(names, "x", ""));
}

TEST_CASE("history server: detected by content; a list gives one plan per execution with metrics") {
  std::string text = hs("multi-exec.sql.json");
  CHECK(detect_format(text) == InputFormat::HistoryServer);
  CHECK(detect_format(hs("multi-exec.sql-1.json")) == InputFormat::HistoryServer);
  CHECK(detect_format("{\"graphs\": []}") == InputFormat::QueryProfile);
  CHECK(detect_format("[]") != InputFormat::HistoryServer);
  ParseResult r = parse_input(text, "multi-exec.sql.json");
  CHECK(r.format == InputFormat::HistoryServer);
  CHECK_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].query.statement_id == "0");
  CHECK(r.plans[1].query.statement_id == "1");
  CHECK(r.plans[0].format == InputFormat::HistoryServer);
  CHECK(r.plans[0].loc.line > 1);  // the line of that execution's "planDescription"
  CHECK(r.plans[1].loc.line > r.plans[0].loc.line);
  // One execution only.
  HistoryServerOptions one;
  one.execution = 1;
  ParseResult r1 = parse_history_server(text, "x", one);
  REQUIRE(r1.plans.size() == 1);
  CHECK(r1.plans[0].query.statement_id == "1");
  one.execution = 7;
  ParseResult none = parse_history_server(text, "x", one);
  CHECK(none.plans.empty());
  CHECK(none.has_errors());
}

TEST_CASE("history server: the executions' jobs (successJobIds, failedJobIds, runningJobIds)") {
  std::string text = hs("multi-exec.sql.json");
  SUBCASE("as answered: every job succeeded") {
    ParseResult r = parse_input(text, "multi-exec.sql.json");
    REQUIRE(r.plans.size() == 2);
    REQUIRE(r.plans[1].jobs.size() == 3);
    CHECK(r.plans[1].jobs[0].id == "3");
    CHECK(r.plans[1].jobs[2].id == "5");
    for (const JobInfo& j : r.plans[1].jobs) CHECK(j.status == JobStatus::Succeeded);
    CHECK_FALSE(r.plans[1].task_times_partial());
  }
  SUBCASE("execution 1 with job 5 failed and job 12 running") {
    const std::size_t exec1 = text.find("\"id\": 1");
    REQUIRE(exec1 != std::string::npos);
    // Drop execution 1's empty lists, then give its jobs as the answer would with a failure.
    for (const char* key : {"\"failedJobIds\": []", "\"runningJobIds\": []"}) {
      std::size_t at = text.find(key, exec1);
      REQUIRE(at != std::string::npos);
      std::size_t comma = text.rfind(',', at);
      text.erase(comma, at + std::string(key).size() - comma);
    }
    std::size_t at = text.find("\"successJobIds\"", exec1);
    REQUIRE(at != std::string::npos);
    text.replace(at, text.find(']', at) + 1 - at,
                 "\"successJobIds\": [3, 4], \"failedJobIds\": [5], \"runningJobIds\": [12]");
    ParseResult r = parse_input(text, "failed.sql.json");
    CHECK_FALSE(r.has_errors());
    REQUIRE(r.plans.size() == 2);
    const Plan& p = r.plans[1];
    REQUIRE(p.jobs.size() == 4);
    CHECK(p.jobs[2].id == "5");
    CHECK(p.jobs[2].status == JobStatus::Failed);
    CHECK(p.jobs[3].id == "12");  // by number, not by text
    CHECK(p.jobs[3].status == JobStatus::Running);
    REQUIRE(p.failed_jobs().size() == 1);
    CHECK(p.task_times_partial());
    CHECK(r.plans[0].failed_jobs().empty());
  }
}

TEST_CASE("history server: recognised from the first 4 KB when the description is longer") {
  std::string text = hs("multi-exec.sql-1.json");
  std::size_t desc = text.find("\"description\": \"");
  REQUIRE(desc != std::string::npos);
  // A whole SQL statement as the description pushes "planDescription" past what detection sees.
  text.insert(desc + 16, std::string(2 * kDetectBytes, 'x'));
  REQUIRE(text.find("\"planDescription\"") > kDetectBytes);
  std::string_view head = std::string_view(text).substr(0, kDetectBytes);
  CHECK(looks_like_history_server(head));
  CHECK(reader_for(head).name == "history-server");
  LintResult r = lint_text(text, "long.json", Config{});
  CHECK(r.parse.format == InputFormat::HistoryServer);
  CHECK_FALSE(r.parse.has_errors());
  CHECK(r.parse.plans.size() == 1);
  // A profile whose query has an "id" and a "status" is not taken: those keys are not the first.
  CHECK_FALSE(looks_like_history_server("{\"version\": \"1.2\", \"query\": {\"id\": 1, \"status\": \"X\"}}"));
  CHECK_FALSE(looks_like_history_server("{\"id\": \"01f0\", \"status\": \"FINISHED\"}"));
}

TEST_CASE("history server: metrics attach to the operators of the final plan, the same as the event log's") {
  ParseResult hsr = parse_input(hs("skewed-join.sql.json"), "skewed-join.sql.json");
  ParseResult ev = parse_input(read_file(corpus_dir() / "eventlog/skewed-join.eventlog"), "skewed-join.eventlog");
  REQUIRE(hsr.plans.size() == 1);
  REQUIRE(ev.plans.size() == 1);
  for (const auto& note : hsr.messages) INFO(note.message);
  const Plan& p = hsr.plans[0];
  const Operator* smj = final_op(p, "SortMergeJoin");
  REQUIRE(smj);
  REQUIRE(smj->rows());
  CHECK(*smj->rows() == *final_op(ev.plans[0], "SortMergeJoin")->rows());  // counts are exact
  const Operator* events = final_op(p, "Scan parquet spark_catalog.default.events");
  REQUIRE(events);
  CHECK(events->rows() == std::optional<double>(400'000'000.0));
  // Each operator got the event log's metrics (sizes and times rounded as displayed).
  std::size_t hs_metrics = 0, ev_metrics = 0;
  for (const auto& op : p.ops) hs_metrics += op.metrics().size();
  for (const auto& op : ev.plans[0].ops) ev_metrics += op.metrics().size();
  CHECK(hs_metrics == ev_metrics);
  // The codegen stage's task-time spread stands in for the stage's task times.
  REQUIRE(std::find(smj->extra()->spark_stages.begin(), smj->extra()->spark_stages.end(), 2) != smj->extra()->spark_stages.end());
  const StageInfo* st = nullptr;
  for (const auto& s : p.stages)
    if (s.id == "2") st = &s;
  REQUIRE(st);
  REQUIRE(st->task_ms_max);
  CHECK(*st->task_ms_max == doctest::Approx(1.6 * 60000));
  CHECK(*st->task_ms_median == doctest::Approx(1400));
}

TEST_CASE("history server: findings name their execution and match the event log's rules") {
  Config c;
  LintResult a = lint_text(hs("skewed-join.sql.json"), "a.json", c);
  LintResult b = lint_text(read_file(corpus_dir() / "eventlog/skewed-join.eventlog"), "b", c);
  std::set<std::string> ra, rb;
  for (const auto& d : a.diagnostics) {
    REQUIRE(d.plan_label.execution);
    CHECK(*d.plan_label.execution == 0);
    CHECK(d.plan_label.description == "save at sessions.py:41");
    CHECK(labelled_message(d).rfind("execution 0 (save at sessions.py:41): ", 0) == 0);
    CHECK(d.message.rfind("execution", 0) != 0);
    ra.insert(d.rule + "@" + d.operator_name);
  }
  for (const auto& d : b.diagnostics) rb.insert(d.rule + "@" + d.operator_name);
  CHECK(ra == rb);
  CHECK(ra.count("skew-not-handled@SortMergeJoin"));
}

TEST_CASE("history server: broken answers say what was wrong") {
  ParseResult r = parse_history_server("{\"id\": 1, \"planDescription\": \"== Physical", "x.json");
  CHECK(r.plans.empty());
  REQUIRE(r.has_errors());
  CHECK(r.messages[0].message.find("not valid JSON") != std::string::npos);
  r = parse_history_server("{\"id\": 3, \"status\": \"COMPLETED\", \"planDescription\": \"\", \"successJobIds\": []}", "x.json");
  CHECK(r.plans.empty());
  REQUIRE(r.has_errors());
  CHECK(r.messages[0].message.find("no planDescription") != std::string::npos);
  // Graph nodes pointing nowhere, ids out of order, a self edge, junk types: read what can be read.
  r = parse_history_server(R"({"id": 0, "planDescription": "== Physical Plan ==\n* Project (2)\n+- * Range (1)\n\n\n(1) Range [codegen id : 1]\nOutput [1]: [id#0L]\n\n(2) Project [codegen id : 1]\nOutput [1]: [id#0L]\n",
    "submissionTime": "x", "nodes": [{"nodeId": 1, "nodeName": "Range", "metrics": [{"name": "number of output rows", "value": "1,000"}]},
    {"nodeId": 0, "nodeName": "Project", "metrics": "nope"}, {"nodeId": "7"}, 5],
    "edges": [{"fromId": 1, "toId": 0}, {"fromId": 0, "toId": 0}, {"fromId": 9, "toId": 1}, {}]})",
                           "x.json");
  REQUIRE(r.plans.size() == 1);
  CHECK_FALSE(r.has_errors());
  const Operator* range = final_op(r.plans[0], "Range");
  REQUIRE(range);
  CHECK(range->rows() == std::optional<double>(1000.0));
}

// ---- The December 2026 reliability probe: C1, H3, W1, S4 ----

TEST_CASE("history server: a number no double holds is a parse error, not an abort (C1)") {
  const std::string plan = R"("planDescription": "== Physical Plan ==\n* Project (1)\n")";
  for (std::string bad : {std::string("\"duration\": 1e400"), std::string("\"duration\": -1e400"),
                          std::string("\"duration\": 1") + std::string(400, '0'), std::string("\"x\": [1e999]"),
                          std::string("\"nodes\": [{\"nodeId\": 1e400}]")}) {
    INFO(bad);
    std::string text = "[{\"id\": 0, \"status\": \"COMPLETED\", " + bad + ", " + plan + "}]";
    ParseResult r;
    CHECK_NOTHROW(r = parse_history_server(text, "x.json"));
    CHECK(r.plans.empty());
    REQUIRE(r.has_errors());
    CHECK(r.messages[0].message.find("not valid JSON: number out of range") != std::string::npos);
    CHECK(r.messages[0].loc.line == 1);
    CHECK(r.messages[0].loc.column > 30);  // at the number, not at 1:1
    CHECK_NOTHROW(parse_input(text, "x.json"));
  }
  // A double that is a number but no id (1e308, a 29-digit id): no undefined cast, the plan is read.
  for (std::string id : {"1e308", "-1e308", "99999999999999999999999999999"}) {
    ParseResult r = parse_history_server("[{\"id\": " + id + ", \"status\": \"COMPLETED\", " + plan + "}]", "x.json");
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].name == "execution -1");
  }
}

TEST_CASE("history server: 20,000 executions, each located on its own line (H3)") {
  // The cost is measured where speed lives, `planlint_bench scaling` ("History Server answer"
  // shape: ns/byte flat from 1 to 16 MB); a timed assertion here failed on a loaded sanitizer build.
  std::string text = planlint::gen::history_server_json(20000);
  ParseResult r = parse_history_server(text, "m.json");
  REQUIRE(r.plans.size() == 20000);
  CHECK(r.plans[0].loc.line == 1);
  CHECK(r.plans[19999].loc.line == 20000);  // one execution a line
  CHECK(r.plans[19999].loc.column == 35);
  CHECK(r.plans[19999].name == "execution 19999");
}

TEST_CASE("history server: each execution's location is its own planDescription key (W1)") {
  // An execution without a plan, then two with one: the third points at its own key.
  const std::string p = R"("planDescription": "== Physical Plan ==\n* Project (1)\n")";
  std::string text = "[{\"id\": 0, \"status\": \"COMPLETED\"},\n{\"id\": 1, \"status\": \"COMPLETED\",\n " + p +
                     "},\n{\"id\": 2, \"status\": \"COMPLETED\",\n\n " + p + "}]";
  ParseResult r = parse_history_server(text, "x.json");
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].loc.line == 3);
  CHECK(r.plans[0].loc.column == 3);
  CHECK(r.plans[1].loc.line == 6);
  CHECK(r.plans[1].loc.column == 3);
  // The text "planDescription" as a metric name (a decoy) before an execution's key.
  text = "[{\"id\": 0, \"status\": \"COMPLETED\", \"nodes\": [{\"nodeId\": 1, \"nodeName\": \"x\", \"metrics\":\n"
         " [{\"name\": \"planDescription\", \"value\": \"1\"}]}],\n " + p + "},\n{\"id\": 1, \"status\": \"COMPLETED\",\n " + p + "}]";
  r = parse_history_server(text, "x.json");
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].loc.line == 3);
  CHECK(r.plans[1].loc.line == 5);
  HistoryServerOptions one;
  one.execution = 1;
  r = parse_history_server(text, "x.json", one);
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].loc.line == 5);
  CHECK(r.plans[0].ops.front().loc.line == 5);
}

TEST_CASE("history server: fields the reader does not use are skipped, whatever their shape (S4)") {
  // Large arrays and deep nesting outside the kept fields; a kept field with the wrong shape.
  std::string junk = "[" + std::string(100000, '[') + std::string(100000, ']');
  for (int i = 0; i < 1000; ++i) junk += ",{\"a\":[0,1,{}]}";
  junk += "]";
  std::string text = "{\"id\": 4, \"status\": \"COMPLETED\", \"x\": " + junk +
                     R"(, "nodes": [{"nodeId": [1], "nodeName": {"a": 1}}, 7], "edges": {"fromId": 1},
                     "planDescription": "== Physical Plan ==\n* Project (1)\n", "id2": 5})";
  ParseResult r = parse_history_server(text, "x.json");
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].name == "execution 4");
  CHECK(r.plans[0].loc.line == 2);
  // Not an execution at all.
  for (const char* s : {"[]", "[1, 2]", "5", "\"x\"", "[[{}]]"}) {
    INFO(s);
    r = parse_history_server(s, "x.json");
    REQUIRE(r.has_errors());
    CHECK(r.messages[0].message.find("expected a SQL execution object") != std::string::npos);
  }
  HistoryServerOptions one;
  one.execution = 9;
  r = parse_history_server(R"([{"id": 1, "status": "COMPLETED", "planDescription": "x"}])", "x.json", one);
  REQUIRE(r.has_errors());
  CHECK(r.messages[0].message.find("no SQL execution 9") != std::string::npos);
}

TEST_CASE("history server: an answer whose keys a tool sorted (jq -S, sort_keys) reads the same") {
  // nlohmann::json keeps object keys sorted: dump() writes the answer in alphabetical key order
  // (description, duration, edges, failedJobIds, id, nodes, planDescription, ...), the graph
  // before the plan text. It must be recognised as a History Server answer and give the same
  // operators, metrics and findings.
  for (const char* name : {"skewed-join.sql.json", "even-join.sql.json", "multi-exec.sql.json", "multi-exec.sql-1.json"}) {
    INFO(name);
    const std::string original = test::read_file(test::corpus_dir() / "history-server" / name);
    for (int indent : {-1, 1}) {
      const std::string sorted = nlohmann::json::parse(original).dump(indent);
      REQUIRE(sorted != original);
      LintResult a = lint_text(original, name, Config{});
      LintResult b = lint_text(sorted, name, Config{});
      CHECK(b.parse.format == InputFormat::HistoryServer);
      REQUIRE(a.parse.plans.size() == b.parse.plans.size());
      for (std::size_t i = 0; i < a.parse.plans.size(); ++i) {
        REQUIRE(a.parse.plans[i].ops.size() == b.parse.plans[i].ops.size());
        std::size_t ma = 0, mb = 0;
        for (const auto& op : a.parse.plans[i].ops) ma += op.metrics().size();
        for (const auto& op : b.parse.plans[i].ops) mb += op.metrics().size();
        CHECK(ma == mb);
      }
      REQUIRE(a.diagnostics.size() == b.diagnostics.size());
      for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
        CHECK(a.diagnostics[i].rule == b.diagnostics[i].rule);
        CHECK(a.diagnostics[i].message == b.diagnostics[i].message);
      }
    }
  }
}

TEST_CASE("history server: node objects pasted without their execution (fragments)") {
  SUBCASE("two nodes with an elision between them, {amount} values, arrays left open (real-runtime rt18)") {
    const std::string text = read_file(corpus_dir() / "real-runtime/rt18-hs-fragment-spark38222-amount-objects.json");
    CHECK(looks_like_history_server_fragment(text));
    CHECK_FALSE(looks_like_history_server(text));
    ParseResult r = parse_input(text, "rt18.json");
    CHECK(r.format == InputFormat::HistoryServer);
    REQUIRE(r.plans.size() == 1);
    const Plan& p = r.plans[0];
    REQUIRE(p.ops.size() == 2);
    CHECK(p.ops[0].name == "BroadcastHashJoin");
    CHECK(p.ops[0].kind == OpKind::Join);
    CHECK(p.ops[0].rows() == 2.0);
    CHECK(p.ops[0].codegen_stage == 3);
    CHECK(p.ops[1].name == "HashAggregate");
    CHECK(p.ops[1].metric(Metric::SpillSize) != nullptr);
    CHECK(p.roots.size() == 2);
    CHECK_FALSE(r.has_errors());
    bool shape = false, elision = false, brackets = false;
    for (const auto& m : r.messages) {
      shape = shape || (m.severity == MessageSeverity::Warning && m.message.find("2 node objects of a History Server") != std::string::npos);
      elision = elision || (m.message.find("an elision (`...`)") != std::string::npos && m.loc.line == 12);
      brackets = brackets || m.message.find("brackets do not balance") != std::string::npos;
    }
    CHECK(shape);
    CHECK(elision);
    CHECK(brackets);
  }
  SUBCASE("a lone WholeStageCodegen node (rt17): no operator, an error naming the shape") {
    const std::string text = read_file(corpus_dir() / "real-runtime/rt17-hs-fragment-spark31440-wscg-duration.json");
    ParseResult r = parse_input(text, "rt17.json");
    CHECK(r.plans.empty());
    REQUIRE(r.has_errors());
    CHECK(r.messages[0].message.find("1 node object of a History Server /sql answer") != std::string::npos);
    CHECK(r.messages[0].message.find("WholeStageCodegen (1) is a codegen wrapper") != std::string::npos);
  }
  SUBCASE("near miss: a whole answer is not a fragment, a Query Profile is neither") {
    CHECK_FALSE(looks_like_history_server_fragment(R"({"id": 3, "status": "COMPLETED", "planDescription": "x", "nodes": [{"nodeId": 1, "nodeName": "Scan"}]})"));
    CHECK_FALSE(looks_like_history_server_fragment(R"({"query": {"id": "01ee"}, "graphs": [{"nodes": [{"nodeName": "x"}]}]})"));
  }
}
