// Rule unit tests over hand-built plans: each rule's trigger and its near misses.
#include <doctest/doctest.h>

#include "rules/plan_util.hpp"
#include "tests/rules_builder.hpp"
#include "tests/support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {


// Scan parquet db.t -> ColumnarToRow -> Filter(cond); returns the filter index.
std::size_t scan_filter(PlanBuilder& b, std::vector<Expr> pushed, Expr cond, bool partitioned = false) {
  std::size_t scan = b.add("Scan parquet spark_catalog.db.t");
  b.op(scan).set_table("spark_catalog.db.t");
  b.op(scan).set_scan_format("parquet");
  b.names(scan, "Output", {"a#1", "s#2", "ts#3", "p#4"});
  b.field(scan, "Batched", "true");
  if (partitioned) b.expr_list(scan, "PartitionFilters", {fn("isnotnull", {attr("p", "4")})});
  if (!pushed.empty()) b.expr_list(scan, "PushedFilters", std::move(pushed));
  b.field(scan, "ReadSchema", "struct<a:int,s:string,ts:timestamp>");
  std::size_t c2r = b.add("ColumnarToRow", {scan});
  std::size_t filter = b.add("Filter", {c2r});
  b.condition(filter, std::move(cond));
  b.add("Project", {filter});
  return filter;
}

}  // namespace

TEST_CASE("filter-not-pushed-down: a simple conjunct missing from PushedFilters") {
  PlanBuilder b;
  scan_filter(b, {fn("IsNotNull", {attr("a")})},
              and_(fn("isnotnull", {attr("a", "1")}), bin("=", attr("a", "1"), lit("5"))));
  auto ds = only(lint(b), "filter-not-pushed-down");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == "PL001");
  CHECK(ds[0].operator_id == "3");
  CHECK(ds[0].message ==
        "Filter (3) evaluates `a#1 = 5` after Scan parquet spark_catalog.db.t (1) has read every row: the predicate "
        "is not in its pushed filters");
  CHECK(ds[0].evidence.at(0).value == "a#1 = 5");
  CHECK(!ds[0].fix.empty());
}

TEST_CASE("filter-not-pushed-down: near misses") {
  SUBCASE("pushed") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("a")}), fn("EqualTo", {attr("a"), lit("5")})},
                and_(fn("isnotnull", {attr("a", "1")}), bin("=", attr("a", "1"), lit("5"))));
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("literal on the left is flipped") {
    PlanBuilder b;
    scan_filter(b, {fn("GreaterThan", {attr("a"), lit("5")})}, bin("<", lit("5"), attr("a", "1")));
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("partition column") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("a")})}, bin("=", attr("p", "4"), lit("7")), true);
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("runtime filters") {
    PlanBuilder b;
    Expr dpp = fn("dynamicpruningexpression", {attr("a", "1")});
    Expr bloom = fn("might_contain", {lit("scalar-subquery#9"), fn("xxhash64", {attr("a", "1")})});
    scan_filter(b, {fn("IsNotNull", {attr("a")})}, and_(dpp, bloom));
    CHECK(lint(b).empty());
  }
  SUBCASE("function of the column belongs to non-sargable-predicate") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("ts")})}, bin("=", cast(attr("ts", "3"), "date"), lit("2024-03-01")));
    auto ds = lint(b);
    CHECK(only(ds, "filter-not-pushed-down").empty());
    CHECK(only(ds, "non-sargable-predicate").size() == 1);
  }
  SUBCASE("truncated list reports truncated-metadata instead") {
    PlanBuilder b;
    std::size_t f = scan_filter(b, {fn("IsNotNull", {attr("a")})}, bin("=", attr("a", "1"), lit("5")));
    b.op(0).fields[2].truncated = true;  // PushedFilters
    auto ds = lint(b);
    CHECK(only(ds, "filter-not-pushed-down").empty());
    auto t = only(ds, "truncated-metadata");
    REQUIRE(t.size() == 1);
    CHECK(t[0].severity == Severity::Info);
    CHECK(t[0].operator_id == "1");
    CHECK(t[0].message.find("PushedFilters") != std::string::npos);
    (void)f;
  }
}

TEST_CASE("filter-not-pushed-down: the pushed list and the scan's columns each clear a predicate, whichever is asked first") {
  SUBCASE("pushed, on a column the scan does not read: not reported") {
    PlanBuilder b;
    scan_filter(b, {fn("EqualTo", {attr("z"), lit("5")})}, bin("=", attr("z", "9"), lit("5")));
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("not pushed, on a column the scan does not read: not reported") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("a")})}, bin("=", attr("z", "9"), lit("5")));
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("pushed, on a partition column: not reported") {
    PlanBuilder b;
    scan_filter(b, {fn("EqualTo", {attr("p"), lit("7")})}, bin("=", attr("p", "4"), lit("7")), true);
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("an equality pushed as EqualNullSafe: not reported; another operator on the column: reported") {
    PlanBuilder b;
    scan_filter(b, {fn("EqualNullSafe", {attr("a"), lit("5")})}, bin("=", attr("a", "1"), lit("5")));
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
    PlanBuilder c;
    scan_filter(c, {fn("GreaterThan", {attr("a"), lit("5")})}, bin("=", attr("a", "1"), lit("5")));
    const auto ds = only(lint(c), "filter-not-pushed-down");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].evidence.at(0).value == "a#1 = 5");
  }
}

TEST_CASE("truncated-metadata: only a cut field that a rule needs, cut as a whole or in one expression") {
  SUBCASE("a cut Output list: no finding") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("a")})}, bin("=", attr("a", "1"), lit("5")));
    b.op(0).fields[0].truncated = true;  // Output
    CHECK(only(lint(b), "truncated-metadata").empty());
  }
  SUBCASE("one cut expression of the Filter's condition: reported") {
    PlanBuilder b;
    std::size_t f = scan_filter(b, {fn("IsNotNull", {attr("a")})}, bin("=", attr("a", "1"), lit("5")));
    Field* cond = nullptr;
    for (Field& x : b.op(f).fields)
      if (std::string_view(x.key) == "Condition") cond = &x;
    REQUIRE(cond != nullptr);
    REQUIRE(!cond->exprs.empty());
    CHECK_FALSE(static_cast<bool>(cond->truncated));
    cond->exprs[0].truncated = true;
    auto t = only(lint(b), "truncated-metadata");
    REQUIRE(t.size() == 1);
    CHECK(t[0].operator_id == "3");
  }
}

TEST_CASE("filter-not-pushed-down: a DSv2 BatchScan that prints no pushed list, in every format that stores the plan text") {
  // Live corpus pushdown_disabled_v2 (gap G7): parquet through DSv2 with filterPushdown=false. The
  // formatted mode drops the empty PushedFilters; the event log and the History Server answer hold
  // the same plan description, so the scan's ReadSchema tells "nothing pushed" there too.
  auto build = [](PlanBuilder& b, bool read_schema) {
    std::size_t scan = b.add("BatchScan parquet file:/data/events");
    b.op(scan).set_scan_format("parquet");
    b.names(scan, "Output", {"x#10L", "v#11"});
    b.expr_list(scan, "DataFilters", {fn("isnotnull", {attr("x", "10L")}), bin("=", attr("x", "10L"), lit("42"))});
    if (read_schema) b.field(scan, "ReadSchema", "struct<x:bigint,v:double>");
    std::size_t c2r = b.add("ColumnarToRow", {scan});
    std::size_t filter = b.add("Filter", {c2r});
    b.condition(filter, and_(fn("isnotnull", {attr("x", "10L")}), bin("=", attr("x", "10L"), lit("42"))));
    b.add("Project", {filter});
  };
  for (InputFormat f : {InputFormat::ExplainFormatted, InputFormat::EventLog, InputFormat::HistoryServer}) {
    CAPTURE(to_string(f));
    PlanBuilder b(f);
    build(b, true);
    auto ds = only(lint(b), "filter-not-pushed-down");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].operator_id == "3");
    CHECK(ds[0].message.find("the scan has no pushed filters") != std::string::npos);
  }
  SUBCASE("no ReadSchema: an absent list cannot be told from an empty one") {
    PlanBuilder b(InputFormat::EventLog);
    build(b, false);
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
  SUBCASE("a Query Profile never says nothing was pushed by leaving FILTERS out") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, true);
    CHECK(only(lint(b), "filter-not-pushed-down").empty());
  }
}

namespace {

// SMJ over two AQE shuffle stages; returns the join.
std::size_t aqe_smj(PlanBuilder& b, double left_bytes, double right_bytes, JoinType t = JoinType::Inner) {
  std::size_t ls = b.add("Scan parquet spark_catalog.db.fact");
  b.op(ls).set_table("spark_catalog.db.fact");
  std::size_t lx = b.add("Exchange", {ls});
  std::size_t lq = b.add("ShuffleQueryStage", {lx});
  b.op(lq).edit_runtime().stats.edit().size_bytes = left_bytes;
  std::size_t lr = b.add("AQEShuffleRead", {lq});
  std::size_t lsort = b.add("Sort", {lr});
  std::size_t rs = b.add("Scan parquet spark_catalog.db.dim");
  b.op(rs).set_table("spark_catalog.db.dim");
  std::size_t rx = b.add("Exchange", {rs});
  std::size_t rq = b.add("ShuffleQueryStage", {rx});
  b.op(rq).edit_runtime().stats.edit().size_bytes = right_bytes;
  b.op(rq).edit_runtime().stats.edit().row_count = 41000;
  std::size_t rr = b.add("AQEShuffleRead", {rq});
  std::size_t rsort = b.add("Sort", {rr});
  std::size_t j = b.add("SortMergeJoin", {lsort, rsort});
  b.join(j, t);
  for (auto& op : b.plan.ops) op.section = Section::AqeFinal;
  return j;
}

}  // namespace

TEST_CASE("shuffle-join-could-broadcast") {
  SUBCASE("small right side") {
    PlanBuilder b;
    aqe_smj(b, 48 * kGiB, 3.2 * kMiB);
    auto ds = only(lint(b), "shuffle-join-could-broadcast");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message ==
          "SortMergeJoin (11) shuffles and sorts both sides although the right side is 3.2 MiB (ShuffleQueryStage (8), "
          "below the 10.0 MiB broadcast threshold) and the other side is 48.0 GiB");
    CHECK(ds[0].impact_unit == "bytes");
    CHECK(*ds[0].impact == doctest::Approx(48 * kGiB));
    CHECK(ds[0].fix.find("BROADCAST(spark_catalog.db.dim)") != std::string::npos);
  }
  SUBCASE("the only small side cannot be broadcast (left of a LeftOuter)") {
    PlanBuilder b;
    aqe_smj(b, 2 * kMiB, 48 * kGiB, JoinType::LeftOuter);
    CHECK(only(lint(b), "shuffle-join-could-broadcast").empty());
  }
  SUBCASE("full outer never") {
    PlanBuilder b;
    aqe_smj(b, 2 * kMiB, 1 * kMiB, JoinType::FullOuter);
    CHECK(only(lint(b), "shuffle-join-could-broadcast").empty());
  }
  SUBCASE("above the threshold") {
    PlanBuilder b;
    aqe_smj(b, 48 * kGiB, 12 * kMiB);
    CHECK(only(lint(b), "shuffle-join-could-broadcast").empty());
  }
  SUBCASE("configured threshold") {
    PlanBuilder b;
    aqe_smj(b, 48 * kGiB, 3.2 * kMiB);
    Config c;
    c.global_thresholds["broadcast-threshold"] = 1 * kMiB;
    CHECK(only(lint(b, c), "shuffle-join-could-broadcast").empty());
  }
  SUBCASE("no size evidence") {
    PlanBuilder b;
    std::size_t j = aqe_smj(b, 48 * kGiB, 3.2 * kMiB);
    for (auto& op : b.plan.ops) op.edit_runtime().stats.reset();
    (void)j;
    CHECK(lint(b).empty());
  }
  SUBCASE("a SHUFFLE_HASH hint in the SQL text forced it") {
    PlanBuilder b(InputFormat::QueryProfile);
    aqe_smj(b, 48 * kGiB, 3.2 * kMiB);
    b.plan.query.sql_text = "SELECT /*+ SHUFFLE_HASH(dim) */ * FROM fact JOIN dim USING (k)";
    auto ds = only(lint(b), "shuffle-join-could-broadcast");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("the SHUFFLE_HASH(dim) hint in the SQL text forces the shuffle") != std::string::npos);
    CHECK(ds[0].fix.rfind("Remove the SHUFFLE_HASH(dim) hint", 0) == 0);
  }
}

TEST_CASE("shuffle-join-could-broadcast: a side is sized as Spark sizes it, by the uncompressed data size") {
  // Live corpus large_sides_no_broadcast (gap G6): in an event log the AQEShuffleRead's "partition
  // data size" counts the compressed shuffle bytes (7.7 MiB); Spark compares the query stage's
  // sizeInBytes, the exchange's "data size" (22.9 MiB), with the threshold.
  auto build = [](PlanBuilder& b, double stage_bytes, double read_bytes, bool stats) {
    std::size_t j = aqe_smj(b, 34.3 * kMiB, stage_bytes);
    for (auto& op : b.plan.ops) {
      if (op.kind == OpKind::QueryStage && !stats) op.edit_runtime().stats.reset();
      if (op.kind == OpKind::Exchange)
        b.metric(op.index, "Data size", op.index < 5 ? 34.3 * kMiB : stage_bytes, MetricUnit::Bytes);
      if (op.kind == OpKind::ShuffleRead)
        b.metric(op.index, "Partition data size", op.index < 5 ? 11.6 * kMiB : read_bytes, MetricUnit::Bytes);
    }
    return j;
  };
  for (bool stats : {true, false}) {
    CAPTURE(stats);
    {  // compressed bytes under the threshold, data size above: silent
      PlanBuilder b(InputFormat::EventLog);
      build(b, 22.9 * kMiB, 7.7 * kMiB, stats);
      CHECK(only(lint(b), "shuffle-join-could-broadcast").empty());
    }
    {  // data size under the threshold: fires, sized by the stage or else the exchange
      PlanBuilder b(InputFormat::EventLog);
      build(b, 3.2 * kMiB, 1.1 * kMiB, stats);
      auto ds = only(lint(b), "shuffle-join-could-broadcast");
      REQUIRE(ds.size() == 1);
      CHECK(ds[0].message.find("the right side is 3.2 MiB (" + std::string(stats ? "ShuffleQueryStage (8)" : "Exchange (7)")) !=
            std::string::npos);
    }
  }
  SUBCASE("only the read's own size: it is used") {
    PlanBuilder b(InputFormat::EventLog);
    aqe_smj(b, 48 * kGiB, 3.2 * kMiB);
    for (auto& op : b.plan.ops) {
      op.edit_runtime().stats.reset();
      if (op.kind == OpKind::ShuffleRead) b.metric(op.index, "Partition data size", op.index < 5 ? 48 * kGiB : 2 * kMiB, MetricUnit::Bytes);
    }
    auto ds = only(lint(b), "shuffle-join-could-broadcast");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("the right side is 2.0 MiB (AQEShuffleRead (9)") != std::string::npos);
  }
}

TEST_CASE("skew-not-handled") {
  auto build = [](PlanBuilder& b, double ratio, bool skew_flag) {
    std::size_t ls = b.add("Scan parquet db.fact");
    std::size_t lx = b.add("PhotonShuffleExchangeSink", {ls});
    b.metric(lx, "MapStage - Skew max to non-empty median ratio", ratio);
    b.metric(lx, "Sink - Num bytes written", 40 * kGiB, MetricUnit::Bytes);
    std::size_t rs = b.add("Scan parquet db.dim");
    std::size_t rx = b.add("PhotonShuffleExchangeSink", {rs});
    b.metric(rx, "Sink - Num bytes written", 30 * kGiB, MetricUnit::Bytes);
    std::size_t j = b.add("PhotonShuffledHashJoin", {lx, rx});
    b.join(j, JoinType::Inner, BuildSide::Right);
    b.op(j).join.edit().skew = skew_flag;
    b.op(j).edit_runtime().duration_ms = 600000;
    return j;
  };
  SUBCASE("ratio above the factor") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 48, false);
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message ==
          "PhotonShuffledHashJoin (5) ran without AQE skew handling although its left input is skewed: the largest "
          "shuffle partition of PhotonShuffleExchangeSink (2) is 48.0× the median");
    CHECK(ds[0].fix.find("(1) filter out or pre-aggregate the hot key") != std::string::npos);
  }
  SUBCASE("handled") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 48, true);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("skewed partition counters mean AQE handled it") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 48, false);
    b.metric(1, "AQEShuffleRead - Number of skewed partitions", 5);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("ratio below the factor") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 3, false);
    CHECK(only(lint(b), "skew-not-handled").empty());
  }
  SUBCASE("task-time spread of the join stage") {
    PlanBuilder b(InputFormat::EventLog);
    std::size_t j = build(b, 1, false);
    b.op(j).edit_runtime().extra.edit().spark_stages = {7};
    StageInfo st;
    st.id = "7";
    st.num_tasks = 200;
    st.task_ms_max = 180000;
    st.task_ms_median = 4000;
    b.plan.stages.push_back(st);
    auto ds = only(lint(b), "skew-not-handled");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("the slowest task took 3 min 0 s, 45.0× the median task (4.0 s)") != std::string::npos);
    CHECK(ds[0].impact_unit == "ms");
    CHECK(*ds[0].impact == doctest::Approx(176000));
  }
}

TEST_CASE("stale-broadcast-hint and oversized-broadcast") {
  auto build = [](PlanBuilder& b, double bytes) {
    std::size_t l = b.add("Scan parquet spark_catalog.db.orders");
    std::size_t r = b.add("Scan parquet spark_catalog.db.customers");
    b.op(r).set_table("spark_catalog.db.customers");
    std::size_t bx = b.add("BroadcastExchange", {r});
    std::size_t bq = b.add("BroadcastQueryStage", {bx});
    b.op(bq).edit_runtime().stats.edit().size_bytes = bytes;
    std::size_t j = b.add("BroadcastHashJoin", {l, bq});
    b.join(j, JoinType::Inner, BuildSide::Right);
    return j;
  };
  SUBCASE("hinted and huge") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 2.4 * kGiB);
    b.plan.query.sql_text = "SELECT /*+ BROADCAST(customers) */ * FROM orders o JOIN customers c ON o.c = c.id";
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "stale-broadcast-hint");
    CHECK(ds[0].message ==
          "BroadcastHashJoin (5) broadcasts the right side although it is 2.4 GiB (BroadcastQueryStage (4)), 246× the "
          "10.0 MiB broadcast threshold: the BROADCAST(customers) hint in the SQL text forces it");
  }
  SUBCASE("hinted, 10x over the threshold") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 500 * kMiB);
    b.plan.query.sql_text = "SELECT /*+ MAPJOIN(customers) */ * FROM orders o JOIN customers c ON o.c = c.id";
    CHECK(only(lint(b), "stale-broadcast-hint").size() == 1);
  }
  SUBCASE("hinted, a reasonable size") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 50 * kMiB);
    b.plan.query.sql_text = "SELECT /*+ BROADCAST(customers) */ * FROM orders o JOIN customers c ON o.c = c.id";
    CHECK(lint(b).empty());
  }
  SUBCASE("hint on another table") {
    PlanBuilder b(InputFormat::QueryProfile);
    build(b, 500 * kMiB);
    b.plan.query.sql_text = "SELECT /*+ BROADCAST(regions) */ * FROM orders o JOIN customers c ON o.c = c.id";
    CHECK(lint(b).empty());
  }
  SUBCASE("no hint, oversized") {
    PlanBuilder b;
    build(b, 2.4 * kGiB);
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "oversized-broadcast");
    CHECK(ds[0].code == "PL010");
    Config c;
    c.ignore.insert("oversized-broadcast");
    CHECK(lint(b, c).empty());
    // One name per code: its own code selects and ignores it; the hint rule's code does neither.
    Config by_code;
    by_code.ignore.insert("PL010");
    CHECK(lint(b, by_code).empty());
    Config other;
    other.select.insert("PL004");
    CHECK(lint(b, other).empty());
    Config own;
    own.select.insert("PL010");
    CHECK(lint(b, own).size() == 1);
  }
}

TEST_CASE("exploding-join and cartesian-product") {
  SUBCASE("runtime rows") {
    PlanBuilder b(InputFormat::QueryProfile);
    std::size_t l = b.add("Scan parquet db.orders");
    b.op(l).edit_runtime().rows = 2e6;
    std::size_t r = b.add("Scan parquet db.payments");
    b.op(r).edit_runtime().rows = 3e6;
    std::size_t j = b.add("SortMergeJoin", {l, r});
    b.join(j, JoinType::Inner);
    b.op(j).edit_runtime().rows = 8.4e8;
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "exploding-join");
    CHECK(ds[0].message ==
          "SortMergeJoin (3) returns 840,000,000 rows from 2,000,000 + 3,000,000 input rows (168× its inputs)");
    b.op(j).edit_runtime().rows = 9e6;  // < 2x
    CHECK(lint(b).empty());
  }
  SUBCASE("below the minimum rows") {
    PlanBuilder b(InputFormat::QueryProfile);
    std::size_t l = b.add("Scan parquet db.a");
    b.op(l).edit_runtime().rows = 100;
    std::size_t r = b.add("Scan parquet db.b");
    b.op(r).edit_runtime().rows = 100;
    std::size_t j = b.add("SortMergeJoin", {l, r});
    b.join(j, JoinType::Inner);
    b.op(j).edit_runtime().rows = 900000;
    CHECK(lint(b).empty());
  }
  SUBCASE("cartesian product without condition") {
    PlanBuilder b;
    std::size_t l = b.add("Scan parquet db.a");
    std::size_t r = b.add("Scan parquet db.b");
    std::size_t j = b.add("CartesianProduct", {l, r});
    b.join(j, JoinType::Inner);
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "cartesian-product");
  }
  SUBCASE("cartesian product with a single-row side") {
    PlanBuilder b;
    std::size_t l = b.add("Scan parquet db.a");
    std::size_t r = b.add("Scan parquet db.b");
    std::size_t agg = b.add("HashAggregate", {r});
    b.field(agg, "Keys", "[]");
    std::size_t bx = b.add("BroadcastExchange", {agg});
    std::size_t j = b.add("BroadcastNestedLoopJoin", {l, bx});
    b.join(j, JoinType::Inner, BuildSide::Right);
    CHECK(lint(b).empty());
  }
  SUBCASE("nested loop join with a condition") {
    PlanBuilder b;
    std::size_t l = b.add("Scan parquet db.a");
    std::size_t r = b.add("Scan parquet db.b");
    std::size_t j = b.add("BroadcastNestedLoopJoin", {l, r});
    b.join(j, JoinType::Inner, BuildSide::Right);
    b.join_condition(j, bin("<", attr("x", "1"), attr("y", "2")));
    CHECK(lint(b).empty());
  }
  SUBCASE("semi join never multiplies") {
    PlanBuilder b;
    std::size_t l = b.add("Scan parquet db.a");
    std::size_t r = b.add("Scan parquet db.b");
    std::size_t j = b.add("BroadcastNestedLoopJoin", {l, r});
    b.join(j, JoinType::LeftSemi, BuildSide::Right);
    CHECK(lint(b).empty());
  }
}

TEST_CASE("non-sargable-predicate") {
  SUBCASE("cast to date gets a timestamp range") {
    PlanBuilder b;
    scan_filter(b, {fn("IsNotNull", {attr("ts")})},
                and_(fn("isnotnull", {attr("ts", "3")}), bin("=", cast(attr("ts", "3"), "date"), lit("2024-02-29"))));
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "non-sargable-predicate");
    CHECK(ds[0].message ==
          "Filter (3) evaluates `cast(ts#3 as date) = 2024-02-29` on Scan parquet spark_catalog.db.t (1): `cast(ts#3 as "
          "date)` wraps ts and hides the column from min/max statistics, so the predicate cannot skip files or row groups");
    CHECK(ds[0].fix ==
          "Rewrite the predicate on the bare column: ts >= TIMESTAMP '2024-02-29 00:00:00' AND ts < TIMESTAMP "
          "'2024-03-01 00:00:00'.");
  }
  SUBCASE("year()") {
    PlanBuilder b;
    scan_filter(b, {}, bin(">=", fn("year", {attr("ts", "3")}), lit("2024")));
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].fix == "Rewrite the predicate on the bare column: ts >= DATE '2024-01-01'.");
  }
  SUBCASE("substr IN list") {
    PlanBuilder b;
    scan_filter(b, {}, in(fn("substr", {attr("s", "2"), lit("1"), lit("5")}), {lit("85669"), lit("86197")}));
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].evidence[0].name == "wrapped expression");
    CHECK(ds[0].evidence[0].value == "substr(s#2, 1, 5)");
    CHECK(ds[0].evidence[1].value == "substr(s#2, 1, 5) IN (85669, 86197)");
  }
  SUBCASE("a runtime filter in the wrapped call or under a negation: not reported; the negated wrapped column: reported") {
    PlanBuilder b;
    scan_filter(b, {}, bin(">=", fn("year", {fn("might_contain", {lit("x"), attr("ts", "3")})}), lit("2024")));
    CHECK(only(lint(b), "non-sargable-predicate").empty());
    PlanBuilder c;
    scan_filter(c, {}, bin(">=", fn("year", {fn("dynamicpruningexpression", {attr("ts", "3")})}), lit("2024")));
    CHECK(only(lint(c), "non-sargable-predicate").empty());
    Expr negated;
    negated.kind = ExprKind::Unary;
    negated.name = "NOT";
    negated.args.push_back(bin(">=", fn("year", {fn("might_contain", {lit("x"), attr("ts", "3")})}), lit("2024")));
    PlanBuilder d;
    scan_filter(d, {}, negated);
    CHECK(only(lint(d), "non-sargable-predicate").empty());
    negated.args[0] = bin(">=", fn("year", {attr("ts", "3")}), lit("2024"));
    PlanBuilder e;
    scan_filter(e, {}, negated);
    CHECK(only(lint(e), "non-sargable-predicate").size() == 1);
  }
  SUBCASE("partition column") {
    PlanBuilder b;
    scan_filter(b, {}, bin("=", fn("year", {attr("p", "4")}), lit("2024")), true);
    CHECK(lint(b).empty());
  }
  SUBCASE("not directly above a scan") {
    PlanBuilder b;
    std::size_t l = b.add("Scan parquet db.a");
    std::size_t r = b.add("Scan parquet db.b");
    std::size_t j = b.add("SortMergeJoin", {l, r});
    b.join(j, JoinType::Inner);
    std::size_t f = b.add("Filter", {j});
    b.condition(f, bin("=", cast(attr("ts", "3"), "date"), lit("2024-02-29")));
    CHECK(lint(b).empty());
  }
  SUBCASE("Photon DataFilters on the scan, reported once") {
    PlanBuilder b;
    std::size_t s = b.add("PhotonScan parquet db.t");
    b.names(s, "Output", {"ts#3"});
    b.expr_list(s, "DataFilters", {bin("=", fn("to_date", {attr("ts", "3")}), lit("2024-01-31"))});
    b.field(s, "ReadSchema", "struct<ts:timestamp>");
    std::size_t f = b.add("PhotonFilter", {s});
    b.condition(f, bin("=", fn("to_date", {attr("ts", "3")}), lit("2024-01-31")));
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].operator_id == "2");
    CHECK(ds[0].fix.find("ts < TIMESTAMP '2024-02-01 00:00:00'") != std::string::npos);
  }
}

TEST_CASE("native-engine-fallback (formerly photon-fallback)") {
  SUBCASE("JVM region between Photon operators") {
    PlanBuilder b;
    std::size_t s = b.add("PhotonScan parquet db.customers");
    std::size_t c2r = b.add("ColumnarToRow", {s});
    std::size_t p = b.add("Project", {c2r});
    b.expr_list(p, "Output", {fn("UDF", {attr("name", "2964")})});
    std::size_t agg = b.add("HashAggregate", {p});
    std::size_t r2c = b.add("PhotonRowToColumnar", {agg});
    std::size_t top = b.add("PhotonProject", {r2c});
    b.add("PhotonResultStage", {top});
    b.plan.photon.present = true;
    b.plan.photon.reasons = {"UDF(name#2964) is not supported: The expression `scalaudf` is currently unimplemented."};
    b.plan.photon.reference_nodes = {"Project [UDF(name#2964) AS UDF(name)#2989]"};
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "native-engine-fallback");
    CHECK(ds[0].operator_id == "3");
    CHECK(ds[0].message ==
          "Project (3) runs on the JVM engine, not in Photon: it reads Photon output through ColumnarToRow (2); 2 "
          "operators run on the JVM in this part of the plan");
    bool has_expl = false;
    for (const auto& e : ds[0].evidence) has_expl = has_expl || e.name == "Photon Explanation";
    CHECK(has_expl);
    CHECK(ds[0].fix.rfind("Replace the UDF", 0) == 0);
  }
  SUBCASE("final ColumnarToRow, AQE wrappers and a result limit are not fallback") {
    PlanBuilder b;
    std::size_t s = b.add("PhotonScan parquet db.t");
    std::size_t p = b.add("PhotonProject", {s});
    std::size_t rs = b.add("PhotonResultStage", {p});
    std::size_t c2r = b.add("ColumnarToRow", {rs});
    std::size_t lim = b.add("CollectLimit", {c2r});
    b.add("AdaptiveSparkPlan", {lim});
    CHECK(lint(b).empty());
  }
  SUBCASE("Gluten: vanilla operator between Transformers") {
    PlanBuilder b;
    std::size_t s = b.add("FileSourceScanExecTransformer parquet db.t");
    std::size_t c2r = b.add("VeloxColumnarToRowExec", {s});
    std::size_t p = b.add("Project", {c2r});
    std::size_t r2c = b.add("RowToVeloxColumnar", {p});
    b.add("ProjectExecTransformer", {r2c});
    auto ds = lint(b);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("runs on vanilla Spark (JVM), not in Gluten/Velox") != std::string::npos);
  }
  SUBCASE("Photon Explanation alone") {
    PlanBuilder b(InputFormat::PhotonExplanation);
    b.add("Project");
    b.plan.ops.clear();
    b.plan.photon.present = true;
    b.plan.photon.loc.line = 2;
    b.plan.photon.reasons = {"UDF(name#2964) is not supported"};
    b.plan.photon.reference_nodes = {"Project [UDF(name#2964) AS UDF(name)#2989]"};
    ParseResult pr;
    pr.plans.push_back(b.plan);
    Config c;
    c.select.insert("photon-fallback");  // the former name still selects the rule
    auto ds = run_rules(pr, c);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].range.line == 2);
    CHECK(!ds[0].op);
    CHECK(ds[0].message ==
          "Photon does not fully support the query: UDF(name#2964) is not supported (reference node: Project "
          "[UDF(name#2964) AS UDF(name)#2989])");
  }
}

TEST_CASE("rule registry: names, codes, docs") {
  std::set<std::string> names, codes;
  for (const auto& r : all_rules()) {
    const RuleDoc& d = r->doc();
    CHECK(names.insert(d.name).second);
    CHECK(codes.insert(d.code).second);
    CHECK(!d.summary.empty());
    CHECK(!d.what.empty());
    CHECK(!d.why.empty());
    CHECK(!d.example.empty());
    CHECK(!d.use_instead.empty());
    CHECK(!d.evidence.empty());
    for (const auto& t : d.thresholds) CHECK(!t.description.empty());
  }
  for (const char* n : {"filter-not-pushed-down", "shuffle-join-could-broadcast", "skew-not-handled",
                        "stale-broadcast-hint", "exploding-join", "non-sargable-predicate", "native-engine-fallback",
                        "truncated-metadata"})
    CHECK(names.count(n) == 1);
  CHECK(find_rule("PL010") == find_rule("oversized-broadcast"));
  CHECK(find_rule("PL009") == find_rule("cartesian-product"));
  CHECK(find_rule("PL010")->doc().code_of("oversized-broadcast") == "PL010");
  CHECK(find_rule("PL004")->doc().code_of("stale-broadcast-hint") == "PL004");
  CHECK(find_rule("cartesian-product")->doc().name == "exploding-join");
  CHECK(find_rule("nope") == nullptr);
  // A renamed rule: its former name finds it, and is not a name of its own.
  CHECK(find_rule("photon-fallback") == find_rule("native-engine-fallback"));
  CHECK(find_rule("PL007") == find_rule("native-engine-fallback"));
  CHECK(names.count("photon-fallback") == 0);
}

TEST_CASE("order_by_impact") {
  std::vector<Diagnostic> ds(4);
  ds[0].message = "none";
  ds[1].impact = 10;
  ds[1].impact_unit = "rows";
  ds[2].impact = 5;
  ds[2].impact_unit = "ms";
  ds[3].impact = 50;
  ds[3].impact_unit = "ms";
  order_by_impact(ds);
  CHECK(*ds[0].impact == 50);
  CHECK(*ds[1].impact == 5);
  CHECK(ds[2].impact_unit == "rows");
  CHECK(ds[3].message == "none");
}
