#include <doctest/doctest.h>

#include <sstream>

#include "lint/engine/engine.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

using namespace planlint;
using planlint::test::corpus_dir;
using planlint::test::read_file;
using planlint::test::require_shared;

namespace {
const Operator* find_name(const Plan& p, std::string_view name) {
  for (const auto& op : p.ops)
    if (op.name == name && op.section != Section::AqeInitial) return &op;
  return nullptr;
}
}  // namespace

TEST_CASE("event log: our skewed join log gives one execution with metrics and stage task times") {
  std::string text = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  ParseResult r = parse_input(text, "skewed-join.eventlog");
  CHECK(r.format == InputFormat::EventLog);
  CHECK_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  CHECK(p.name == "execution 0: save at sessions.py:41");
  CHECK(p.is_final_plan == std::optional<bool>(true));  // the last AQE update wins over the start event
  const Operator* smj = find_name(p, "SortMergeJoin");
  REQUIRE(smj);
  REQUIRE(smj->rows());
  // 47 even tasks of 8M rows + the three hot tasks (300M + 180M + 128,571,428).
  CHECK(*smj->rows() == doctest::Approx(47.0 * 8'000'000 + 300'000'000 + 180'000'000 + 128'571'428));
  CHECK(smj->extra()->spark_stages == std::vector<int>{2});
  const Operator* scan = find_name(p, "Scan parquet spark_catalog.default.events");
  REQUIRE(scan);
  CHECK(scan->rows() == std::optional<double>(40.0 * 10'000'000));
  const Operator* sort = find_name(p, "Sort");
  REQUIRE(sort);
  const Metric* spill = sort->metric("Spill size");
  REQUIRE(spill);
  CHECK(spill->unit == MetricUnit::Bytes);
  CHECK(*spill->value == doctest::Approx(22.0 * (1ull << 30)));
  const Operator* read = find_name(p, "AQEShuffleRead");
  REQUIRE(read);
  CHECK(read->metric_value("Number of partitions") == std::optional<double>(50));  // driver accumulator update
  REQUIRE(p.stages.size() == 3);
  const StageInfo& join_stage = p.stages[2];
  CHECK(join_stage.id == "2");
  CHECK(join_stage.num_tasks == std::optional<double>(50));
  CHECK(join_stage.task_ms_max == std::optional<double>(95'000));
  REQUIRE(join_stage.task_ms_median);
  CHECK(*join_stage.task_ms_median >= 1200);
  CHECK(*join_stage.task_ms_median < 1500);
  // Every operator points at the event line that carried its plan.
  CHECK(smj->loc.line > 3);
}

TEST_CASE("event log: skew-not-handled fires on real stragglers and not on an even stage") {
  Config cfg;
  cfg.select = {"skew-not-handled"};
  LintResult skewed = lint_text(read_file(corpus_dir() / "eventlog/skewed-join.eventlog"), "s.eventlog", cfg);
  REQUIRE(skewed.diagnostics.size() == 1);
  CHECK(skewed.diagnostics[0].operator_name == "SortMergeJoin");
  CHECK(skewed.diagnostics[0].message.find("stage 2") != std::string::npos);
  LintResult even = lint_text(read_file(corpus_dir() / "eventlog/even-join.eventlog"), "e.eventlog", cfg);
  CHECK(even.diagnostics.empty());
}

TEST_CASE("event log: --execution picks one, unknown ids and bad lines are reported") {
  std::string text = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  EventLogOptions one;
  one.execution = 0;
  CHECK(parse_event_log(text, "x", one).plans.size() == 1);
  EventLogOptions none;
  none.execution = 7;
  ParseResult r = parse_event_log(text, "x", none);
  CHECK(r.plans.empty());
  CHECK(r.has_errors());

  std::string damaged = text.substr(0, text.size() / 2) + "\n{\"Event\":\"SparkListenerTaskEnd\", \"Stage ID\": 2, \n";
  ParseResult d = parse_event_log(damaged, "x", EventLogOptions{});
  CHECK(d.has_errors());  // the cut line is reported...
  CHECK(d.plans.size() == 1);  // ...and the execution seen so far is still read
}

TEST_CASE("event log: streaming and in-memory reading agree") {
  std::string text = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  std::istringstream in(text);
  ParseResult a = parse_event_log_stream(in, "x", EventLogOptions{});
  ParseResult b = parse_event_log(text, "x", EventLogOptions{});
  REQUIRE(a.plans.size() == b.plans.size());
  REQUIRE(a.plans.size() == 1);
  CHECK(a.plans[0].ops.size() == b.plans[0].ops.size());
  CHECK(a.plans[0].stages.size() == b.plans[0].stages.size());
  CHECK(a.messages.size() == b.messages.size());
}

TEST_CASE("event log: a corrupt compressed log gives one plain message") {
  std::string zstd = std::string("\x28\xB5\x2F\xFD", 4) + "garbage";
  ParseResult r = parse_input(zstd, "app.zstd");
  CHECK(r.format == InputFormat::EventLog);
  REQUIRE(r.messages.size() == 1);
  CHECK(r.messages[0].message.find("the zstd data is corrupt") != std::string::npos);
}

TEST_CASE("event log: Spark's own test logs" * doctest::test_suite("shared")) {
  auto shared = require_shared();
  if (!shared) return;
  auto dir = *shared / "corpus/spark-eventlogs";
  ParseResult a = parse_input(read_file(dir / "local-1596020211915.eventlog"), "a");
  CHECK(a.format == InputFormat::EventLog);
  CHECK(a.plans.size() == 24);
  ParseResult b = parse_input(read_file(dir / "local-1642039451826.eventlog"), "b");
  REQUIRE(b.plans.size() == 2);
  for (const Plan& p : b.plans) {
    // The last AQE update is the final plan, and the final stages got their metrics.
    CHECK(p.is_final_plan == std::optional<bool>(true));
    bool any_rows = false;
    for (const auto& op : p.ops) any_rows = any_rows || op.rows().has_value();
    CHECK(any_rows);
    CHECK_FALSE(p.stages.empty());
  }
  ParseResult c = parse_input(read_file(dir / "app-20200706201101-0003.eventlog"), "c");
  CHECK(c.plans.size() == 1);
  for (const auto* r : {&a, &b, &c}) CHECK_FALSE(r->has_errors());
}

TEST_CASE("event log: task-end fields of unexpected types are read as numbers or ignored, never thrown on") {
  // "Failed" as a string made the DOM reader's value() throw (and planlint abort).
  std::string log =
      R"({"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":0,"description":"d",)"
      R"("physicalPlanDescription":"== Physical Plan ==\n* Project (2)\n+- Scan parquet t (1)\n",)"
      R"("sparkPlanInfo":{"nodeName":"Project","children":[],"metrics":[]},"time":1})"
      "\n"
      R"({"Event":"SparkListenerJobStart","Job ID":0,"Stage IDs":[0],"Properties":{"spark.sql.execution.id":"0"}})"
      "\n"
      R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Failed":"yes","Killed":7,)"
      R"("Accumulables":[{"ID":{"x":1},"Update":[1]},5,{"ID":"3"}]},"Task Metrics":{"Executor Run Time":"12"}})"
      "\n"
      R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Failed":false},"Task Metrics":{"Executor Run Time":"30"}})"
      "\n";
  ParseResult r = parse_event_log(log, "x", EventLogOptions{});
  CHECK_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  REQUIRE(r.plans[0].stages.size() == 1);
  // Both tasks count ("yes" is not true); run times given as strings are read as numbers.
  CHECK(r.plans[0].stages[0].task_ms_max == std::optional<double>(30));
  CHECK(r.plans[0].stages[0].task_ms_min == std::optional<double>(12));
}
