#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "parser/common/classify.hpp"
#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

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

namespace {

bool same(const Classification& a, const Classification& b) {
  return a.kind == b.kind && a.engine == b.engine && a.strategy == b.strategy;
}

}  // namespace

TEST_CASE("classify_operator: the per-thread cache answers what the classification answers") {
  // Every operator label and name of the bundled corpus and of ../shared/corpus, each of their
  // prefixes (names that share a slot and a length), and random edits, in an order that repeats
  // names (answers taken from the cache) after others took their slots.
  std::vector<std::string> names = {"", "A", "Scan", "Scan ", "Exchange", "Gpu", "GpuX", "CometX", "CHX",
                                    std::string(47, 'X'), std::string(48, 'X'), std::string(200, 'S')};
  auto collect = [&](const std::filesystem::path& dir) {
    if (!std::filesystem::is_directory(dir)) return;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.file_size() > 20'000'000) continue;
      const ParseResult r = parse_input(test::read_file(entry.path()), entry.path().string());
      for (const Plan& p : r.plans)
        for (const Operator& op : p.ops) {
          names.emplace_back(op.label);
          names.emplace_back(op.name);
          const std::string_view label = op.label;
          names.emplace_back(label.substr(0, label.find(' ')));
        }
    }
  };
  collect(test::corpus_dir());
  if (auto shared = test::shared_dir()) collect(*shared / "corpus");
  else test::without_shared("the operator names of ../shared/corpus are not compared");
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const std::size_t whole = names.size();
  REQUIRE(whole > 200);
  for (std::size_t i = 0; i < whole; ++i)
    for (std::size_t k = 1; k < names[i].size() && k < 50; k += 3) names.push_back(names[i].substr(0, k));
  std::mt19937 rng(7);
  for (int k = 0; k < 20'000; ++k) {
    std::string s = names[rng() % whole];
    if (!s.empty()) s[rng() % s.size()] = "aZ (_-TxGpC"[rng() % 11];
    names.push_back(std::move(s));
  }
  std::size_t differ = 0;
  for (int round = 0; round < 3; ++round) {
    std::shuffle(names.begin(), names.end(), rng);
    for (const std::string& n : names)
      if (!same(classify_operator(n), classify_operator_uncached(n)) && ++differ <= 5) FAIL_CHECK("differs on \"" << n << "\"");
  }
  CHECK(differ == 0);
}

TEST_CASE("parse_join_type and canonical_operator_name: upper case and separators folded, other bytes kept") {
  CHECK(parse_join_type("LEFT_OUTER") == JoinType::LeftOuter);
  CHECK(parse_join_type("left-anti") == JoinType::LeftAnti);
  CHECK(parse_join_type("Left.Semi") == JoinType::LeftSemi);
  CHECK(parse_join_type("INNER") == JoinType::Inner);
  CHECK(parse_join_type("FULL OUTER") == JoinType::FullOuter);
  CHECK(parse_join_type("LeftSingle") == JoinType::LeftSingle);
  CHECK(parse_join_type("L\xc3\x89" "FT") == JoinType::Unknown);  // a byte above 0x7F is no letter to fold
  CHECK(parse_join_type("Inner@") == JoinType::Unknown);        // '@' is the byte below 'A'
  CHECK(parse_join_type("[nner") == JoinType::Unknown);         // '[' is the byte above 'Z'
  CHECK(canonical_operator_name("TOPK") == "TopK");
  CHECK(canonical_operator_name("shuffle_query_stage") == "ShuffleQueryStage");
  CHECK(canonical_operator_name("BROADCAST-HASH.JOIN") == "BroadcastHashJoin");
  CHECK(canonical_operator_name("T\xc3\x93PK").empty());
}
