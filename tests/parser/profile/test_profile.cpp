// Query Profile reader: tag vocabulary, the variants in corpus/profile (hand-written), bad input
// (malformed JSON, cycles, dangling edges, deep nesting) and a 4 MB synthetic profile.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <string>

#include "parser/common/classify.hpp"
#include "parser/profile/profile.hpp"
#include "parser/profile/profile_internal.hpp"
#include "parser/profile/profile_positions.hpp"
#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {

ParseResult parse_case(const char* name) {
  auto path = planlint::test::corpus_dir() / "profile" / name;
  std::string text = planlint::test::read_file(path);
  REQUIRE_MESSAGE(!text.empty(), "missing corpus file " << path.string());
  return parse_input(text, std::string("corpus/profile/") + name);
}

const Operator& op_id(const Plan& p, std::string_view id) {
  const Operator* o = p.find_id(id);
  REQUIRE_MESSAGE(o != nullptr, "no operator with id " << id);
  return *o;
}

bool has_message(const ParseResult& r, MessageSeverity sev, std::string_view part, std::uint32_t line = 0) {
  return std::any_of(r.messages.begin(), r.messages.end(), [&](const ParseMessage& m) {
    return m.severity == sev && m.message.find(part) != std::string::npos && (line == 0 || m.loc.line == line);
  });
}

std::string messages_of(const ParseResult& r) {
  std::string s;
  for (const auto& m : r.messages)
    s += std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message + "\n";
  return s;
}

}  // namespace

TEST_CASE("profile tags map onto the shared operator vocabulary in every spelling") {
  struct Case {
    const char* tag;
    const char* name;
    OpKind kind;
  };
  const Case cases[] = {
      {"PHOTON_PROJECT_EXEC", "PhotonProject", OpKind::Project},
      {"PHOTON_GROUPING_AGG_EXEC", "PhotonGroupingAgg", OpKind::Aggregate},
      {"PHOTON_GROUPING_AGG_WITH_ROLLUP_EXEC", "PhotonGroupingAggWithRollup", OpKind::Aggregate},
      {"PHOTON_AGG_EXEC", "PhotonAgg", OpKind::Aggregate},
      {"PHOTON_FILTER_EXEC", "PhotonFilter", OpKind::Filter},
      {"PHOTON_TOPK_EXEC", "PhotonTopK", OpKind::TopK},
      {"PHOTON_BROADCAST_HASH_JOIN_EXEC", "PhotonBroadcastHashJoin", OpKind::Join},
      {"PHOTON_SHUFFLED_HASH_JOIN_EXEC", "PhotonShuffledHashJoin", OpKind::Join},
      {"PHOTON_BROADCAST_NESTED_LOOP_JOIN_EXEC", "PhotonBroadcastNestedLoopJoin", OpKind::Join},
      {"PHOTON_SORT_MERGE_JOIN_EXEC", "PhotonSortMergeJoin", OpKind::Join},
      {"PHOTON_SHUFFLE_EXCHANGE_SINK_EXEC", "PhotonShuffleExchangeSink", OpKind::Exchange},
      {"UNKNOWN.PhotonShuffleExchangeSink", "PhotonShuffleExchangeSink", OpKind::Exchange},
      {"PHOTON_SHUFFLE_MAP_STAGE_EXEC", "PhotonShuffleMapStage", OpKind::Exchange},
      {"PHOTON_RESULT_STAGE_EXEC", "PhotonResultStage", OpKind::CodegenStage},
      {"PHOTON_WRITE_STAGE_EXEC", "PhotonWriteStage", OpKind::CodegenStage},
      {"PHOTON_ARROW_RESULT_STAGE_EXEC", "PhotonArrowResultStage", OpKind::CodegenStage},
      {"PHOTON_NATIVE_UNION_EXEC", "PhotonNativeUnion", OpKind::Union},
      {"PHOTON_PARQUET_WRITER_EXEC", "PhotonParquetWriter", OpKind::Write},
      {"PHOTON_ROW_TO_COLUMNAR", "PhotonRowToColumnar", OpKind::Transition},
      {"PHOTON_SORT_EXEC", "PhotonSort", OpKind::Sort},
      {"PHOTON_RUNTIME_FILTER_SOURCE_EXEC", "PhotonRuntimeFilterSource", OpKind::Other},
      {"UNKNOWN_PHOTONIZED_NODE.PhotonLocalLimit", "PhotonLocalLimit", OpKind::Limit},
      {"UNKNOWN_SPARK_PLAN.PhotonMetadataSubquery", "PhotonMetadataSubquery", OpKind::Subquery},
      {"HASH_AGGREGATE_EXEC", "HashAggregate", OpKind::Aggregate},
      {"OBJECT_HASH_AGGREGATE_EXEC", "ObjectHashAggregate", OpKind::Aggregate},
      {"PROJECT_EXEC", "Project", OpKind::Project},
      {"WHOLE_STAGE_CODEGEN_EXEC", "WholeStageCodegen", OpKind::CodegenStage},
      {"COLUMNAR_TO_ROW_EXEC", "ColumnarToRow", OpKind::Transition},
      {"SHUFFLE_EXCHANGE_EXEC", "ShuffleExchange", OpKind::Exchange},
      {"BROADCAST_HASH_JOIN_EXEC", "BroadcastHashJoin", OpKind::Join},
      {"SORT_MERGE_JOIN_EXEC", "SortMergeJoin", OpKind::Join},
      {"CARTESIAN_PRODUCT_EXEC", "CartesianProduct", OpKind::Join},
      {"COLLECT_LIMIT_EXEC", "CollectLimit", OpKind::Limit},
      {"REUSED_EXCHANGE_EXEC", "ReusedExchange", OpKind::ReusedExchange},
      {"REUSED_SUBQUERY_EXEC", "ReusedSubquery", OpKind::ReusedSubquery},
      {"SUBQUERY_BROADCAST_EXEC", "SubqueryBroadcast", OpKind::Subquery},
      {"SUBQUERY_EXEC", "Subquery", OpKind::Subquery},
      {"UNKNOWN_ADAPTIVE_SPARK_PLAN_EXEC", "AdaptiveSparkPlan", OpKind::AdaptivePlan},
      {"UNKNOWN_SPARK_PLAN.ResultQueryStage", "ResultQueryStage", OpKind::QueryStage},
      {"UNKNOWN_SPARK_PLAN.ShuffleQueryStage", "ShuffleQueryStage", OpKind::QueryStage},
      {"UNKNOWN_SPARK_PLAN.TakeOrderedAndProject", "TakeOrderedAndProject", OpKind::TopK},
      {"UNKNOWN_SPARK_PLAN.AtomicReplaceTableAsSelect", "AtomicReplaceTableAsSelect", OpKind::Command},
      {"UNKNOWN_DATA_SOURCE_SCAN_EXEC", "DataSourceScan", OpKind::Scan},
      {"BATCH_SCAN_EXEC", "BatchScan", OpKind::Scan},
      {"FILE_SCAN_EXEC", "FileScan", OpKind::Scan},
      {"LOCAL_TABLE_SCAN_EXEC", "LocalTableScan", OpKind::LocalData},
      {"AQE_SHUFFLE_READ_EXEC", "AQEShuffleRead", OpKind::ShuffleRead},
      {"photon_topk_exec", "PhotonTopK", OpKind::TopK},
      {"unknown_spark_plan.shuffleQueryStage", "ShuffleQueryStage", OpKind::QueryStage},
      {"UNKNOWN_SPARK_PLAN.SHUFFLE_QUERY_STAGE", "ShuffleQueryStage", OpKind::QueryStage},
      {"UNKNOWN.PhotonTopk", "PhotonTopK", OpKind::TopK},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.tag));
    auto tn = profile::tag_and_name(c.tag, "");
    CHECK(tn.name == c.name);
    CHECK(classify_operator(tn.name).kind == c.kind);
  }
  CHECK(profile::tag_and_name("UNKNOWN.PhotonShuffleExchangeSink", "").tag == "UNKNOWN.PhotonShuffleExchangeSink");
  CHECK(profile::tag_and_name("photon_topk_exec", "").tag == "PHOTON_TOPK_EXEC");
  CHECK(profile::tag_and_name("", "Hash Aggregate").name == "HashAggregate");
}

TEST_CASE("corpus/profile v1.2: Photon broadcast join, executor broadcast, sides, locations, stages") {
  ParseResult r = parse_case("v12-photon-broadcast-join.json");
  INFO(messages_of(r));
  CHECK(r.format == InputFormat::QueryProfile);
  CHECK(r.messages.empty());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  CHECK(p.name == "graph 0");
  CHECK(p.ops.size() == 14);
  CHECK(p.roots == std::vector<std::size_t>{0});
  CHECK(p.loc.line == 72);  // the graph object
  CHECK(p.loc.column == 5);
  CHECK(p.adaptive);

  const Operator& join = op_id(p, "532");
  CHECK(join.loc.line == 388);
  CHECK(join.loc.column == 9);
  CHECK(join.name == "PhotonBroadcastHashJoin");
  CHECK(join.engine == Engine::Photon);
  CHECK(join.join->strategy == JoinStrategy::BroadcastHash);
  CHECK(join.join->build == BuildSide::Right);
  CHECK(join.join->type == JoinType::Inner);
  CHECK(join.rows() == 249118004);
  // The edges list the build side first; CHILD_TAG Left puts the orders scan first anyway.
  REQUIRE(join.children.size() == 2);
  CHECK(p.ops[join.children[0]].id == "521");
  CHECK(p.ops[join.children[1]].id == "527");

  const Operator& scan = op_id(p, "521");
  CHECK(scan.table() == "main.sales.orders");
  CHECK(scan.scan_format() == "parquet");
  CHECK(scan.extra()->child_side == "Left");
  CHECK(scan.metric_value("Files pruned") == 1184);
  CHECK_FALSE(scan.metric_value("Peak reader threads utilized").has_value());
  CHECK(scan.metric_value("Cumulative time") == 2875);
  const Field* pf = scan.field("PARTITION_FILTERS");
  REQUIRE(pf != nullptr);
  CHECK(pf->is_list);
  CHECK(pf->items() == std::vector<std::string>{"(o.o_date >= DATE '2025-01-01')"});
  REQUIRE(pf->exprs.size() == 1);
  CHECK(pf->exprs[0].text == "(o.o_date >= DATE '2025-01-01')");
  REQUIRE(pf->exprs[0].root.has_value());
  CHECK(pf->exprs[0].root->kind == ExprKind::Binary);
  CHECK(pf->exprs[0].root->name == ">=");
  CHECK(pf->loc.line > scan.loc.line);
  const Field* clusters = scan.field("SCAN_CLUSTERS");
  REQUIRE(clusters != nullptr);
  CHECK(clusters->is_list);
  CHECK(clusters->item_spans.empty());

  const Operator& sink = op_id(p, "527");
  CHECK(sink.kind == OpKind::Exchange);
  CHECK(sink.metric_value("AQEShuffleRead - Number of skewed partitions") == 3);
  CHECK(sink.metric_value("AQEShuffleRead - Number of skewed partition splits") == 48);
  CHECK(sink.metric("AQEShuffleRead - Partition data size")->unit == MetricUnit::Bytes);
  CHECK(p.ops[sink.children.at(0)].id == "524");
  CHECK(p.ops[*sink.extra()->stage_parent].id == "537");
  CHECK(op_id(p, "540").codegen);
  CHECK_FALSE(op_id(p, "538").codegen);

  REQUIRE(p.stages.size() == 3);
  CHECK(p.stages[1].id == "414");
  CHECK(p.stages[1].num_tasks == 96);
  CHECK(p.stages[1].duration_ms == 7020);
  CHECK(p.stages[1].peak_memory_bytes == 704643072);
  std::vector<std::string> in414;
  for (std::size_t i : p.stages[1].operators) in414.push_back(p.ops[i].id.str());
  CHECK(in414 == std::vector<std::string>{"536", "534", "532", "527", "521", "537"});

  const QueryInfo& q = p.query;
  CHECK(q.statement_id == "01f0a1b2-0000-1111-2222-333344445555");
  CHECK(q.sql_loc.line == 7);
  CHECK(q.sql_loc.column == 19);
  CHECK(q.metric_value("compilationTimeMs") == 612);
  CHECK(q.metric_value("prunedBytes") == 39728447488.0);
  CHECK_FALSE(q.metric_value("queuedProvisioningTimeMs").has_value());
  CHECK(q.metric_value("queryCompilationStartTimestamp") == std::nullopt);
  CHECK(q.result_from_cache == false);
}

TEST_CASE("corpus/profile v1.1 with planMetadata: JVM sort-merge join with Left/Right sides and a condition") {
  ParseResult r = parse_case("v11-planmetadata-sort-merge-join.json");
  INFO(messages_of(r));
  CHECK(r.messages.empty());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  const Operator& smj = op_id(p, "80");
  CHECK(smj.name == "SortMergeJoin");
  CHECK(smj.engine == Engine::Spark);
  CHECK(smj.join->strategy == JoinStrategy::SortMerge);
  CHECK(smj.join->type == JoinType::LeftOuter);
  CHECK(smj.join->build == BuildSide::None);
  REQUIRE(smj.join_condition() != nullptr);
  CHECK(smj.join_condition()->text == "(a.ts < b.ts)");
  REQUIRE(smj.children.size() == 2);
  CHECK(p.ops[smj.children[0]].id == "74");  // Left, although listed second
  CHECK(p.ops[smj.children[1]].id == "78");
  const Operator& scan_b = op_id(p, "75");
  CHECK(scan_b.table() == "db.b");  // from SCAN_DATABASE + SCAN_TABLE
  CHECK(scan_b.engine == Engine::Photon);
  CHECK(op_id(p, "77").metric_value("Exchange - Shuffle write time") == doctest::Approx(4.1));
  CHECK(p.query.metric_value("photonTotalTimeMs") == 90);
  // Stage containers are not roots.
  CHECK(p.roots == std::vector<std::size_t>{0});
}

TEST_CASE("corpus/profile write: a 1-node command graph and the main graph, main first") {
  ParseResult r = parse_case("write-two-graphs.json");
  CHECK(r.messages.empty());
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].name == "graph 1 (main)");
  CHECK(r.plans[0].ops.size() == 6);
  CHECK(r.plans[1].name == "graph 0");
  REQUIRE(r.plans[1].ops.size() == 1);
  CHECK(r.plans[1].ops[0].kind == OpKind::Command);
  CHECK(r.plans[1].ops[0].table() == "main.reporting.daily");
  CHECK(r.plans[0].query.statement_type == "REPLACE");
  CHECK(r.plans[1].query.statement_type == "REPLACE");
  CHECK(op_id(r.plans[0], "3120").kind == OpKind::Write);
  CHECK(op_id(r.plans[0], "3118").metric_value("Num spills to disk due to memory pressure") == 4);
  CHECK(r.plans[0].query.metric_value("spillToDiskBytes") == 536870912);
}

TEST_CASE("corpus/profile no graphs: query-level facts only, said clearly") {
  ParseResult r = parse_case("no-graphs.json");
  CHECK_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.empty());
  CHECK(has_message(r, MessageSeverity::Note, "the export holds no plan (graphs missing); query-level facts only", 3));
  const QueryInfo& q = r.plans[0].query;
  CHECK(q.sql_text == "SELECT count(*) FROM main.sales.orders WHERE DATE(o_ts) = '2025-03-01'");
  CHECK(q.metric_value("totalTimeMs") == 15230);
  CHECK(q.metric_value("readFilesCount") == 1280);
}

TEST_CASE("corpus/profile snake_case keys and tag spellings") {
  ParseResult r = parse_case("snake-case-keys.json");
  INFO(messages_of(r));
  CHECK(r.messages.empty());
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  CHECK(p.ops.size() == 6);
  CHECK(p.roots == std::vector<std::size_t>{0});
  const Operator& sink = op_id(p, "21");
  CHECK(sink.name == "PhotonShuffleExchangeSink");
  CHECK(sink.extra()->tag == "UNKNOWN.PhotonShuffleExchangeSink");
  CHECK(sink.kind == OpKind::Exchange);
  CHECK(sink.metric_value("Sink - Num bytes written") == 21504);
  CHECK(sink.metric("Sink - Num bytes written")->unit == MetricUnit::Bytes);
  CHECK(sink.extra()->spark_stages == std::vector<int>{52, 51});
  CHECK(sink.extra().in_store());  // every node's extras: in the input's store, no heap block each
  const Operator& agg = op_id(p, "22");
  CHECK(agg.extra()->tag == "PHOTON_GROUPING_AGG_EXEC");
  CHECK(agg.name == "PhotonGroupingAgg");
  CHECK(agg.rows() == 672);
  CHECK(agg.duration_ms() == 2900);
  CHECK(op_id(p, "20").extra()->peak_memory_bytes == 67108864);
  CHECK(op_id(p, "20").metric_value("Cumulative time") == 310);
  CHECK(p.ops[*agg.extra()->stage_parent].id == "24");
  CHECK(op_id(p, "25").kind == OpKind::CodegenStage);
  REQUIRE(p.stages.size() == 2);
  CHECK(p.stages[0].num_tasks == 16);
  CHECK(p.stages[0].duration_ms == 4700);
  CHECK(p.query.sql_text == "SELECT k, count(*) FROM main.s.events GROUP BY k");
  CHECK(p.query.sql_loc.line == 6);
  CHECK(p.query.statement_type == "SELECT");
  CHECK(p.query.metric_value("totalTimeMs") == 5120);
  CHECK(p.query.metric_value("spillToDiskBytes") == 0);
  CHECK(p.query.result_from_cache == false);
}

TEST_CASE("corpus/profile metrics without a value, empty metadata lists, photonExplain text") {
  ParseResult r = parse_case("metrics-without-value.json");
  INFO(messages_of(r));
  CHECK(r.messages.empty());
  const Plan& p = r.plans.at(0);
  const Operator& proj = op_id(p, "10");
  REQUIRE(proj.metric("Peak reader threads utilized") != nullptr);
  CHECK_FALSE(proj.metric("Peak reader threads utilized")->value.has_value());
  CHECK_FALSE(proj.metric("Max spill recursion depth")->value.has_value());
  CHECK_FALSE(proj.metric("Max spill recursion depth")->hidden);
  CHECK(proj.metric("Cumulative time")->unit == MetricUnit::Millis);
  CHECK_FALSE(proj.metric_value("Cumulative time").has_value());
  const Operator& scan = op_id(p, "11");
  CHECK_FALSE(scan.rows().has_value());
  REQUIRE(scan.field("FILTERS") != nullptr);
  CHECK(scan.field("FILTERS")->is_list);
  CHECK(scan.field("FILTERS")->exprs.empty());
  CHECK(p.photon.present);
  CHECK_FALSE(p.photon.fully_supported);
  CHECK(p.photon.reasons ==
        std::vector<std::string>{"UDF(a#1) is not supported:\nThe expression `scalaudf` is currently unimplemented."});
  CHECK(p.photon.reference_nodes == std::vector<std::string>{"Project [UDF(a#1) AS b#2]"});
}

TEST_CASE("corpus/profile malformed JSON: a located error, no plan, no crash") {
  ParseResult r = parse_case("malformed-truncated.json");
  REQUIRE(r.messages.size() == 1);
  CHECK(r.has_errors());
  CHECK(r.plans.empty());
  CHECK(r.messages[0].loc.line == 25);
  CHECK(r.messages[0].loc.column == 39);  // just after the last token
  CHECK(r.messages[0].message.rfind("invalid JSON: ", 0) == 0);
  CHECK(r.messages[0].message.find("unexpected end of input") != std::string::npos);
}

TEST_CASE("corpus/profile cycle and dangling edge: reported, broken, no hang") {
  ParseResult r = parse_case("cycle-and-dangling-edge.json");
  INFO(messages_of(r));
  CHECK_FALSE(r.has_errors());
  CHECK(has_message(r, MessageSeverity::Warning, "edge from node '3' to node '2' closes a cycle", 26));
  CHECK(has_message(r, MessageSeverity::Warning, "node id '999', which is not in the graph", 28));
  CHECK(has_message(r, MessageSeverity::Warning, "edge from node '4' to itself", 29));
  CHECK(has_message(r, MessageSeverity::Warning, "subgraphParent '4' is not another node", 18));
  const Plan& p = r.plans.at(0);
  CHECK(p.roots == std::vector<std::size_t>{0});
  CHECK(op_id(p, "3").children.size() == 1);
  CHECK(op_id(p, "2").parents.size() == 1);
  CHECK(op_id(p, "2").field("CONDITION")->exprs.size() == 1);
}

TEST_CASE("profile reader: bad and odd inputs never crash") {
  auto parse = [](std::string_view t) { return parse_query_profile(t, "x.json"); };
  CHECK(parse("").has_errors());
  CHECK(parse("[1,2]").has_errors());
  CHECK(parse("{").has_errors());
  CHECK(parse("{\"graphs\": 5}").plans.size() == 1);
  CHECK(parse("{\"graphs\": [5, {\"nodes\": 7}]}").plans.size() == 1);
  CHECK(parse("{\"graphs\": [{\"nodes\": [1, {\"id\": {}}, {\"id\": \"a\", \"metadata\": [7, {\"values\": [{}]}]}],"
              " \"edges\": [3, {\"fromId\": [], \"toId\": null}]}]}")
            .plans.size() == 1);
  // Deep nesting is refused before the document is built (no stack or memory blow-up).
  std::string deep(200000, '[');
  ParseResult d = parse(deep);
  REQUIRE(d.has_errors());
  CHECK(d.messages[0].message.find("nested deeper") != std::string::npos);
  // A UTF-8 BOM is skipped and positions still count it.
  ParseResult b = parse("\xEF\xBB\xBF{\"graphs\": [{\"nodes\": [{\"id\": \"1\", \"tag\": \"PROJECT_EXEC\"}]}]}");
  REQUIRE(b.plans.size() == 1);
  REQUIRE(b.plans[0].ops.size() == 1);
  CHECK(b.plans[0].ops[0].loc.column == 27);
  // An unknown version is read, with a note; an empty graphs array is said as such.
  ParseResult v2 = parse("{\"version\": \"2.0\", \"graphs\": []}");
  REQUIRE(v2.messages.size() == 2);
  CHECK(v2.messages[0].message.find("version 2.0 has not been seen before") != std::string::npos);
  CHECK(v2.messages[1].message == "the export holds no plan (graphs is empty); query-level facts only");
  // An expression that does not parse is kept raw, with one warning at its metadata entry.
  ParseResult bad_expr = parse("{\"graphs\": [{\"nodes\": [{\"id\": \"1\", \"metadata\": [\n"
                               "  {\"key\": \"FILTERS\", \"values\": [\"(a >\", \"((\"]}]}]}]}");
  REQUIRE(bad_expr.plans.size() == 1);
  const Field* bf = bad_expr.plans[0].ops[0].field("FILTERS");
  REQUIRE(bf != nullptr);
  CHECK(bf->exprs.size() == 2);
  CHECK_FALSE(bf->exprs[0].root.has_value());
  REQUIRE(bad_expr.messages.size() == 1);
  CHECK(bad_expr.messages[0].severity == MessageSeverity::Warning);
  CHECK(bad_expr.messages[0].loc.line == 2);
  CHECK(bad_expr.messages[0].loc.column == 3);
  CHECK(bad_expr.messages[0].message.rfind("could not parse expression in 'FILTERS': ", 0) == 0);
  // Stage ids that are not whole numbers in int range are dropped, not cast.
  ParseResult st = parse("{\"graphs\": [{\"nodes\": [{\"id\": \"1\", \"stageLinks\": [1e300, -1, 3.5, \"7\", 12]}],"
                         " \"stageData\": [{\"stageId\": \"1e300\"}, {\"stageId\": \"12\"}]}]}");
  REQUIRE(st.plans.size() == 1);
  CHECK(st.plans[0].ops[0].extra()->spark_stages == std::vector<int>{7, 12});
  REQUIRE(st.plans[0].stages.size() == 2);
  CHECK(st.plans[0].stages[0].operators.empty());
  CHECK(st.plans[0].stages[1].operators == std::vector<std::size_t>{0});
  // A chain of subgraphParent that loops is cut.
  ParseResult loop = parse(
      "{\"graphs\": [{\"nodes\": [{\"id\": \"1\", \"subgraphParent\": \"2\"}, {\"id\": \"2\", \"subgraphParent\": \"1\"}]}]}");
  CHECK(std::any_of(loop.plans[0].ops.begin(), loop.plans[0].ops.end(), [](const Operator& o) { return !o.extra()->stage_parent; }));
}

TEST_CASE("profile reader: nodes are read while the JSON is parsed, with the DOM reader's results") {
  // Nodes are read as each one is complete and dropped from the JSON DOM (memory); what the
  // reader gives must not depend on it: JSON's "last key wins", indices of non-object nodes,
  // the single `graph` object and a `nodes` that is not an array.
  auto parse = [](std::string_view t) { return parse_query_profile(t, "x.json"); };
  ParseResult twice = parse(
      "{\"graphs\": [{\"nodes\": [{\"id\": \"9\"}], \"nodes\": [{\"id\": \"1\"}, 5, {\"id\": \"2\", "
      "\"subgraphParent\": \"1\"}], \"edges\": [{\"fromId\": \"1\", \"toId\": \"2\"}]}]}");
  REQUIRE(twice.plans.size() == 1);
  REQUIRE(twice.plans[0].ops.size() == 2);
  CHECK(twice.plans[0].ops[0].id == "1");
  CHECK(twice.plans[0].ops[1].id == "2");
  CHECK(twice.plans[0].ops[1].extra()->stage_parent == std::optional<std::size_t>(0));
  CHECK(twice.plans[0].ops[0].children == std::vector<std::size_t>{1});
  CHECK(has_message(twice, MessageSeverity::Warning, "graph 0: nodes[1] is not an object; ignored"));

  ParseResult single = parse("{\"graph\": {\"nodes\": [{\"id\": \"a\", \"name\": \"Sort\"}, {\"id\": \"b\"}],"
                             " \"edges\": [{\"fromId\": \"a\", \"toId\": \"b\"}]}}");
  REQUIRE(single.plans.size() == 1);
  REQUIRE(single.plans[0].ops.size() == 2);
  CHECK(single.plans[0].ops[0].label == "Sort");
  CHECK(single.plans[0].ops[0].children == std::vector<std::size_t>{1});

  // `graphs` wins over `graph`; a later `graphs` key replaces an earlier one.
  ParseResult both = parse("{\"graph\": {\"nodes\": [{\"id\": \"g\"}]}, \"graphs\": [{\"nodes\": [{\"id\": \"x\"}]}],"
                           " \"graphs\": [{\"nodes\": [{\"id\": \"y\"}, {\"id\": \"z\"}]}, {\"nodes\": [{\"id\": \"w\"}]}]}");
  REQUIRE(both.plans.size() == 2);
  REQUIRE(both.plans[0].ops.size() == 2);
  CHECK(both.plans[0].ops[0].id == "y");
  REQUIRE(both.plans[1].ops.size() == 1);
  CHECK(both.plans[1].ops[0].id == "w");

  // A `nodes` key that is not an array replaces an array given before it.
  ParseResult not_array = parse("{\"graphs\": [{\"nodes\": [{\"id\": \"1\"}], \"nodes\": {\"id\": \"2\"}}]}");
  CHECK(has_message(not_array, MessageSeverity::Warning, "`nodes` is not an array"));
  for (const auto& p : not_array.plans) CHECK(p.ops.empty());
}

TEST_CASE("profile reader: a 4 MB synthetic profile parses (time reported, not asserted)") {
  std::string s = "{\"version\":\"1.2\",\"query\":{\"id\":\"q\",\"queryText\":\"SELECT 1\"},\"graphs\":[{\"nodes\":[";
  std::string edges;
  std::size_t n = 0;
  while (s.size() < 4u * 1024 * 1024) {
    if (n) s += ',';
    s += "{\"id\":\"" + std::to_string(n) + "\",\"name\":\"Grouping Aggregate\",\"tag\":\"PHOTON_GROUPING_AGG_EXEC\","
         "\"keyMetrics\":{\"rowsNum\":" + std::to_string(n * 7) + ",\"durationMs\":12},"
         "\"metadata\":[{\"key\":\"IS_PHOTON\",\"label\":\"Photonized\",\"value\":\"true\",\"values\":[]},"
         "{\"key\":\"CHILD_TAG\",\"label\":\"Child tag\",\"value\":\"Child\",\"values\":[]}],\"metrics\":[";
    for (int m = 0; m < 12; ++m)
      s += std::string(m ? "," : "") + "{\"label\":\"Metric number " + std::to_string(m) +
           "\",\"key\":\"UNKNOWN_KEY\",\"metricType\":\"TIMING_METRIC_NS\",\"value\":123456789,\"hidden\":true}";
    s += "],\"hidden\":false,\"stageLinks\":[]}";
    if (n) edges += std::string(n > 1 ? "," : "") + "{\"fromId\":\"" + std::to_string(n - 1) + "\",\"toId\":\"" + std::to_string(n) + "\"}";
    ++n;
  }
  s += "],\"edges\":[" + edges + "]}]}";
  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  ParseResult r = parse_input(s, "synthetic.json");
  double cpu_ms = 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("synthetic profile: " << s.size() / 1024 << " KiB, " << n << " nodes parsed in " << ms << " ms wall, "
                                << cpu_ms << " ms CPU");
  CHECK(r.messages.empty());
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == n);
  CHECK(r.plans[0].roots.size() == 1);
  CHECK(r.plans[0].ops.back().metric_value("Metric number 3") == doctest::Approx(123.456789));
}

TEST_CASE("profile: edges read while parsing keep the DOM's meaning (last `edges` key, damaged elements)") {
  // A repeated `edges` key: the last one counts (as in the JSON object); the first is not merged in.
  const std::string twice =
      R"({"version":"1.2","query":{"id":"q"},"graphs":[{"edges":[{"fromId":"1","toId":"2"}],)"
      R"("nodes":[{"id":"1","name":"Project","tag":"PROJECT"},{"id":"2","name":"Scan t","tag":"PHOTON_SCAN_EXEC"},)"
      R"({"id":"3","name":"Filter","tag":"FILTER"}],"edges":[{"fromId":"1","toId":"3"},{"fromId":"3","toId":"2"}]}]})";
  ParseResult r = parse_query_profile(twice, "twice.json");
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 3);
  CHECK(p.ops[0].children.size() == 1);
  CHECK(p.ops[0].children[0] == 2);  // Project -> Filter, not Project -> Scan
  CHECK(p.ops[2].children.size() == 1);
  CHECK(p.ops[2].children[0] == 1);
  // Elements that are no edge object, unknown ids and self edges are reported and skipped.
  const std::string damaged =
      R"({"version":"1.2","query":{"id":"q"},"graphs":[{"nodes":[{"id":"1","name":"Project","tag":"PROJECT"},)"
      R"({"id":"2","name":"Scan t","tag":"PHOTON_SCAN_EXEC"}],)"
      R"("edges":[5,{"fromId":"1","toId":"9"},{"fromId":"2","toId":"2"},{"fromId":1,"toId":"2"},[1]]}]})";
  ParseResult d = parse_query_profile(damaged, "damaged.json");
  REQUIRE(d.plans.size() == 1);
  std::size_t missing = 0, self = 0;
  for (const auto& m : d.messages) {
    if (m.message.find("which is not in the graph") != std::string::npos) ++missing;
    if (m.message.find("to itself") != std::string::npos) ++self;
  }
  CHECK(missing == 3);  // 5, id 9, [1]
  CHECK(self == 1);
  REQUIRE(d.plans[0].ops.size() == 2);
  REQUIRE(d.plans[0].ops[0].children.size() == 1);  // the numeric fromId 1 still names node "1"
  CHECK(d.plans[0].ops[0].children[0] == 1);
}

TEST_CASE("profile: nodes read while parsing become the plan's operators, with or without damaged elements") {
  // All objects: the operators read while parsing are the plan's, indexes in order.
  const std::string whole =
      R"({"version":"1.2","query":{"id":"q"},"graphs":[{"nodes":[{"id":"1","name":"Project","tag":"PROJECT"},)"
      R"({"id":"2","name":"Scan t","tag":"PHOTON_SCAN_EXEC"}],"edges":[{"fromId":"1","toId":"2"}]}]})";
  // Both inputs give Project (index 0) over Scan (index 1, id "2").
  auto project_over_scan = [](const ParseResult& r) {
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].ops.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) CHECK(r.plans[0].ops[i].index == i);
    CHECK(r.plans[0].ops[1].id == "2");
    REQUIRE(r.plans[0].ops[0].children.size() == 1);
    CHECK(r.plans[0].ops[0].children[0] == 1);
  };
  project_over_scan(parse_query_profile(whole, "whole.json"));
  // An element that is no object is skipped: the later operators move up one index.
  const std::string holes =
      R"({"version":"1.2","query":{"id":"q"},"graphs":[{"nodes":[{"id":"1","name":"Project","tag":"PROJECT"},[2],)"
      R"({"id":"2","name":"Scan t","tag":"PHOTON_SCAN_EXEC"}],"edges":[{"fromId":"1","toId":"2"}]}]})";
  ParseResult h = parse_query_profile(holes, "holes.json");
  project_over_scan(h);
  bool warned = false;
  for (const auto& m : h.messages) warned = warned || m.message.find("nodes[1] is not an object") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("profile reader: many node ids, repeated ids and edges, a cycle found at its first edge") {
  // Node ids are looked up in an open-addressing table (grown past its first 16 slots here) and
  // edges kept in one sorted array: a repeated id keeps its first node, a repeated edge is one
  // child (in the order of the first), a cycle is reported at the first of its repeated edges.
  std::string t = "{\"graphs\": [{\"nodes\": [\n";
  for (int k = 0; k < 40; ++k) t += "{\"id\": \"n" + std::to_string(k) + "\", \"name\": \"Project\"},\n";
  t += "{\"id\": \"n5\", \"name\": \"Filter\"}\n],\n\"edges\": [\n";  // line 42: a second n5
  t += "{\"fromId\": \"n0\", \"toId\": \"n3\"},\n";                        // line 45
  t += "{\"fromId\": \"n0\", \"toId\": \"n1\"},\n";
  t += "{\"fromId\": \"n0\", \"toId\": \"n3\"},\n";
  t += "{\"fromId\": \"n0\", \"toId\": \"n2\"},\n";
  for (int k = 3; k < 39; ++k) t += "{\"fromId\": \"n" + std::to_string(k) + "\", \"toId\": \"n" + std::to_string(k + 1) + "\"},\n";
  t += "{\"fromId\": \"n39\", \"toId\": \"n0\"},\n";  // line 85: closes a cycle
  t += "{\"fromId\": \"n39\", \"toId\": \"n0\"}\n]}]}\n";
  ParseResult r = parse_query_profile(t, "x.json");
  INFO(messages_of(r));
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans[0];
  REQUIRE(p.ops.size() == 41);
  CHECK(has_message(r, MessageSeverity::Warning, "node id 'n5' appears twice in the graph; edges use the first", 42));
  CHECK(p.ops[0].children == std::vector<std::size_t>{3, 1, 2});
  CHECK(p.ops[5].parents == std::vector<std::size_t>{4});
  CHECK(p.ops[40].parents.empty());
  CHECK(has_message(r, MessageSeverity::Warning, "edge from node 'n39' to node 'n0' closes a cycle", 85));
  CHECK(p.ops[39].children.empty());
  CHECK(p.roots == std::vector<std::size_t>{0, 40});
}

TEST_CASE("profile reader: a shared input's unescaped field values are views of it, escaped ones copies") {
  auto input = std::make_shared<const std::string>(
      "{\"graphs\": [{\"nodes\": [{\"id\": \"1\", \"name\": \"Scan t\", \"tag\": \"PHOTON_SCAN_EXEC\", \"metadata\": ["
      "{\"key\": \"SCAN_IDENTIFIER\", \"value\": \"db.sales\"},"
      "{\"key\": \"FILTERS\", \"value\": \"a\\u0020> 1\"}]}], \"edges\": []}]}");
  const auto within = [&](std::string_view s) { return lies_within(s, *input); };
  ParseResult shared = parse_query_profile(*input, "x.json", ProfileJsonParser::Scanner, nullptr, input);
  ParseResult copied = parse_query_profile(*input, "x.json");
  REQUIRE(shared.plans.size() == 1);
  REQUIRE(copied.plans.size() == 1);
  const Operator& s = shared.plans[0].ops.at(0);
  const Operator& c = copied.plans[0].ops.at(0);
  REQUIRE(s.fields.size() == 2);
  REQUIRE(c.fields.size() == 2);
  CHECK(s.fields[0].value == "db.sales");
  CHECK(within(s.fields[0].value));   // a view of the input
  CHECK(!within(c.fields[0].value));  // no shared input: a copy in the plan's store
  CHECK(s.fields[1].value == "a > 1");
  CHECK(!within(s.fields[1].value));  // decoded: a copy
  CHECK(s.table() == "db.sales");
  CHECK(s.fields[1].exprs.size() == 1);
  // The plans keep the input alive: the caller's reference is not the only one.
  CHECK(input.use_count() > 1);
}

namespace {

// The one graph's positions in `text`.
profile::GraphPositions one_graph_positions(const std::string& text) {
  profile::Positions p = profile::scan_positions(text, 64);
  REQUIRE(p.graphs.size() == 1);
  return p.graphs[0];
}

}  // namespace

// Metadata entry positions: kept flat in the order exports have, one list per node otherwise (a
// key repeated in a damaged export); either way each entry's `{` is found, a later record of one
// entry replaces it, and an entry never seen has no offset.
TEST_CASE("profile positions: metadata entries of each node") {
  using profile::kNoOffset;
  const std::string text =
      R"({"graphs":[{"nodes":[{"metadata":[{"a":1},{"b":2}]},{"id":"x"},{"metadata":[{"c":3}]}]}]})";
  const profile::GraphPositions g = one_graph_positions(text);
  CHECK(g.metadata_at(0, 0) == text.find(R"({"a")"));
  CHECK(g.metadata_at(0, 1) == text.find(R"({"b")"));
  CHECK(g.metadata_at(0, 2) == kNoOffset);
  CHECK(g.metadata_at(1, 0) == kNoOffset);  // a node without metadata
  CHECK(g.metadata_at(2, 0) == text.find(R"({"c")"));
  CHECK(g.metadata_at(3, 0) == kNoOffset);

  SUBCASE("a node's metadata key repeated: the second list replaces the first's entries") {
    const std::string twice =
        R"({"graphs":[{"nodes":[{"metadata":[{"a":1},{"b":2}],"metadata":[{"d":4}]},{"metadata":[{"c":3}]}]}]})";
    const profile::GraphPositions h = one_graph_positions(twice);
    CHECK(h.metadata_at(0, 0) == twice.find(R"({"d")"));
    CHECK(h.metadata_at(0, 1) == twice.find(R"({"b")"));  // not replaced: the second list is shorter
    CHECK(h.metadata_at(1, 0) == twice.find(R"({"c")"));
    CHECK(h.metadata_at(1, 1) == kNoOffset);
  }
  SUBCASE("moved past a byte-order mark with the rest") {
    profile::GraphPositions m = g;
    m.each_metadata_offset([](std::size_t& o) { o += 3; });
    CHECK(m.metadata_at(2, 0) == text.find(R"({"c")") + 3);
  }
}
