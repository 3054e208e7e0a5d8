// The explain-text reader builds the right model: AQE sections merged by id, reuse links (also
// forward), subqueries, unknown ids, list counts, truncation, join facts, default / extended /
// cost modes, and source locations in the ORIGINAL text after paste-damage repair.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "parser/explain/edge_set.hpp"
#include "parser/explain/explain_ops.hpp"
#include "parser/explain/operator_ids.hpp"
#include "parser/explain/explain.hpp"

using namespace planlint;

namespace {

ParseResult parse_plan(const std::string& text) { return parse_explain_text(text, "t.txt"); }

const Operator& op_by_id(const Plan& p, const char* id) {
  const Operator* o = p.find_id(id);
  REQUIRE_MESSAGE(o != nullptr, "operator " << id);
  return *o;
}

const char* kAqe = R"(== Physical Plan ==
AdaptiveSparkPlan (11)
+- == Final Plan ==
   ResultQueryStage (8), Statistics(sizeInBytes=8.0 EiB)
   +- * HashAggregate (7)
      +- AQEShuffleRead (6)
         +- ShuffleQueryStage (5), Statistics(sizeInBytes=240.0 B, rowCount=10)
            +- Exchange (4)
               +- * HashAggregate (3)
                  +- * Project (2)
                     +- * Range (1)
+- == Initial Plan ==
   HashAggregate (10)
   +- Exchange (9)
      +- HashAggregate (3)
         +- Project (2)
            +- Range (1)


(1) Range [codegen id : 1]
Output [1]: [id#0L]
Arguments: Range (0, 100, step=1, splits=Some(4))

(2) Project [codegen id : 1]
Output [1]: [(id#0L % 10) AS k#2L]
Input [1]: [id#0L]

(3) HashAggregate [codegen id : 1]
Input [1]: [k#2L]
Keys [1]: [k#2L]
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#9L]
Results [2]: [k#2L, count#10L]

(4) Exchange
Input [2]: [k#2L, count#10L]
Arguments: hashpartitioning(k#2L, 200), ENSURE_REQUIREMENTS, [plan_id=31]

(5) ShuffleQueryStage
Output [2]: [k#2L, count#10L]
Arguments: 0

(6) AQEShuffleRead
Input [2]: [k#2L, count#10L]
Arguments: coalesced

(7) HashAggregate [codegen id : 2]
Input [2]: [k#2L, count#10L]
Keys [1]: [k#2L]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#5L]
Results [2]: [k#2L, count(1)#5L AS count#6L]

(8) ResultQueryStage
Output [2]: [k#2L, count#6L]
Arguments: 1

(9) Exchange
Input [2]: [k#2L, count#10L]
Arguments: hashpartitioning(k#2L, 200), ENSURE_REQUIREMENTS, [plan_id=20]

(10) HashAggregate
Input [2]: [k#2L, count#10L]
Keys [1]: [k#2L]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#5L]
Results [2]: [k#2L, count(1)#5L AS count#6L]

(11) AdaptiveSparkPlan
Output [2]: [k#2L, count#6L]
Arguments: isFinalPlan=true

)";

}  // namespace

TEST_CASE("formatted AQE: Final and Initial sections form one DAG, shared nodes merged by id") {
  auto r = parse_plan(kAqe);
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  CHECK(p.format == InputFormat::ExplainFormatted);
  CHECK(p.ops.size() == 11);
  CHECK(p.adaptive);
  CHECK(p.is_final_plan == true);
  const Operator& root = op_by_id(p, "11");
  REQUIRE(p.roots.size() == 1);
  CHECK(p.roots[0] == root.index);
  REQUIRE(root.children.size() == 2);
  CHECK(p.ops[root.children[0]].id == "8");
  CHECK(p.ops[root.children[1]].id == "10");
  const Operator& stage = op_by_id(p, "8");
  CHECK(stage.kind == OpKind::QueryStage);
  CHECK(stage.section == Section::AqeFinal);
  CHECK(stage.stats()->size_bytes == doctest::Approx(8.0 * 1152921504606846976.0));
  const Operator& sqs = op_by_id(p, "5");
  CHECK(sqs.stats()->row_count == doctest::Approx(10));
  CHECK(sqs.stats()->size_bytes == doctest::Approx(240));
  // HashAggregate (3) is shared: one operator with two consumers (Exchange 4 and Exchange 9).
  const Operator& agg = op_by_id(p, "3");
  CHECK(agg.codegen);
  CHECK(agg.codegen_stage == 1);
  CHECK(agg.section == Section::AqeFinal);
  CHECK(agg.parents.size() == 2);
  CHECK(op_by_id(p, "10").section == Section::AqeInitial);
  // Detail fields are attached, with counts checked.
  const Field* keys = agg.field("Keys");
  REQUIRE(keys);
  CHECK(keys->count == 1u);
  CHECK(keys->item_spans.size() == 1);
  CHECK_FALSE(keys->count_mismatch);
  CHECK(op_by_id(p, "4").arguments == "hashpartitioning(k#2L, 200), ENSURE_REQUIREMENTS, [plan_id=31]");
  // Locations: outline line of (7) and its detail block header.
  const Operator& final_agg = op_by_id(p, "7");
  CHECK(final_agg.loc.line == 5);
  CHECK(final_agg.loc.column == 7);
  CHECK(final_agg.detail_loc.line == 47);
}

TEST_CASE("formatted: reuse links, forward references, unknown ids") {
  auto r = parse_plan(R"(== Physical Plan ==
SortMergeJoin Inner (3)
:- ReusedExchange (1)
+- ReusedExchange (2)
   +- Project (unknown)
      +- Project (unknown)


(1) ReusedExchange [Reuses operator id: 5]
Output [1]: [v#3L]

(2) ReusedExchange [Reuses operator id: unknown]
Output [1]: [v#4L]

(3) SortMergeJoin
Left keys [1]: [v#3L]
Right keys [1]: [v#4L]
Join type: Inner
Join condition: None

===== Adaptively Optimized Out Exchanges =====

Subplan:1
Exchange (5)
+- Range (4)


(4) Range
Output [1]: [v#1L]

(5) Exchange
Input [1]: [v#1L]
Arguments: RoundRobinPartitioning(4), ENSURE_REQUIREMENTS, [plan_id=9]
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  CHECK(p.ops.size() == 7);
  const Operator& re1 = op_by_id(p, "1");
  REQUIRE(re1.reuses);
  CHECK(p.ops[*re1.reuses].id == "5");
  CHECK(p.ops[*re1.reuses].section == Section::OptimizedOut);
  CHECK_FALSE(op_by_id(p, "2").reuses);
  int unknown = 0;
  for (const auto& o : p.ops) unknown += o.id.empty() ? 1 : 0;
  CHECK(unknown == 2);
  const Operator& smj = op_by_id(p, "3");
  CHECK(smj.join->type == JoinType::Inner);
  CHECK(smj.join->strategy == JoinStrategy::SortMerge);
  CHECK(smj.left_keys().size() == 1);
  CHECK(smj.left_keys()[0].text == "v#3L");
  CHECK_FALSE(smj.join_condition());
}

TEST_CASE("formatted: join labels, list counts, truncation, multi-line values, masked locations") {
  auto r = parse_plan(R"(== Physical Plan ==
BroadcastNestedLoopJoin LeftAnti BuildRight (5)
:- ShuffledHashJoin(skew=true) Inner BuildLeft (3)
:  :- Scan JDBCRelation(sales.orders) [numPartitions=4] (1)
:  +- Scan parquet  (2)
+- BroadcastHashJoin ExistenceJoin(exists#12) BuildRight (4)


(1) Scan JDBCRelation(sales.orders) [numPartitions=4]
Output [3]: [a#1, b#2]
PushedFilters: [*IsNotNull(a), *GreaterThan(a,5)]
ReadSchema: struct<a:int,b:string>

(2) Scan parquet
Output [1]: [c#3]
Location [not included in comparison]/{warehouse_dir}/t]
PushedJoins:
  [L]: Relation: t1
  [R]: Relation: t2

ReadSchema: struct<c:int>

(3) ShuffledHashJoin
Left keys [1]: [a#1]
Right keys [1]: [c#3]
Join condition: (concat(b#2, x
y) = z)

(4) BroadcastHashJoin
Arguments: [a#1, b#2, c#3, d#4, e#5, f#6, g#7, h#8, i#9, j#10, k#11, l#12, m#13, n#14, o#15, p#16, q#17, r#18, s#19, t#20, u#21, v#22, w#23, x#24, y#25, ... 7 more fields]

(5) BroadcastNestedLoopJoin
Join type: LeftAnti
Join condition: None
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 5);
  // Explain text gives no runtime parts: no operator holds an OpRuntime block.
  for (const Operator& o : p.ops) CHECK_FALSE(o.has_runtime());
  const Operator& bnlj = op_by_id(p, "5");
  CHECK(bnlj.join->strategy == JoinStrategy::BroadcastNestedLoop);
  CHECK(bnlj.join->type == JoinType::LeftAnti);
  CHECK(bnlj.join->build == BuildSide::Right);
  const Operator& shj = op_by_id(p, "3");
  CHECK(shj.name == "ShuffledHashJoin");
  CHECK(shj.join->skew);
  CHECK(shj.join->build == BuildSide::Left);
  REQUIRE(shj.join_condition());
  CHECK(shj.join_condition()->text == "(concat(b#2, x\ny) = z)");
  CHECK(shj.field("Join condition")->loc.line == 26);
  CHECK(shj.field("Join condition")->loc.column == 1);  // a field keeps where it starts, not its end
  const Operator& ex = op_by_id(p, "4");
  CHECK(ex.join->type == JoinType::ExistenceJoin);
  CHECK(ex.join->type_text == "ExistenceJoin(exists#12)");
  CHECK(ex.field("Arguments")->truncated);
  const Operator& jdbc = op_by_id(p, "1");
  CHECK(jdbc.scan_format() == "jdbc");
  CHECK(jdbc.table() == "sales.orders");
  const Field* out = jdbc.field("Output");
  REQUIRE(out);
  CHECK(out->count_mismatch);
  CHECK(jdbc.field("PushedFilters")->item_spans.size() == 2);
  const Operator& path_scan = op_by_id(p, "2");
  CHECK(path_scan.scan_format() == "parquet");
  CHECK(path_scan.table().empty());
  REQUIRE(path_scan.field("Location"));
  CHECK(path_scan.field("PushedJoins")->value == "\n  [L]: Relation: t1\n  [R]: Relation: t2");
  CHECK(path_scan.field("ReadSchema")->value == "struct<c:int>");
}

TEST_CASE("formatted: an expression that does not parse after a value's line break: the message covers the field's lines") {
  // The field keeps only where it starts (Field::loc); the message takes the whole range from
  // the reader (finish_field's field_at), as it did when the field kept it.
  auto r = parse_plan(R"(== Physical Plan ==
* Filter (2)
+- * ColumnarToRow (1)

(1) ColumnarToRow [codegen id : 1]
Input [1]: [a#1]

(2) Filter [codegen id : 1]
Input [1]: [a#1]
Condition : (a#1 = 1) AND
((b#2 = 3)))
)");
  const Plan& p = r.plans.at(0);
  const Operator& filter = op_by_id(p, "2");
  const Field* cond = filter.field("Condition");
  REQUIRE(cond);
  CHECK(cond->loc.line == 10);
  CHECK(cond->loc.column == 1);
  REQUIRE(cond->exprs.size() == 1);
  CHECK_FALSE(cond->exprs[0].root);
  const ParseMessage* m = nullptr;
  for (const ParseMessage& x : r.messages)
    if (x.message.rfind("could not parse expression in 'Condition'", 0) == 0) m = &x;
  REQUIRE(m);
  CHECK(m->loc.line == 10);
  CHECK(m->loc.column == 1);
  CHECK(m->loc.end_line == 11);
  CHECK(m->loc.end_column == 13);  // one past the last byte of `((b#2 = 3)))`
}

TEST_CASE("formatted: a DSv2 scan's description line (Iceberg) is a field of its own, not part of Output") {
  // What Spark 3.5.9 with iceberg-spark-runtime-3.5_2.12:1.10.0 printed (corpus/live/3.5.9/iceberg_nonsargable_filter).
  auto r = parse_plan(R"(== Physical Plan ==
* Filter (2)
+- BatchScan lake.db.events (1)


(1) BatchScan lake.db.events
Output [2]: [name#19, v#20]
lake.db.events (branch=null) [filters=name IS NOT NULL, groupedBy=]

(2) Filter
Input [2]: [name#19, v#20]
Condition : (isnotnull(name#19) AND (upper(name#19) = N42))
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  const Operator& scan = op_by_id(p, "1");
  const Field* out = scan.field("Output");
  REQUIRE(out);
  CHECK(out->value == "[name#19, v#20]");
  CHECK_FALSE(out->count_mismatch);
  CHECK(out->item_spans.size() == 2);
  REQUIRE(scan.fields.size() == 3);
  CHECK(scan.fields[1].key.empty());
  CHECK(scan.fields[1].value == "lake.db.events (branch=null) [filters=name IS NOT NULL, groupedBy=]");
  REQUIRE(scan.scan);
  CHECK(scan.scan->source == ScanSource::Iceberg);
  // Iceberg's `[filters=...]` is the scan's list of accepted filters: a field of its own, parsed as SQL.
  const Field& filters = scan.fields[2];
  CHECK(filters.key == "filters");
  CHECK(filters.role == FieldRole::ScanFilters);
  CHECK(filters.value == "[name IS NOT NULL]");
  REQUIRE(filters.exprs.size() == 1);
  CHECK(filters.exprs[0].root.has_value());
  // A value that goes on after its first line is still one value (a literal with a newline).
  auto r2 = parse_plan(R"(== Physical Plan ==
Project (1)


(1) Project
Output [1]: [concat(a#1, x
y) AS b#2]
)");
  REQUIRE_FALSE(r2.has_errors());
  CHECK(op_by_id(r2.plans[0], "1").field("Output")->value == "[concat(a#1, x\ny) AS b#2]");
}

TEST_CASE("default mode: one-line arguments become the same fields as formatted mode") {
  auto r = parse_plan(R"(== Physical Plan ==
*(2) SortMergeJoin(skew=true) [k#2L], [k#7L], LeftOuter, (v#3 > 1)
:- *(1) Filter (isnotnull(k#2L) AND (k#2L > Subquery scalar-subquery#9, [id=#41]))
:  :  +- Subquery scalar-subquery#9, [id=#41]
:  :     +- LocalTableScan [m#10L]
:  +- FileScan parquet db.t[k#2L,v#3] Batched: true, DataFilters: [isnotnull(k#2L)], Format: Parquet, Location: InMemoryFileIndex(2 paths)[file:/a, file:/b], PartitionFilters: [], PushedFilters: [IsNotNull(k), GreaterThan(k,1), EqualTo(s,a,b), In(c, [1,2,3]), StringStartsWith(n,abcdefghij..., ReadSchema: struct<k:bigint,v:int>
+- ReusedExchange [k#7L], Exchange hashpartitioning(k#2L, 200), ENSURE_REQUIREMENTS, [plan_id=31]
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  CHECK(p.format == InputFormat::ExplainDefault);
  REQUIRE(p.ops.size() == 6);  // with the inline Subquery and its LocalTableScan
  const Operator& smj = p.ops[0];
  CHECK(smj.kind == OpKind::Join);
  CHECK(smj.join->skew);
  CHECK(smj.join->type == JoinType::LeftOuter);
  CHECK(smj.codegen_stage == 2);
  REQUIRE(smj.join_condition());
  CHECK(smj.join_condition()->text == "(v#3 > 1)");
  CHECK(smj.children.size() == 2);
  const Operator& filter = p.ops[1];
  CHECK(filter.field("Condition"));
  // The inline subquery is not a child of the filter: it is a subquery entry.
  REQUIRE(p.subqueries.size() == 1);
  CHECK(p.subqueries[0].hosting_op == filter.index);
  CHECK(filter.children.size() == 1);
  const Operator& scan = p.ops[filter.children[0]];
  CHECK(scan.name == "FileScan parquet db.t");
  CHECK(scan.table() == "db.t");
  CHECK(scan.scan_format() == "parquet");
  CHECK(scan.field("Output")->item_spans.size() == 2);
  const Field* pushed = scan.field("PushedFilters");
  REQUIRE(pushed);
  CHECK(pushed->truncated);
  CHECK(scan.field("ReadSchema")->value == "struct<k:bigint,v:int>");
  CHECK_FALSE(scan.field("Location")->truncated);
  CHECK(scan.field("Location")->loc.column > 100);
  const Operator& reused = p.ops[5];
  CHECK(reused.kind == OpKind::ReusedExchange);
  CHECK_FALSE(reused.reuses);  // the exchange it reuses is not printed in this plan
}

TEST_CASE("default mode: a `attr#id: boolean` filter condition is the attribute") {
  // Spark (2.x to 4.x) prints a bare-attribute argument by its simpleString, type included
  // (corpus/real/106, corpus/live/*/filter_python_udf: a filter on a Python UDF's result).
  auto r = parse_plan(R"(== Physical Plan ==
*(2) Filter pythonUDF0#81: boolean
+- BatchEvalPython [<lambda>(number#72L)], [number#72L, pythonUDF0#81]
   +- *(1) FileScan parquet [number#72L] Batched: true, Format: Parquet, Location: InMemoryFileIndex[hdfs://h/df.parquet], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<number:bigint>
)");
  REQUIRE_FALSE(r.has_errors());
  for (const auto& m : r.messages) CHECK_MESSAGE(m.message.find("could not parse") == std::string::npos, m.message);
  const Field* cond = r.plans.at(0).ops.at(0).field("Condition");
  REQUIRE(cond);
  CHECK(cond->value == "pythonUDF0#81");
  REQUIRE(cond->exprs.size() == 1);
  CHECK(cond->exprs[0].root);
  // Anything but a bare attribute with `: boolean` is left as printed for the expression reader.
  for (std::string_view other : {"(a#1 > 0): boolean", "pythonUDF0#81: int", "f(x#1): boolean", "x#1L: boolean"}) {
    auto o = parse_plan("== Physical Plan ==\nFilter " + std::string(other) + "\n+- LocalTableScan [a#1]\n");
    REQUIRE_FALSE(o.plans.empty());
    const Field* c = o.plans[0].ops.at(0).field("Condition");
    REQUIRE(c);
    CHECK(c->value == other);
  }
  // A join's condition (an Option of one attribute) is printed the same way.
  auto j = parse_plan(R"(== Physical Plan ==
BroadcastNestedLoopJoin BuildRight, Inner, flag#7: boolean
:- LocalTableScan [a#1, flag#7]
+- LocalTableScan [b#2]
)");
  REQUIRE_FALSE(j.plans.empty());
  const Field* jc = j.plans[0].ops.at(0).field("Join condition");
  REQUIRE(jc);
  CHECK(jc->value == "flag#7");
  REQUIRE(jc->exprs.size() == 1);
  CHECK(jc->exprs[0].root);
}

TEST_CASE("default mode: a relation's bracketed options belong to the scan's name, the next bracket is the output") {
  // Spark 3.5 / 4.x print a JDBC scan in one line as name, options, output, metadata (live corpus
  // jdbc_derby, gap G5); the formatted mode names it "Scan JDBCRelation(EVENTS) [numPartitions=1]".
  auto r = parse_plan(R"(== Physical Plan ==
*(1) Filter (upper(name#18) = N42)
+- *(1) Scan JDBCRelation(EVENTS) [numPartitions=1] [name#18,x#19] PushedFilters: [*IsNotNull(x), *EqualTo(x,42)], ReadSchema: struct<name:string,x:int>
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 2);
  const Operator& scan = p.ops[1];
  CHECK(scan.kind == OpKind::Scan);
  CHECK(scan.name == "Scan JDBCRelation(EVENTS) [numPartitions=1]");
  const Field* out = scan.field("Output");
  REQUIRE(out);
  CHECK(out->value == "[name#18,x#19]");
  REQUIRE(out->item_spans.size() == 2);
  CHECK(scan.field(FieldRole::PushedFilters));
  CHECK(scan.field("ReadSchema")->value == "struct<name:string,x:int>");

  // A bracket that holds attributes stays the output.
  auto rdd = parse_plan(R"(== Physical Plan ==
*(1) Scan ExistingRDD[a#1L,b#2]
)");
  REQUIRE_FALSE(rdd.has_errors());
  CHECK(rdd.plans[0].ops[0].name == "Scan ExistingRDD");
  REQUIRE(rdd.plans[0].ops[0].field("Output"));
  CHECK(rdd.plans[0].ops[0].field("Output")->value == "[a#1L,b#2]");
}

TEST_CASE("extended mode: four trees in one plan, hints on the join side") {
  auto r = parse_plan(R"(== Parsed Logical Plan ==
'Join Inner, ('a = 'b)
:- 'UnresolvedRelation [t1], [], false
+- 'UnresolvedHint broadcast, ['t2]
   +- 'UnresolvedRelation [t2], [], false

== Analyzed Logical Plan ==
a: int, b: int
Join Inner, (a#1 = b#2)
:- SubqueryAlias spark_catalog.default.t1
:  +- Relation spark_catalog.default.t1[a#1] parquet
+- ResolvedHint (strategy=broadcast)
   +- SubqueryAlias spark_catalog.default.t2
      +- Relation spark_catalog.default.t2[b#2] parquet

== Optimized Logical Plan ==
Join Inner, (a#1 = b#2), leftHint=(strategy=shuffle_hash), rightHint=(strategy=broadcast)
:- Relation spark_catalog.default.t1[a#1] parquet
+- Relation spark_catalog.default.t2[b#2] parquet

== Physical Plan ==
*(1) BroadcastHashJoin [a#1], [b#2], Inner, BuildRight, false
:- *(1) ColumnarToRow
:  +- FileScan parquet spark_catalog.default.t1[a#1] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/t1], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<a:int>
+- BroadcastExchange HashedRelationBroadcastMode(List(cast(input[0, int, false] as bigint)),false), [plan_id=20]
   +- *(1) ColumnarToRow
      +- FileScan parquet spark_catalog.default.t2[b#2] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/t2], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<b:int>
)");
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  CHECK(p.format == InputFormat::ExplainExtended);
  REQUIRE(p.logical_roots.size() == 3);
  REQUIRE(p.roots.size() == 1);
  const Operator& analyzed = p.ops[p.logical_roots[1]];
  CHECK(analyzed.section == Section::AnalyzedLogical);
  CHECK(analyzed.logical);
  REQUIRE(analyzed.hints()->size() == 1);
  CHECK(analyzed.hints()->at(0).strategy == "broadcast");
  CHECK(analyzed.hints()->at(0).side == BuildSide::Right);
  const Operator& optimized = p.ops[p.logical_roots[2]];
  REQUIRE(optimized.hints()->size() == 2);
  CHECK(optimized.hints()->at(0).strategy == "shuffle_hash");
  CHECK(optimized.hints()->at(0).side == BuildSide::Left);
  CHECK(optimized.hints()->at(1).side == BuildSide::Right);
  CHECK(optimized.join->type == JoinType::Inner);
  CHECK(p.ops[optimized.children[0]].table() == "spark_catalog.default.t1");
  const Operator& bhj = p.ops[p.roots[0]];
  CHECK(bhj.kind == OpKind::Join);
  CHECK_FALSE(bhj.logical);
  CHECK(bhj.join->build == BuildSide::Right);
}

TEST_CASE("cost mode and several plans in one input") {
  auto r = parse_plan(R"(== Optimized Logical Plan ==
Filter (isnotnull(a#1) AND (a#1 > 5)), Statistics(sizeInBytes=1.5 MiB, rowCount=2.0E+4)
+- Relation default.t[a#1] parquet, Statistics(sizeInBytes=3.0 MiB)

== Physical Plan ==
*(1) Filter (isnotnull(a#1) AND (a#1 > 5))
+- *(1) ColumnarToRow
   +- FileScan parquet default.t[a#1] Batched: true, DataFilters: [isnotnull(a#1), (a#1 > 5)], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/t], PartitionFilters: [], PushedFilters: [IsNotNull(a), GreaterThan(a,5)], ReadSchema: struct<a:int>

and the second one:

== Physical Plan ==
LocalTableScan (1)


(1) LocalTableScan
Output [1]: [x#1]
Arguments: [x#1]
)");
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 2);
  const Plan& cost = r.plans[0];
  CHECK(cost.format == InputFormat::ExplainCost);
  REQUIRE(cost.logical_roots.size() == 1);
  const Operator& f = cost.ops[cost.logical_roots[0]];
  CHECK(f.stats()->size_bytes == doctest::Approx(1.5 * 1024 * 1024));
  CHECK(f.stats()->row_count == doctest::Approx(2.0e4));
  CHECK(f.has_runtime());  // its Statistics
  CHECK(f.metrics().empty());
  CHECK_FALSE(f.rows());
  CHECK_FALSE(r.plans[1].ops[0].has_runtime());
  CHECK(f.name == "Filter");
  CHECK(r.plans[1].format == InputFormat::ExplainFormatted);
  CHECK(r.plans[1].ops.size() == 1);
  CHECK(r.plans[1].ops[0].loc.line == 13);
}

TEST_CASE("paste damage: locations point at the ORIGINAL text") {
  // stripMargin margins and a common indent; tabs inside the indent.
  auto r = parse_plan("  \"\"\"|== Physical Plan ==\n"
                 "     |* Project (2)\n"
                 "     |+- Scan parquet t (1)\n"
                 "     |\n"
                 "     |\n"
                 "     |(1) Scan parquet t\n"
                 "     |Output [1]: [a#1]\n"
                 "     |\n"
                 "     |(2) Project [codegen id : 1]\n"
                 "     |Output [1]: [a#1]\n"
                 "     |Input [1]: [a#1]\"\"\".stripMargin\n");
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 2);
  const Operator& scan = op_by_id(p, "1");
  CHECK(scan.loc.line == 3);
  CHECK(scan.loc.column == 10);
  CHECK(scan.field("Output")->loc.line == 7);
  CHECK(scan.field("Output")->loc.column == 7);
  CHECK(op_by_id(p, "2").field("Input")->value == "[a#1]");

  auto t = parse_plan("\t== Physical Plan ==\r\n\t* Project (2)\r\n\t+- Scan parquet t (1)\r\n");
  REQUIRE_FALSE(t.has_errors());
  REQUIRE(t.plans.size() == 1);
  const Operator& s2 = op_by_id(t.plans[0], "1");
  CHECK(s2.loc.line == 3);
  CHECK(s2.loc.column == 5);  // the 'S' after "\t+- "
}

TEST_CASE("not a plan: a clear error") {
  auto r = parse_plan("hello world\nthis is not a plan\n");
  CHECK(r.has_errors());
  CHECK(r.plans.empty());
  REQUIRE_FALSE(r.messages.empty());
  CHECK(r.messages[0].message.rfind("expected '== Physical Plan ==' or an explain plan tree; no operators were read", 0) == 0);
  CHECK(r.messages[0].message.find("hint: ") != std::string::npos);
  auto e = parse_plan("");
  CHECK(e.has_errors());
}

TEST_CASE("explain reader: operator ids index numbers in a vector, anything else in a map") {
  explain::OperatorIds ids;
  CHECK(ids.add("12", 0));
  CHECK(ids.add("1", 1));
  CHECK_FALSE(ids.add("12", 2));  // taken: the first operator keeps it
  CHECK(ids.find("12") == std::optional<std::size_t>(0));
  CHECK(ids.find("1") == std::optional<std::size_t>(1));
  CHECK_FALSE(ids.find("2").has_value());
  CHECK_FALSE(ids.find("123456").has_value());  // past the vector's end
  // "012" is another id than "12"; a huge or non-numeric id goes to the map.
  CHECK(ids.add("012", 3));
  CHECK(ids.find("012") == std::optional<std::size_t>(3));
  CHECK(ids.find("12") == std::optional<std::size_t>(0));
  CHECK(ids.add("99999999", 4));
  CHECK(ids.find("99999999") == std::optional<std::size_t>(4));
  CHECK_FALSE(ids.add("99999999", 5));
  CHECK(ids.add("abc", 6));
  CHECK(ids.find("abc") == std::optional<std::size_t>(6));
  CHECK(ids.add("0", 7));
  CHECK(ids.find("0") == std::optional<std::size_t>(7));
  CHECK_FALSE(ids.find("").has_value());
  ids.clear();
  CHECK_FALSE(ids.find("12").has_value());
  CHECK_FALSE(ids.find("abc").has_value());
}

TEST_CASE("explain reader: the placed-edge set answers as a std::set would, through growth, reserve and clear") {
  explain::EdgeSet edges;
  std::set<std::uint64_t> reference;
  // Keys like the reader's (parent << 32 ^ child), roots under 0xFFFFFFFF, and the all-ones key
  // that marks a free slot inside the table.
  std::vector<std::uint64_t> keys;
  for (std::uint64_t p = 0; p < 60; ++p)
    for (std::uint64_t c = 0; c < 50; c += 7) keys.push_back((p << 32) ^ c);
  for (std::uint64_t c = 0; c < 100; ++c) keys.push_back((std::uint64_t{0xFFFFFFFFu} << 32) ^ c);
  keys.push_back(~std::uint64_t{0});
  for (int round = 0; round < 3; ++round) {
    // The last round reserves first, and again once half of the keys are in (a rehash keeps them).
    if (round == 2) edges.reserve(keys.size() / 2);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (round == 2 && i == keys.size() / 2) edges.reserve(keys.size() * 2);
      CHECK(edges.insert(keys[i]) == reference.insert(keys[i]).second);
    }
    for (std::uint64_t k : keys) CHECK_FALSE(edges.insert(k));  // every key is there now
    CHECK(edges.size() == reference.size());
    edges.clear();
    reference.clear();
    CHECK(edges.size() == 0);
  }
}

TEST_CASE("a file index that lists fewer paths than it counts cuts the Location field only") {
  auto r = parse_plan(R"(== Physical Plan ==
*(1) Filter (isnotnull(k#2L) AND (s#3 = (3 paths)[a, b]))
+- FileScan parquet db.t[k#2L,s#3] Batched: true, DataFilters: [isnotnull(k#2L)], Format: Parquet, Location: InMemoryFileIndex(3 paths)[file:/a, file:/b], PartitionFilters: [], PushedFilters: [IsNotNull(k)], ReadSchema: struct<k:bigint,s:string>
)");
  REQUIRE_FALSE(r.has_errors());
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 2);
  REQUIRE(p.ops[1].field("Location"));
  CHECK(p.ops[1].field("Location")->truncated);
  CHECK_FALSE(p.ops[1].field("DataFilters")->truncated);
  // The same text in a condition is a string literal, not a file index: the condition is whole.
  REQUIRE(p.ops[0].field("Condition"));
  CHECK_FALSE(p.ops[0].field("Condition")->truncated);
}

TEST_CASE("scan_cut_marks: Spark's abbreviations, and whether a value could hold one") {
  using planlint::explain::scan_cut_marks;
  struct Case {
    std::string_view value;
    bool truncated;
    bool marks;
  };
  const Case cases[] = {
      {"", false, false},
      {"isnotnull(a#1)", false, false},
      {"[a#1, b#2, ...]", true, true},
      {"a#1, b#2, ...", true, true},
      {"....", true, true},
      {"[a#1, ... 3 more fields]", true, true},
      {"[k1, ... 3 entries]", true, true},
      {"a.... 12 more fields, b#2", true, true},
      {"a... ... 4 more", true, true},
      {"a...b", false, true},
      {"1.5 ... more", false, true},
      {"x ... 3 items", false, true},
      {"a.b.c", false, false},
      {"InMemoryFileIndex(3 paths)[p1, p2]", true, true},
      {"InMemoryFileIndex(2 paths)[p1, p2]", false, true},
      {"InMemoryFileIndex(1 paths)[p1", true, true},
      {"(3 paths)[a, b, c]", false, true},
      {"x paths)[a]", false, true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.value);
    const auto r = scan_cut_marks(c.value);
    CHECK(r.truncated == c.truncated);
    CHECK(r.marks == c.marks);
    CHECK(planlint::explain::is_truncated_value(c.value) == c.truncated);
  }
  // A value that cannot hold a file index (any field but a scan's Location): only "..." counts.
  CHECK_FALSE(scan_cut_marks("InMemoryFileIndex(3 paths)[p1, p2]", false).marks);
  CHECK_FALSE(scan_cut_marks("InMemoryFileIndex(1 paths)[p1", false).truncated);
  CHECK(scan_cut_marks("[a#1, ... 3 more fields]", false).truncated);
  CHECK(scan_cut_marks("a...b", false).marks);
}

TEST_CASE("a plan in code comments is read; when its prefix cannot be stripped, the hint names it") {
  ParseResult ok = parse_plan("results.explain();\n    // == Physical Plan ==\n    // *(1) Project [a#1]\n    // +- *(1) Filter (a#1 > 1)\n    results.show();\n");
  REQUIRE(ok.plans.size() == 1);
  CHECK(ok.plans[0].ops.size() == 2);
  // Gutter columns typed by hand (each line different): nothing is read, and the hint says why.
  ParseResult bad = parse_plan("df.explain()  //> == Physical Plan ==\n  //| *(1) Project [a#1]\n    //| +- *(1) Scan x\n");
  bool named = false, newlines = false;
  for (const auto& m : bad.messages) {
    named = named || m.message.find("comment prefix '//>") != std::string::npos;
    newlines = newlines || m.message.find("newlines may have been lost") != std::string::npos;
  }
  CHECK(named);
  CHECK_FALSE(newlines);
}

TEST_CASE("formatted: a field line's key and value are kept alike whether the line views the shared input or not") {
  // block_line tests once whether the line lies inside the shared input (then the key and the
  // value are views of it) where keep() tested each part: with a shared input, with a copy (no
  // shared input) and with rewritten lines (CRLF, a tab), the fields must read the same.
  const std::string plain = "== Physical Plan ==\n* Project (2)\n+- Scan parquet db.t (1)\n\n\n(1) Scan parquet db.t\n"
                            "Output [2]: [a#1, b#2]\nBatched: true\nLocation:\nReadSchema: struct<a:int,b:int>\n\n"
                            "(2) Project [codegen id : 1]\nOutput [1]: [a#1]\nInput [2]: [a#1, b#2]\n";
  auto fields_of = [](const ParseResult& r) {
    REQUIRE_FALSE(r.has_errors());
    std::vector<std::string> out;
    for (const char* id : {"1", "2"})
      for (const Field& f : op_by_id(r.plans[0], id).fields)
        out.push_back(std::string(std::string_view(f.key)) + "|" + std::string(std::string_view(f.value)));
    return out;
  };
  const std::vector<std::string> want = {"Output|[a#1, b#2]", "Batched|true", "Location|",
                                         "ReadSchema|struct<a:int,b:int>", "Output|[a#1]", "Input|[a#1, b#2]"};
  auto shared = std::make_shared<const std::string>(plain);
  const ParseResult viewed = parse_explain_text(*shared, "t.txt", shared);
  CHECK(fields_of(viewed) == want);
  // The shared input's lines are views of it: the key and the value point into its bytes.
  const Field* batched = op_by_id(viewed.plans[0], "1").field("Batched");
  REQUIRE(batched);
  const std::string_view key = batched->key, value = batched->value;
  CHECK(key.data() >= shared->data());
  CHECK(value.data() == key.data() + 9);
  CHECK(fields_of(parse_plan(plain)) == want);
  std::string crlf;
  for (char c : plain) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto shared_crlf = std::make_shared<const std::string>(crlf);
  CHECK(fields_of(parse_explain_text(*shared_crlf, "t.txt", shared_crlf)) == want);
  std::string tabbed = plain;
  tabbed.replace(tabbed.find("Batched: true"), 13, "Batched:\ttrue");
  auto shared_tab = std::make_shared<const std::string>(tabbed);
  const ParseResult tab = parse_explain_text(*shared_tab, "t.txt", shared_tab);
  REQUIRE_FALSE(tab.has_errors());
  const Field* b2 = op_by_id(tab.plans[0], "1").field("Batched");
  REQUIRE(b2);
  CHECK(std::string_view(b2->value) == "true");
}
