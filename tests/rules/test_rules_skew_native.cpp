// skew-not-handled from partition and task evidence (older profiles without the skew ratio, event
// logs' per-task shuffle reads) and photon-fallback on Comet and on Gluten leaf scans: triggers and
// near misses, on hand-built models, on event logs made from the corpus logs and on real plans.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "lint/engine/engine.hpp"
#include "parser/registry/parse.hpp"
#include "tests/rules/rule_test_helpers.hpp"
#include "tests/rules_builder.hpp"
#include "tests/support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {


// Scan -> PhotonShuffleExchangeSink (with an older profile's partition counters, no skew ratio) on
// both sides of a PhotonShuffledHashJoin; returns the join.
std::size_t counters_join(PlanBuilder& b, double parts, double empty, double bytes) {
  std::size_t ls = b.add("Scan parquet db.detail");
  std::size_t lx = b.add("PhotonShuffleExchangeSink", {ls});
  b.metric(lx, "Sink - Number of partitions", parts);
  b.metric(lx, "AQEShuffleRead - Number of empty partitions", empty);
  b.metric(lx, "AQEShuffleRead - Partition data size", bytes, MetricUnit::Bytes);
  std::size_t rs = b.add("Scan parquet db.master");
  std::size_t rx = b.add("PhotonShuffleExchangeSink", {rs});
  b.metric(rx, "Sink - Number of partitions", parts);
  b.metric(rx, "AQEShuffleRead - Number of empty partitions", parts - 6);
  b.metric(rx, "AQEShuffleRead - Partition data size", 426, MetricUnit::Bytes);
  std::size_t j = b.add("PhotonShuffledHashJoin", {lx, rx});
  b.join(j, JoinType::Inner, BuildSide::Right);
  return j;
}

// An event-log join whose stage 7 has the given task times and per-task shuffle reads.
std::size_t stage_join(PlanBuilder& b, double max_ms, double median_ms, double max_bytes, double median_bytes) {
  std::size_t ls = b.add("Scan parquet db.fact");
  std::size_t lx = b.add("Exchange", {ls});
  std::size_t rs = b.add("Scan parquet db.dim");
  std::size_t rx = b.add("Exchange", {rs});
  std::size_t j = b.add("SortMergeJoin", {lx, rx});
  b.join(j, JoinType::Inner, BuildSide::None);
  b.op(j).edit_runtime().extra.edit().spark_stages = {7};
  StageInfo st;
  st.id = "7";
  st.num_tasks = 200;
  st.task_ms_max = max_ms;
  st.task_ms_median = median_ms;
  b.plan.stages.push_back(st);
  StageShuffleReadFacts sr;
  sr.stage_id = "7";
  sr.tasks = 200;
  sr.bytes_max = max_bytes;
  sr.bytes_median = median_bytes;
  sr.bytes_total = max_bytes + 199 * median_bytes;
  sr.records_max = max_bytes / 100;
  sr.records_median = median_bytes / 100;
  sr.empty_tasks = median_bytes > 0 ? 0 : 150;
  b.plan.facts.stage_shuffle_reads.push_back(sr);
  return j;
}

// `text` with shuffle read metrics added to the task-end events of stage `stage`: the first `hot`
// tasks read `hot_bytes`, the others `bytes`.
std::string with_shuffle_reads(const std::string& text, int stage, int hot, double hot_bytes, double bytes) {
  std::istringstream in(text);
  std::string line, out;
  const std::string stage_key = "\"Stage ID\":" + std::to_string(stage) + ",";
  int seen = 0;
  while (std::getline(in, line)) {
    if (line.find("SparkListenerTaskEnd") != std::string::npos && line.find(stage_key) != std::string::npos) {
      auto p = line.find("\"Task Metrics\":{");
      REQUIRE(p != std::string::npos);
      p += std::string("\"Task Metrics\":{").size();
      double b = seen++ < hot ? hot_bytes : bytes;
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":3,\"Remote Bytes Read\":%.0f,"
                    "\"Local Bytes Read\":%.0f,\"Total Records Read\":%.0f},",
                    b * 0.75, b * 0.25, b / 100);
      line.insert(p, buf);
    }
    out += line + "\n";
  }
  return out;
}

bool has_evidence(const Diagnostic& d, const std::string& name) {
  for (const auto& e : d.evidence)
    if (e.name == name) return true;
  return false;
}

std::string evidence_text(const Diagnostic& d, const std::string& name) {
  for (const auto& e : d.evidence)
    if (e.name == name) return e.value;
  return "";
}

}  // namespace

TEST_CASE("skew-not-handled: an older profile's partition counters (most partitions empty, the data in a few)") {
  SUBCASE("505 of 512 partitions empty, 6 GB in the other 7") {
    PlanBuilder b(InputFormat::QueryProfile);
    counters_join(b, 512, 505, 6057173279.0);
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].operator_name == "PhotonShuffledHashJoin");
    CHECK(ds[0].message.find("its left input is concentrated in a few partitions: 505 of the 512 partitions of "
                             "PhotonShuffleExchangeSink (2) are empty and the other 7 hold") != std::string::npos);
    CHECK(evidence_text(ds[0], "empty partitions") == "505");
    CHECK(has_evidence(ds[0], "average non-empty partition"));
    CHECK(ds[0].fix.find("spark.sql.adaptive.skewJoin.enabled") != std::string::npos);
  }
  SUBCASE("near miss: most partitions hold data (AQE's median is not empty)") {
    PlanBuilder b(InputFormat::QueryProfile);
    counters_join(b, 512, 400, 60 * kGiB);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("near miss: the few full partitions are small") {
    PlanBuilder b(InputFormat::QueryProfile);
    counters_join(b, 512, 505, 7 * 100 * kMiB);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("near miss: AQE split the skewed partitions") {
    PlanBuilder b(InputFormat::QueryProfile);
    counters_join(b, 512, 505, 6057173279.0);
    b.metric(1, "AQEShuffleRead - Number of skewed partitions", 5);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("near miss: a broadcast join needs no skew handling") {
    PlanBuilder b(InputFormat::QueryProfile);
    std::size_t j = counters_join(b, 512, 505, 6057173279.0);
    b.op(j).join.edit().strategy = JoinStrategy::BroadcastHash;
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("the share is a threshold") {
    PlanBuilder b(InputFormat::QueryProfile);
    counters_join(b, 512, 400, 60 * kGiB);
    Config c;
    c.thresholds["skew-not-handled"]["skew-empty-share"] = 0.7;
    CHECK(only(lint(b, c), "skew-not-handled").size() == 1);
  }
}

TEST_CASE("skew-not-handled: per-task shuffle reads of the join stage (event logs)") {
  SUBCASE("one task read 2 GiB, the median task 40 MiB, the slowest task ran 12 s") {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, 12000, 6000, 2 * kGiB, 40 * kMiB);  // time spread 2x: the task-time evidence alone misses
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("stage 7 that ran it read its shuffle unevenly: one task read 2.0 GiB, 51.2× the median "
                             "task (40.0 MiB)") != std::string::npos);
    CHECK(has_evidence(ds[0], "largest task shuffle read"));
    CHECK(*ds[0].impact == doctest::Approx(6000));
  }
  SUBCASE("most tasks read nothing") {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, 60000, 200, 3 * kGiB, 0);
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    // The task times decide first: 60 s against a 0.2 s median is the straggler evidence.
    CHECK(ds[0].message.find("has stragglers") != std::string::npos);
    CHECK(has_evidence(ds[0], "median task shuffle read"));
  }
  SUBCASE("near miss: uneven, but the largest read is under skew-threshold-bytes") {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, 12000, 6000, 200 * kMiB, 4 * kMiB);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("near miss: uneven and large, but no task ran skew-min-task-time") {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, 3000, 1500, 2 * kGiB, 40 * kMiB);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("near miss: even reads") {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, 12000, 6000, 600 * kMiB, 500 * kMiB);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
}

TEST_CASE("event log: the tasks' shuffle reads become the stage's shuffle-read facts") {
  const std::string skewed = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  const std::string text = with_shuffle_reads(skewed, 2, 3, 3 * kGiB, 60 * kMiB);
  ParseResult r = parse_input(text, "skewed-reads.eventlog");
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  REQUIRE(p.facts.stage_shuffle_reads.size() == 1);
  const StageShuffleReadFacts& f = p.facts.stage_shuffle_reads[0];
  CHECK(f.stage_id == "2");
  CHECK(f.tasks == 50);
  CHECK(f.bytes_max == doctest::Approx(3 * kGiB));
  CHECK(f.bytes_median == doctest::Approx(60 * kMiB));
  CHECK(f.bytes_total == doctest::Approx(3 * 3 * kGiB + 47 * 60 * kMiB));
  CHECK(f.records_max == doctest::Approx(3 * kGiB / 100));
  CHECK(f.empty_tasks == 0);
  // Without shuffle read metrics (the corpus log as written) there are no such facts.
  CHECK(parse_input(skewed, "s.eventlog").plans.at(0).facts.stage_shuffle_reads.empty());

  SUBCASE("the stragglers' finding carries the shuffle-read spread") {
    LintResult lr = lint_text(text, "s.eventlog", only_rule("skew-not-handled"));
    REQUIRE(lr.diagnostics.size() == 1);
    CHECK(lr.diagnostics[0].message.find("has stragglers") != std::string::npos);
    CHECK(evidence_text(lr.diagnostics[0], "largest task shuffle read").rfind("3.0 GiB", 0) == 0);
  }
  SUBCASE("near miss: uneven reads in a stage whose tasks all ran 1.5 s") {
    const std::string even = with_shuffle_reads(read_file(corpus_dir() / "eventlog/even-join.eventlog"), 2, 1,
                                                3 * kGiB, 60 * kMiB);
    ParseResult er = parse_input(even, "even-reads.eventlog");
    REQUIRE(er.plans.size() == 1);
    REQUIRE(er.plans[0].facts.stage_shuffle_reads.size() == 1);
    CHECK(lint_text(even, "e.eventlog", only_rule("skew-not-handled")).diagnostics.empty());
  }
}

TEST_CASE("native-engine-fallback: Comet") {
  SUBCASE("a Spark Project over CometColumnarToRow (real plan 029)") {
    LintResult lr = lint_text(read_file(corpus_dir() / "real/029-comet-fallback-incompatible-expr.txt"), "029.txt",
                              only_rule("native-engine-fallback"));
    REQUIRE(lr.diagnostics.size() == 1);
    const Diagnostic& d = lr.diagnostics[0];
    CHECK(d.operator_name == "Project");
    CHECK(d.message == "Project runs on vanilla Spark (JVM), not in Comet: it reads Comet output through CometColumnarToRow");
    CHECK(evidence_text(d, "plan engine") == "Comet");
    CHECK(evidence_text(d, "operator engine") == "JVM");
    CHECK(evidence_text(d, "transition") == "CometColumnarToRow");
    CHECK(evidence_text(d, "native operators below") == "CometNativeScan parquet");
    CHECK(evidence_text(d, "fallback reason").rfind("from_unixtime(eventTime#5L, yyyy-MM-dd HH:mm:ss, Some(GMT)) is not fully "
                                               "compatible with Spark", 0) == 0);
    CHECK(d.fix.find("spark.comet.expression.FromUnixTime.allowIncompatible=true") != std::string::npos);
  }
  SUBCASE("a Spark operator sandwiched between Comet operators") {
    const std::string plan =
        "== Physical Plan ==\n"
        "CometColumnarToRow\n"
        "+- CometHashAggregate [k#1], [k#1, sum(v#2)]\n"
        "   +- CometSparkRowToColumnar\n"
        "      +- Generate explode(vs#3), [k#1], false, [v#2]\n"
        "         +- CometColumnarToRow\n"
        "            +- CometNativeScan parquet spark_catalog.default.t [k#1, vs#3]\n";
    LintResult lr = lint_text(plan, "sandwich.txt", only_rule("native-engine-fallback"));
    REQUIRE(lr.diagnostics.size() == 1);
    CHECK(lr.diagnostics[0].operator_name == "Generate");
    CHECK(lr.diagnostics[0].message.find("not in Comet: it reads Comet output through CometColumnarToRow") !=
          std::string::npos);
  }
  SUBCASE("near misses: all-Comet plans, a plan with no Comet operator, Comet's own notes") {
    for (const char* f : {"real/025-comet-native-scan-formatted-with-logs.txt", "real/026-comet-fallback-warn-tree.txt",
                          "real/027-comet-filter-native-scan.txt", "real/028-comet-codegen-dispatch-summary.txt"}) {
      INFO(f);
      CHECK(lint_text(read_file(corpus_dir() / f), f, only_rule("native-engine-fallback")).diagnostics.empty());
    }
  }
  SUBCASE("near miss: a driver-local LocalTableScan under Comet") {
    const std::string plan =
        "CometColumnarToRow\n"
        "+- CometProject [a#1]\n"
        "   +- CometSparkRowToColumnar\n"
        "      +- LocalTableScan [a#1]\n";
    CHECK(lint_text(plan, "local.txt", only_rule("native-engine-fallback")).diagnostics.empty());
  }
}

TEST_CASE("native-engine-fallback: a Gluten leaf scan that is not offloaded") {
  SUBCASE("Scan hive under RowToVeloxColumnar (real plan 039)") {
    LintResult lr = lint_text(read_file(corpus_dir() / "real/039-gluten-hive-udf-spark-sql-prompt.txt"), "039.txt",
                              only_rule("native-engine-fallback"));
    REQUIRE(lr.diagnostics.size() == 1);
    const Diagnostic& d = lr.diagnostics[0];
    CHECK(d.operator_name == "Scan hive spark_catalog.default.tbl");
    CHECK(d.message ==
          "Scan hive spark_catalog.default.tbl runs on vanilla Spark (JVM), not in Gluten/Velox: its rows are "
          "converted into Gluten/Velox batches by RowToVeloxColumnar for ProjectExecTransformer");
    CHECK(evidence_text(d, "transition") == "RowToVeloxColumnar");
    CHECK(evidence_text(d, "native operator above") == "ProjectExecTransformer");
    CHECK(d.fix.find("Parquet or ORC") != std::string::npos);
  }
  SUBCASE("the JVM operators above a JVM leaf belong to the same finding") {
    const std::string plan =
        "VeloxColumnarToRow\n"
        "+- ^(2) ProjectExecTransformer [a#1]\n"
        "   +- RowToVeloxColumnar\n"
        "      +- Filter (a#1 > 5)\n"
        "         +- Scan hive spark_catalog.default.tbl [a#1], HiveTableRelation [`spark_catalog`.`default`.`tbl`]\n";
    LintResult lr = lint_text(plan, "leaf.txt", only_rule("native-engine-fallback"));
    REQUIRE(lr.diagnostics.size() == 1);
    CHECK(lr.diagnostics[0].operator_name == "Scan hive spark_catalog.default.tbl");
    CHECK(lr.diagnostics[0].message.find("2 operators run on the JVM") != std::string::npos);
  }
  SUBCASE("near miss: a LocalTableScan leaf is driver-local rows") {
    const std::string plan =
        "VeloxColumnarToRow\n"
        "+- ^(2) ProjectExecTransformer [a#1]\n"
        "   +- RowToVeloxColumnar\n"
        "      +- LocalTableScan [a#1]\n";
    CHECK(lint_text(plan, "local.txt", only_rule("native-engine-fallback")).diagnostics.empty());
  }
  SUBCASE("near miss: a scan Gluten offloaded without renaming it (^ marker, no row-to-columnar conversion)") {
    const std::string plan =
        "VeloxColumnarToRowExec\n"
        "+- ^ ProjectExecTransformer (3)\n"
        "   +- ^ NoopFilter (2)\n"
        "      +- ^ Scan parquet (1)\n";
    CHECK(lint_text(plan, "offloaded.txt", only_rule("native-engine-fallback")).diagnostics.empty());
  }
  SUBCASE("near miss: a JVM subquery feeding a Photon scan's dynamic pruning is not converted rows") {
    PlanBuilder b;
    std::size_t agg = b.add("HashAggregate");
    std::size_t sub = b.add("SubqueryBroadcast", {agg});
    std::size_t scan = b.add("PhotonScan parquet db.fact", {sub});
    b.add("PhotonResultStage", {scan});
    CHECK(only(lint(b), "native-engine-fallback").empty());
  }
  SUBCASE("near miss: no native operator at all") {
    const std::string plan =
        "Project [a#1]\n"
        "+- Scan hive spark_catalog.default.tbl [a#1], HiveTableRelation [`spark_catalog`.`default`.`tbl`]\n";
    CHECK(lint_text(plan, "vanilla.txt", only_rule("native-engine-fallback")).diagnostics.empty());
  }
}

TEST_CASE("photon-fallback: RAPIDS GPU plans and Comet beyond its scans") {
  auto fallback = [](const char* f) {
    return lint_text(read_file(corpus_dir() / f), f, only_rule("photon-fallback")).diagnostics;
  };
  SUBCASE("a CPU Delta write over GpuColumnarToRow (real plan 065)") {
    auto ds = fallback("real/065-rapids-dbr-delta-write-elided.txt");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("not in the GPU (RAPIDS): it reads the GPU (RAPIDS) output through GpuColumnarToRow") !=
          std::string::npos);
    CHECK(evidence_text(ds[0], "plan engine") == "the GPU (RAPIDS)");
    CHECK(ds[0].fix.find("NOT_ON_GPU") != std::string::npos);
  }
  SUBCASE("a CPU operator under GpuRowToColumnar is reported as a leaf fallback") {
    const std::string plan =
        "GpuColumnarToRow false\n"
        "+- GpuProject [a#1]\n"
        "   +- GpuRowToColumnar targetsize(2147483647)\n"
        "      +- Filter (a#1 > 5)\n"
        "         +- FileScan text [a#1] Batched: false, Format: Text\n";
    auto ds = lint_text(plan, "gpu-leaf.txt", only_rule("photon-fallback")).diagnostics;
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("converted into the GPU (RAPIDS) batches by GpuRowToColumnar for GpuProject") !=
          std::string::npos);
  }
  SUBCASE("a JVM region under CometColumnarExchange, a Hudi scan under CometSparkColumnarToColumnar (068, 069)") {
    auto ds = fallback("real/068-comet-bench-notes-broadcast-jvm-range.txt");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("not in Comet") != std::string::npos);
    ds = fallback("real/069-comet-hudi-doc-cut-smj.txt");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].operator_name.rfind("FileScan HudiFileGroup", 0) == 0);
    CHECK(evidence_text(ds[0], "transition") == "CometSparkColumnarToColumnar");
  }
  SUBCASE("near misses: all-GPU and all-Comet plans") {
    for (const char* f : {"real/063-rapids-cn-doc-bhj-inline-caption.txt", "real/064-rapids-cn-doc-shj-inline-caption.txt",
                          "real/094-rapids-gvirtus-notes-spark4-resultstage-cut.txt",
                          "real/067-comet-ptbr-readme-native-elided.txt",
                          "real/070-comet-iceberg-notes-side-annotations.txt"}) {
      INFO(f);
      CHECK(fallback(f).empty());
    }
  }
}

TEST_CASE("RAPIDS and Comet operators are seen by the other rules") {
  SUBCASE("aqe-disabled counts GpuColumnarExchange as a shuffle") {
    const std::string plan =
        "== Physical Plan ==\n"
        "GpuColumnarToRow false\n"
        "+- GpuShuffledHashJoin [id#0L], [id#40L], Inner, GpuBuildRight, false\n"
        "   :- GpuColumnarExchange gpuhashpartitioning(id#0L, 200), ENSURE_REQUIREMENTS, [id=#834]\n"
        "   :  +- GpuFileGpuScan parquet [id#0L] Batched: true, Format: Parquet, ReadSchema: struct<id:bigint>\n"
        "   +- GpuColumnarExchange gpuhashpartitioning(id#40L, 200), ENSURE_REQUIREMENTS, [id=#867]\n"
        "      +- GpuFileGpuScan parquet [id#40L] Batched: true, Format: Parquet, ReadSchema: struct<id:bigint>\n";
    auto ds = lint_text(plan, "gpu-noaqe.txt", only_rule("aqe-disabled")).diagnostics;
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("2 shuffle exchanges") != std::string::npos);
    ParseResult r = parse_input(plan, "gpu-noaqe.txt");
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].facts.engine.gpu);
    for (const Operator& op : r.plans[0].ops)
      if (op.name.starts_with("GpuShuffledHashJoin")) CHECK(op.join->strategy == JoinStrategy::ShuffledHash);
  }
}

TEST_CASE("RAPIDS and Comet scans name their format and table as FileScan does") {
  const std::string plan =
      "== Physical Plan ==\n"
      "GpuColumnarToRow false\n"
      "+- GpuUnion\n"
      "   :- GpuFileGpuScan parquet [id#0L] Batched: true, DataFilters: [isnotnull(id#0L)], Format: Parquet, "
      "Location: InMemoryFileIndex[file:/data/student_100w], PartitionFilters: [], PushedFilters: [IsNotNull(id)], "
      "ReadSchema: struct<id:bigint>\n"
      "   +- CometScan parquet spark_catalog.db.t[id#5L] Batched: true, DataFilters: [], Format: CometParquet, "
      "Location: InMemoryFileIndex(1 paths)[file:/wh/db.db/t], PartitionFilters: [], PushedFilters: [], "
      "ReadSchema: struct<id:bigint>\n";
  ParseResult r = parse_input(plan, "vendor-scans.txt");
  REQUIRE(r.plans.size() == 1);
  int seen = 0;
  for (const Operator& op : r.plans[0].ops) {
    if (op.kind != OpKind::Scan) continue;
    ++seen;
    CHECK(op.scan_format() == "parquet");
    if (op.name.starts_with("GpuFileGpuScan")) {
      CHECK(op.name == "GpuFileGpuScan parquet");
      CHECK(op.table().empty());
      CHECK(op.field(FieldRole::Location) != nullptr);
    } else {
      CHECK(op.name == "CometScan parquet spark_catalog.db.t");
      CHECK(op.table() == "spark_catalog.db.t");
    }
  }
  CHECK(seen == 2);
}

TEST_CASE("native-engine-fallback: not on Spark's own CSV header inference") {
  // Spark's header inference run by RAPIDS (real-runtime rt05, execution 0): the text scan stays on
  // the CPU, under GpuRowToColumnar; it reads one line and no user wrote it.
  const std::string inference =
      "== Physical Plan ==\n"
      "CollectLimit 1\n"
      "+- GpuColumnarToRow false\n"
      "   +- GpuFilter (length(gpustringtrim(value#0, None)) > 0), true\n"
      "      +- GpuRowToColumnar targetsize(2147483647)\n"
      "         +- FileScan text [value#0] Batched: false, DataFilters: [(length(trim(value#0, None)) > 0)], "
      "Format: Text, Location: InMemoryFileIndex[file:/data/people.csv], PartitionFilters: [], PushedFilters: [], "
      "ReadSchema: struct<value:string>\n";
  CHECK(lint_text(inference, "inference.txt", only_rule("native-engine-fallback")).diagnostics.empty());
  SUBCASE("near miss: a user's filter over the same CPU text scan is still a fallback") {
    std::string user = inference;
    user.replace(user.find("length(gpustringtrim(value#0, None)) > 0"), 40, "length(value#0) > 10");
    CHECK(lint_text(user, "user.txt", only_rule("native-engine-fallback")).diagnostics.size() == 1);
  }
}

TEST_CASE("event log: a stage whose completion has a failure reason keeps the status FAILED") {
  // skewed-join.eventlog with stage 2's completion marked failed, as Spark writes it.
  std::string text = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  std::istringstream in(text);
  std::string line, out;
  bool marked = false;
  while (std::getline(in, line)) {
    if (!marked && line.find("SparkListenerStageCompleted") != std::string::npos &&
        line.find("\"Stage ID\":2,") != std::string::npos) {
      auto p = line.find("\"Stage Info\":{");
      REQUIRE(p != std::string::npos);
      line.insert(p + 14, "\"Failure Reason\":\"Job aborted due to stage failure\",");
      marked = true;
    }
    out += line + "\n";
  }
  REQUIRE(marked);
  ParseResult r = parse_input(out, "failed-stage.eventlog");
  REQUIRE(r.plans.size() == 1);
  bool failed = false, complete = false;
  for (const StageInfo& st : r.plans[0].stages) {
    if (st.id == "2") failed = st.status == StageStatus::Failed && st.partial();
    else complete = complete || (st.status == StageStatus::Complete && !st.partial());
  }
  CHECK(failed);
  CHECK(complete);
  CHECK(r.plans[0].task_times_partial());
}

TEST_CASE("event log: jobs and how they ended (SparkListenerJobEnd, JobFailed)") {
  const std::string text = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  SUBCASE("every job succeeded") {
    ParseResult r = parse_input(text, "skewed-join.eventlog");
    REQUIRE(r.plans.size() == 1);
    const Plan& p = r.plans[0];
    REQUIRE(p.jobs.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(p.jobs[i].id == std::to_string(i));
      CHECK(p.jobs[i].status == JobStatus::Succeeded);
      CHECK(p.jobs[i].stages == std::vector<std::string>{std::to_string(i)});
    }
    CHECK(p.failed_jobs().empty());
    CHECK_FALSE(p.task_times_partial());
  }
  SUBCASE("job 2 failed: its reason is kept (first line) and the plan's task times are partial") {
    std::string failed = text;
    const std::string ok = "\"Job ID\":2,\"Completion Time\":1700000101600,\"Job Result\":{\"Result\":\"JobSucceeded\"}";
    const auto at = failed.find(ok);
    REQUIRE(at != std::string::npos);
    failed.replace(at, ok.size(),
                   "\"Job ID\":2,\"Completion Time\":1700000101600,\"Job Result\":{\"Result\":\"JobFailed\",\"Exception\":"
                   "{\"Message\":\"Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times\\n\\tat "
                   "org.apache.spark.scheduler.DAGScheduler\",\"Stack Trace\":[]}}");
    ParseResult r = parse_input(failed, "failed-job.eventlog");
    REQUIRE(r.plans.size() == 1);
    const Plan& p = r.plans[0];
    REQUIRE(p.failed_jobs().size() == 1);
    CHECK(p.failed_jobs()[0]->id == "2");
    CHECK(p.failed_jobs()[0]->failure == "Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times");
    CHECK(p.jobs[0].status == JobStatus::Succeeded);
    CHECK(p.task_times_partial());
  }
  SUBCASE("the execution ended with an error before its job's end event: the job failed") {
    // As Spark 3.4+ writes a cancelled query (live streaming_rate): SQLExecutionEnd with an
    // errorMessage, the JobEnd after it.
    std::string text2 = text;
    const std::string end = "\"executionId\":0,\"time\":1700000101700}";
    const auto at = text2.find(end);
    REQUIRE(at != std::string::npos);
    text2.replace(at, end.size(),
                  "\"executionId\":0,\"time\":1700000101700,\"errorMessage\":\"java.lang.InterruptedException\\n\\tat x\"}");
    const std::string job_end = "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":2,";
    const auto je = text2.find(job_end);
    REQUIRE(je != std::string::npos);
    const std::string line = text2.substr(je, text2.find('\n', je) + 1 - je);
    text2.erase(je, line.size());
    text2 += line;  // after the execution's end
    ParseResult r = parse_input(text2, "late-job-end.eventlog");
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].failed_jobs().size() == 1);
    CHECK(r.plans[0].failed_jobs()[0]->id == "2");
    CHECK(r.plans[0].failed_jobs()[0]->failure == "java.lang.InterruptedException");
    CHECK(r.plans[0].jobs[1].status == JobStatus::Succeeded);
  }
  SUBCASE("a log cut before a job ended: the job is still running") {
    std::string cut = text.substr(0, text.find("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":2"));
    ParseResult r = parse_input(cut, "cut.eventlog");
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].jobs.size() == 3);
    CHECK(r.plans[0].jobs[2].status == JobStatus::Running);
    CHECK(r.plans[0].failed_jobs().empty());
  }
}

TEST_CASE("skew-not-handled: a failed stage says so in its evidence") {
  // The one finding on a join stage of the given task times and reads, its stage in `status`.
  auto finding = [](StageStatus status, double max_ms, double median_ms, double max_bytes, double median_bytes) {
    PlanBuilder b(InputFormat::EventLog);
    stage_join(b, max_ms, median_ms, max_bytes, median_bytes);
    b.plan.stages.back().status = status;
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    return ds[0];
  };
  SUBCASE("stragglers by time in a stage that failed") {
    CHECK(evidence_text(finding(StageStatus::Failed, 120000, 10000, 0, 0), "stage status")
              .rfind("stage 7 failed: its task times and reads count only the tasks that succeeded", 0) == 0);
  }
  SUBCASE("a stage that did not complete") {
    CHECK(evidence_text(finding(StageStatus::Active, 120000, 10000, 0, 0), "stage status").rfind("stage 7 did not complete", 0) == 0);
  }
  SUBCASE("uneven shuffle reads in a stage that failed") {
    CHECK(evidence_text(finding(StageStatus::Failed, 8000, 4000, 2 * kGiB, 10 * kMiB), "stage status").rfind("stage 7 failed", 0) == 0);
  }
  SUBCASE("near miss: a completed stage has no status evidence") {
    CHECK_FALSE(has_evidence(finding(StageStatus::Complete, 120000, 10000, 0, 0), "stage status"));
  }
}
