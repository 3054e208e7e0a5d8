#include <doctest/doctest.h>

#include "parser/common/classify.hpp"

using namespace planlint;

TEST_CASE("classify_operator: Spark, Photon and Gluten names share one vocabulary") {
  auto c = classify_operator("BroadcastHashJoin");
  CHECK(c.kind == OpKind::Join);
  CHECK(c.strategy == JoinStrategy::BroadcastHash);
  CHECK(c.engine == Engine::Spark);

  c = classify_operator("PhotonBroadcastHashJoin");
  CHECK(c.kind == OpKind::Join);
  CHECK(c.engine == Engine::Photon);

  c = classify_operator("BroadcastHashJoinExecTransformer");
  CHECK(c.strategy == JoinStrategy::BroadcastHash);
  CHECK(c.engine == Engine::Gluten);

  c = classify_operator("SortMergeJoin(skew=true)");
  CHECK(c.strategy == JoinStrategy::SortMerge);

  CHECK(classify_operator("Scan parquet spark_catalog.default.t").kind == OpKind::Scan);
  CHECK(classify_operator("Scan parquet ").kind == OpKind::Scan);
  CHECK(classify_operator("PhotonScan parquet main.a.b").engine == Engine::Photon);
  CHECK(classify_operator("FileScan parquet db.t[a#1]").kind == OpKind::Scan);
  CHECK(classify_operator("ColumnarToRow").kind == OpKind::Transition);
  CHECK(classify_operator("VeloxColumnarToRowExec").kind == OpKind::Transition);
  CHECK(classify_operator("PhotonShuffleExchangeSink").kind == OpKind::Exchange);
  CHECK(classify_operator("ShuffleQueryStage").kind == OpKind::QueryStage);
  CHECK(classify_operator("ArrowEvalPython").kind == OpKind::PythonEval);
  CHECK(classify_operator("Execute InsertIntoHadoopFsRelationCommand").kind == OpKind::Command);
  CHECK(classify_operator("SomethingNew").kind == OpKind::Other);
}

TEST_CASE("parse_join_type accepts Spark and profile spellings") {
  CHECK(parse_join_type("LeftOuter") == JoinType::LeftOuter);
  CHECK(parse_join_type("Left Outer") == JoinType::LeftOuter);
  CHECK(parse_join_type("Left Semi") == JoinType::LeftSemi);
  CHECK(parse_join_type("ExistenceJoin(exists#12)") == JoinType::ExistenceJoin);
  CHECK(parse_join_type("FullOuter") == JoinType::FullOuter);
  CHECK(parse_join_type("Sideways") == JoinType::Unknown);
}

TEST_CASE("classify_operator: RAPIDS Gpu*, Comet* and Gluten CH* names take the kind of the Spark operator") {
  // NVIDIA RAPIDS: engine Gpu, the kind of the operator after `Gpu` (real plans 063, 064, 094).
  auto c = classify_operator("GpuShuffledHashJoin");
  CHECK(c.kind == OpKind::Join);
  CHECK(c.strategy == JoinStrategy::ShuffledHash);
  CHECK(c.engine == Engine::Gpu);
  CHECK(classify_operator("GpuBroadcastHashJoin").strategy == JoinStrategy::BroadcastHash);
  c = classify_operator("GpuColumnarExchange");
  CHECK(c.kind == OpKind::Exchange);
  CHECK(c.engine == Engine::Gpu);  // not Gluten, whose names start with "Columnar"
  CHECK(classify_operator("GpuBroadcastExchange").kind == OpKind::BroadcastExchange);
  CHECK(classify_operator("GpuHashAggregate").kind == OpKind::Aggregate);
  CHECK(classify_operator("GpuFilter").kind == OpKind::Filter);
  CHECK(classify_operator("GpuProject").kind == OpKind::Project);
  CHECK(classify_operator("GpuTopN").kind == OpKind::TopK);
  CHECK(classify_operator("GpuCustomShuffleReader").kind == OpKind::ShuffleRead);
  c = classify_operator("GpuFileGpuScan parquet [id#0L] Batched: true");
  CHECK(c.kind == OpKind::Scan);
  CHECK(c.engine == Engine::Gpu);
  CHECK(classify_operator("GpuBatchScan").kind == OpKind::Scan);
  CHECK(classify_operator("GpuScan parquet default.reason").kind == OpKind::Scan);
  c = classify_operator("GpuColumnarToRow");
  CHECK(c.kind == OpKind::Transition);
  CHECK(c.engine == Engine::Gpu);
  CHECK(classify_operator("GpuRowToColumnar").kind == OpKind::Transition);
  CHECK(classify_operator("GpuCoalesceBatches").kind == OpKind::Other);
  CHECK(classify_operator("GpuCoalesceBatches").engine == Engine::Gpu);

  // Apache Comet: the kind of the operator after `Comet`, engine Spark (readers mark OpFacts::comet).
  c = classify_operator("CometHashAggregate");
  CHECK(c.kind == OpKind::Aggregate);
  CHECK(c.engine == Engine::Spark);
  c = classify_operator("CometColumnarExchange");
  CHECK(c.kind == OpKind::Exchange);
  CHECK(c.engine == Engine::Spark);  // not Gluten
  CHECK(classify_operator("CometExchange").kind == OpKind::Exchange);
  CHECK(classify_operator("CometBroadcastExchange").kind == OpKind::BroadcastExchange);
  CHECK(classify_operator("CometBroadcastHashJoin").strategy == JoinStrategy::BroadcastHash);
  CHECK(classify_operator("CometHashJoin").strategy == JoinStrategy::ShuffledHash);
  CHECK(classify_operator("CometSortMergeJoin").strategy == JoinStrategy::SortMerge);
  CHECK(classify_operator("CometNativeScan parquet [a#1]").kind == OpKind::Scan);
  CHECK(classify_operator("CometIcebergNativeScan").kind == OpKind::Scan);
  CHECK(classify_operator("CometScan parquet db.t").kind == OpKind::Scan);
  CHECK(classify_operator("CometColumnarToRow").kind == OpKind::Transition);
  CHECK(classify_operator("CometSparkColumnarToColumnar").kind == OpKind::Transition);
  CHECK(classify_operator("CometSparkRowToColumnar").kind == OpKind::Transition);

  // Gluten's ClickHouse backend (real plan 066).
  c = classify_operator("CHNativeColumnarToRow");
  CHECK(c.kind == OpKind::Transition);
  CHECK(c.engine == Engine::Gluten);
  c = classify_operator("CHHashAggregateExecTransformer");
  CHECK(c.kind == OpKind::Aggregate);
  CHECK(c.engine == Engine::Gluten);
  c = classify_operator("ColumnarExchangeAdaptor");
  CHECK(c.kind == OpKind::Exchange);
  CHECK(c.engine == Engine::Gluten);
  c = classify_operator("FilterExecTransformerBase");
  CHECK(c.kind == OpKind::Filter);
  CHECK(c.engine == Engine::Gluten);
  CHECK(classify_operator("RowToCHNativeColumnar").kind == OpKind::Transition);
}
