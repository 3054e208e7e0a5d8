// The six real Query Profile exports in ../shared/corpus/databricks: counts, Photon flags, joins
// and the metrics rules need, with values read from the files (jq) by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {

std::optional<std::string> shared_profile(const char* name) {
  auto dir = planlint::test::shared_dir();
  if (!dir) return std::nullopt;
  auto p = *dir / "corpus" / "databricks" / name;
  if (!std::filesystem::exists(p)) return std::nullopt;
  return planlint::test::read_file(p);
}

#define LOAD_PROFILE(var, name)                                         \
  auto var##_text = shared_profile(name);                               \
  if (!var##_text) {                                                    \
    planlint::test::shared_missing("../shared/corpus/databricks/" name " not found"); \
    return;                                                             \
  }                                                                     \
  ParseResult var = parse_input(*var##_text, name)

std::size_t edge_count(const Plan& p) {
  std::size_t n = 0;
  for (const auto& op : p.ops) n += op.children.size();
  return n;
}
std::size_t photon_count(const Plan& p) {
  return static_cast<std::size_t>(
      std::count_if(p.ops.begin(), p.ops.end(), [](const Operator& o) { return o.engine == Engine::Photon; }));
}
const Operator& corpus_op(const Plan& p, std::string_view id) {
  const Operator* o = p.find_id(id);
  REQUIRE_MESSAGE(o != nullptr, "no operator with id " << id);
  return *o;
}

// Byte offset of a 1-based line/column in text.
std::size_t offset_of(const std::string& text, SourceRange loc) {
  std::size_t off = 0;
  for (std::uint32_t l = 1; l < loc.line; ++l) off = text.find('\n', off) + 1;
  return off + loc.column - 1;
}

void check_shape(const ParseResult& r, const std::string& text, std::size_t nodes, std::size_t edges, std::size_t photon) {
  CHECK(r.format == InputFormat::QueryProfile);
  CHECK_FALSE(r.has_errors());
  REQUIRE(!r.plans.empty());
  const Plan& p = r.plans.front();
  CHECK(p.format == InputFormat::QueryProfile);
  CHECK(p.ops.size() == nodes);
  CHECK(edge_count(p) == edges);
  CHECK(photon_count(p) == photon);
  // Every operator points at its node object: `{` followed (first key) by its id.
  for (const auto& op : p.ops) {
    REQUIRE(op.loc.known());
    std::size_t off = offset_of(text, op.loc);
    REQUIRE(off < text.size());
    CHECK(text[off] == '{');
    CHECK(text.compare(off, 8 + op.id.size(), "{\"id\":\"" + op.id + "\"") == 0);
    CHECK(op.kind != OpKind::Unknown);
  }
  // link() results are a DAG: parents mirror children.
  for (const auto& op : p.ops)
    for (std::size_t c : op.children)
      CHECK(std::find(p.ops[c].parents.begin(), p.ops[c].parents.end(), op.index) != p.ops[c].parents.end());
}

}  // namespace

TEST_CASE("profile-01: mixed Photon/JVM, JVM broadcast joins, DPP pruning, query metrics" * doctest::test_suite("shared")) {
  LOAD_PROFILE(r, "profile-01-itagaki-mixed-photon-jvm.json");
  check_shape(r, *r_text, 50, 40, 8);
  const Plan& p = r.plans.front();
  CHECK(p.adaptive);
  REQUIRE(p.roots.size() == 1);
  CHECK(p.ops[p.roots[0]].id == "28341");
  CHECK(p.ops[p.roots[0]].kind == OpKind::AdaptivePlan);

  const Operator& join = corpus_op(p, "34655");
  CHECK(join.kind == OpKind::Join);
  CHECK(join.name == "BroadcastHashJoin");
  CHECK(join.label == "Left Semi Join");
  CHECK(join.extra()->tag == "BROADCAST_HASH_JOIN_EXEC");
  CHECK(join.engine == Engine::Spark);
  CHECK(join.join->strategy == JoinStrategy::BroadcastHash);
  CHECK(join.join->type == JoinType::LeftSemi);
  CHECK(join.join->type_text == "Left Semi");
  CHECK(join.join->build == BuildSide::Right);
  REQUIRE(join.left_keys().size() == 1);
  CHECK(join.left_keys()[0].text == "cs.cs_sold_date_sk");
  REQUIRE(join.right_keys().size() == 1);
  CHECK(join.right_keys()[0].text == "d.d_date_sk");
  CHECK(join.rows() == 556);
  // Left (CHILD_TAG Left, the Project) before the build side (the Shuffle, CHILD_TAG Child).
  REQUIRE(join.children.size() == 2);
  CHECK(p.ops[join.children[0]].id == "34653");
  CHECK(p.ops[join.children[0]].extra()->child_side == "Left");
  CHECK(p.ops[join.children[1]].id == "1");
  CHECK(join.metric_value("Time to read broadcast") == 424);
  CHECK(join.metric("Time to read broadcast")->unit == MetricUnit::Millis);
  CHECK(join.extra()->stage_parent.has_value());
  CHECK(p.ops[*join.extra()->stage_parent].id == "34657");
  CHECK(join.codegen);

  // Photon scan below a Columnar To Row feeding a JVM aggregate of 1.14 B rows.
  const Operator& scan = corpus_op(p, "34618");
  CHECK(scan.kind == OpKind::Scan);
  CHECK(scan.engine == Engine::Photon);
  CHECK(scan.table() == "tpcds.tpcds_sf1000_delta_lc.detail_itagaki");
  CHECK(scan.scan_format() == "parquet");
  CHECK(scan.rows() == 1138673400);
  CHECK(scan.duration_ms() == 255767);
  CHECK(scan.extra()->peak_memory_bytes == 105130076160.0);
  CHECK(scan.metric_value("Files read") == 1811);
  CHECK(scan.metric_value("Files pruned") == 467);
  CHECK(scan.metric_value("Size of files pruned") == 25855926746.0);
  CHECK(scan.metric("Size of files pruned")->unit == MetricUnit::Bytes);
  CHECK(scan.metric_value("Files to read before dynamic pruning") == 2270);
  REQUIRE(scan.metric("Cumulative time") != nullptr);
  CHECK(scan.metric("Cumulative time")->key == "CUMULATIVE_TIME");
  CHECK(scan.metric_value("Cumulative time") == doctest::Approx(255767.900315));
  REQUIRE(scan.metric("Peak reader threads utilized") != nullptr);
  CHECK_FALSE(scan.metric("Peak reader threads utilized")->value.has_value());
  CHECK(scan.metric("Peak reader threads utilized")->hidden);
  const Field* filters = scan.field("FILTERS");
  REQUIRE(filters != nullptr);
  CHECK(filters->is_list);
  CHECK(filters->exprs.size() == filters->item_spans.size());
  // The scan's DPP subqueries are its children (edges from the scan to "Pruning").
  REQUIRE(scan.children.size() == 2);
  CHECK(p.ops[scan.children[0]].kind == OpKind::Subquery);

  const Operator& c2r = corpus_op(p, "34647");
  CHECK(c2r.kind == OpKind::Transition);
  CHECK(c2r.engine == Engine::Spark);
  const Operator& agg = corpus_op(p, "34648");
  CHECK(agg.kind == OpKind::Aggregate);
  CHECK(agg.engine == Engine::Spark);
  CHECK(agg.metric_value("Time in aggregation build") == 1122554);
  CHECK(agg.metric_value("Spill size") == 0);

  CHECK(corpus_op(p, "3").kind == OpKind::QueryStage);
  CHECK(corpus_op(p, "3").name == "ShuffleQueryStage");
  CHECK(corpus_op(p, "34698").kind == OpKind::TopK);
  CHECK(corpus_op(p, "34584").kind == OpKind::ReusedExchange);
  CHECK(corpus_op(p, "34690").kind == OpKind::Exchange);
  CHECK(corpus_op(p, "34690").extra()->spark_stages == std::vector<int>{372, 368});
  CHECK(corpus_op(p, "34657").kind == OpKind::CodegenStage);
  CHECK(corpus_op(p, "34628").name == "PhotonResultStage");
  CHECK(corpus_op(p, "34628").engine == Engine::Photon);

  CHECK(p.stages.size() == 13);
  const QueryInfo& q = p.query;
  CHECK(q.statement_id == "01f062d9-1432-1827-aa7c-c853c6a8ba56");
  CHECK(q.status == "FINISHED");
  CHECK(q.statement_type == "SELECT");
  CHECK(q.sql_text.rfind("select distinct cs.*,\n", 0) == 0);
  CHECK(q.sql_loc.line == 1);
  CHECK(r_text->compare(offset_of(*r_text, q.sql_loc), 15, "select distinct") == 0);
  CHECK(q.metric_value("totalTimeMs") == 22098);
  CHECK(q.metric_value("prunedFilesCount") == 467);
  CHECK(q.metric_value("readFilesCount") == 1817);
  CHECK(q.metric_value("photonTotalTimeMs") == 256219);
  CHECK(q.metric_value("taskTotalTimeMs") == 1159125);
  CHECK(q.metric_value("spillToDiskBytes") == 0);
  CHECK(q.result_from_cache == false);
}

TEST_CASE("profile-02 and profile-03: Photon joins and shuffles" * doctest::test_suite("shared")) {
  {
    LOAD_PROFILE(r, "profile-02-itagaki-skewtest.json");
    check_shape(r, *r_text, 21, 15, 17);
    const Plan& p = r.plans.front();
    const Operator& j = corpus_op(p, "6432");
    CHECK(j.name == "PhotonShuffledHashJoin");
    CHECK(j.engine == Engine::Photon);
    CHECK(j.join->strategy == JoinStrategy::ShuffledHash);
    CHECK(j.join->type == JoinType::Inner);
    CHECK(j.join->build == BuildSide::Right);
    REQUIRE(j.left_keys().size() == 1);
    CHECK(j.left_keys()[0].text == "T1.ID");
    CHECK(p.stages.size() == 6);
    CHECK(p.query.metric_value("totalTimeMs") == 42851);
  }
  {
    LOAD_PROFILE(r, "profile-03-itagaki-query3.json");
    check_shape(r, *r_text, 36, 28, 24);
    const Plan& p = r.plans.front();
    const Operator& j = corpus_op(p, "44780");
    CHECK(j.name == "PhotonBroadcastHashJoin");
    CHECK(j.join->strategy == JoinStrategy::BroadcastHash);
    REQUIRE(j.right_keys().size() == 1);
    CHECK(j.right_keys()[0].text == "tpcds.tpcds_sf1000_delta_lc.item.i_item_sk");
    CHECK(p.query.metric_value("prunedFilesCount") == 1);
  }
}

TEST_CASE("profile-04: v1.1, mostly JVM above a Photon scan" * doctest::test_suite("shared")) {
  LOAD_PROFILE(r, "profile-04-itagaki-nophoton-v1.1.json");
  check_shape(r, *r_text, 15, 10, 6);
  const Plan& p = r.plans.front();
  CHECK(p.query.metric_value("photonTotalTimeMs") == 29191);
  CHECK(p.query.metric_value("taskTotalTimeMs") == 51277);
  std::size_t jvm_aggs = 0;
  for (const auto& op : p.ops)
    if (op.kind == OpKind::Aggregate && op.engine == Engine::Spark) ++jvm_aggs;
  CHECK(jvm_aggs == 2);
}

TEST_CASE("profile-05: REPLACE TABLE with two graphs (main first) and heavy spill" * doctest::test_suite("shared")) {
  LOAD_PROFILE(r, "profile-05-itagaki-replace-table-spill-v1.1.json");
  check_shape(r, *r_text, 14, 10, 12);
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].name == "graph 1 (main)");
  const Plan& write = r.plans[1];
  CHECK(write.name == "graph 0");
  REQUIRE(write.ops.size() == 1);
  CHECK(write.ops[0].name == "AtomicReplaceTableAsSelect");
  CHECK(write.ops[0].kind == OpKind::Command);
  CHECK(write.ops[0].table() == "r-data-genesis.tmp_cbo.test");
  CHECK(write.roots == std::vector<std::size_t>{0});

  const Plan& p = r.plans[0];
  CHECK(p.query.statement_type == "REPLACE");
  CHECK(p.query.metric_value("spillToDiskBytes") == 718910310107.0);
  const Operator& agg = corpus_op(p, "6134");
  CHECK(agg.name == "PhotonGroupingAgg");
  CHECK(agg.kind == OpKind::Aggregate);
  CHECK(agg.metric_value("Num bytes spilled to disk due to memory pressure") == 446081360034.0);
  CHECK(agg.metric_value("Num spills to disk due to memory pressure") == 1182);
  CHECK_FALSE(corpus_op(p, "6105").metric("Max spill recursion depth")->value.has_value());
  CHECK(corpus_op(p, "6138").kind == OpKind::Write);
  CHECK(corpus_op(p, "6137").kind == OpKind::CodegenStage);
  // The scan on the left of the broadcast join comes first.
  const Operator& j = corpus_op(p, "6101");
  REQUIRE(j.children.size() == 2);
  CHECK(p.ops[j.children[0]].id == "6099");
  CHECK(p.ops[j.children[1]].id == "6096");
}

TEST_CASE("profile-06: AQE skew counters on the Photon shuffle sink, stages" * doctest::test_suite("shared")) {
  LOAD_PROFILE(r, "profile-06-itagaki-aqe-skew-v1.1.json");
  check_shape(r, *r_text, 17, 11, 13);
  const Plan& p = r.plans.front();
  const Operator& sink = corpus_op(p, "21768");
  CHECK(sink.name == "PhotonShuffleExchangeSink");
  CHECK(sink.kind == OpKind::Exchange);
  CHECK(sink.engine == Engine::Photon);
  CHECK(sink.metric_value("AQEShuffleRead - Number of skewed partitions") == 5);
  CHECK(sink.metric_value("AQEShuffleRead - Number of skewed partition splits") == 101);
  CHECK(sink.metric_value("AQEShuffleRead - Number of partitions") == 102);
  CHECK(sink.metric_value("Sink - Num bytes written") == 5664552698.0);
  CHECK(sink.metric_value("Source - Num bytes read") == 5664552698.0);
  CHECK(sink.metric_value("Sink - Cumulative time") == doctest::Approx(112158.68919));
  CHECK(sink.rows() == 1439976202.0);
  REQUIRE(sink.extra()->stage_parent.has_value());
  const Operator& map_stage = p.ops[*sink.extra()->stage_parent];
  CHECK(map_stage.id == "21778");
  CHECK(map_stage.name == "PhotonShuffleMapStage");
  CHECK(map_stage.metric_value("Stage duration") == 173481);
  CHECK(map_stage.metric_value("Marked for OOM fallback") == 0);
  CHECK(corpus_op(p, "21780").name == "PhotonTopK");
  CHECK(corpus_op(p, "21780").kind == OpKind::TopK);

  REQUIRE(p.stages.size() == 6);
  const StageInfo& s168 = p.stages[2];
  CHECK(s168.id == "168");
  CHECK(s168.status == StageStatus::Complete);
  CHECK(s168.num_tasks == 102);
  CHECK(s168.duration_ms == 22253);
  // Stage 165 holds the big sink and the scan's map stage.
  const StageInfo& s165 = p.stages[5];
  CHECK(s165.id == "165");
  auto has = [&](const StageInfo& s, std::string_view id) {
    return std::any_of(s.operators.begin(), s.operators.end(), [&](std::size_t i) { return p.ops[i].id == id; });
  };
  CHECK(has(s165, "21768"));
  CHECK(has(s165, "21641"));
  CHECK(has(s165, "21637"));  // the scan inherits its map stage's link
  CHECK(p.query.metric_value("readFilesCount") == 257);
  CHECK_FALSE(p.query.metric_value("queuedProvisioningTimeMs").has_value());
}
