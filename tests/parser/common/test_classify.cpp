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
