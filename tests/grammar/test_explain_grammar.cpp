// The explain line grammars (grammar/explain.hpp): pegtl::analyze finds no rule that can loop
// without consuming input, and each line matcher returns the right pieces.
#include <doctest/doctest.h>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "grammar/explain.hpp"
#include "parser/explain/explain_lines.hpp"

namespace g = planlint::grammar::explain;
using namespace planlint::explain;

TEST_CASE("explain grammars: pegtl::analyze finds no problem") {
  namespace pegtl = tao::pegtl;
  CHECK(pegtl::analyze<g::formatted_tree_line>(0) == 0);
  CHECK(pegtl::analyze<g::plain_tree_line>(0) == 0);
  CHECK(pegtl::analyze<g::aqe_header>(0) == 0);
  CHECK(pegtl::analyze<g::mode_header>(0) == 0);
  CHECK(pegtl::analyze<g::subqueries_marker>(0) == 0);
  CHECK(pegtl::analyze<g::optimized_out_marker>(0) == 0);
  CHECK(pegtl::analyze<g::subplan_line>(0) == 0);
  CHECK(pegtl::analyze<g::subquery_line>(0) == 0);
  CHECK(pegtl::analyze<g::block_header>(0) == 0);
  CHECK(pegtl::analyze<g::field_line>(0) == 0);
  CHECK(pegtl::analyze<g::stats_list>(0) == 0);
}

TEST_CASE("formatted tree line: lead, codegen marker, label, id, statistics") {
  TreeLine t;
  REQUIRE(match_formatted_tree_line("   :  +- * BroadcastHashJoin Inner BuildRight (8)", t, nullptr));
  CHECK(t.column == 9);
  CHECK(t.label_column == 11);
  CHECK(t.connector);
  CHECK(t.codegen);
  CHECK(t.label == "BroadcastHashJoin Inner BuildRight");
  CHECK(t.id == "8");

  REQUIRE(match_formatted_tree_line("   ResultQueryStage (8), Statistics(sizeInBytes=8.0 EiB)", t, nullptr));
  CHECK(t.column == 3);
  CHECK_FALSE(t.connector);
  CHECK(t.label == "ResultQueryStage");
  CHECK(t.has_stats);
  CHECK(t.stats == "sizeInBytes=8.0 EiB");

  REQUIRE(match_formatted_tree_line("+- InMemoryTableScan (1) (columnarIn=false, columnarOut=true)", t, nullptr));
  CHECK(t.id == "1");
  CHECK(t.label == "InMemoryTableScan");
  CHECK(t.columnar == "(columnarIn=false, columnarOut=true)");

  // Parentheses inside the label; the id is the LAST group at the end of the line.
  REQUIRE(match_formatted_tree_line(":- BroadcastHashJoin ExistenceJoin(exists#12) BuildRight (4)", t, nullptr));
  CHECK(t.label == "BroadcastHashJoin ExistenceJoin(exists#12) BuildRight");
  CHECK(t.id == "4");
  REQUIRE(match_formatted_tree_line("Scan JDBCRelation(s.t) [numPartitions=4] (1)", t, nullptr));
  CHECK(t.label == "Scan JDBCRelation(s.t) [numPartitions=4]");
  REQUIRE(match_formatted_tree_line("+- Scan parquet  (1)", t, nullptr));
  CHECK(t.label == "Scan parquet ");
  REQUIRE(match_formatted_tree_line("   +- Project (unknown)", t, nullptr));
  CHECK(t.id == "unknown");
  REQUIRE(match_formatted_tree_line("+- ^ ProjectExecTransformer (31)", t, nullptr));
  CHECK(t.codegen);
  REQUIRE(match_formatted_tree_line("+- ShuffleQueryStage (27), Statistics(X)", t, nullptr));
  CHECK(t.stats == "X");
}

TEST_CASE("formatted tree line: must<> gives 'expected ...' with a column") {
  TreeLine t;
  LineError err;
  CHECK_FALSE(match_formatted_tree_line("   +- HashAggregate(keys=[a#1], functions=[])", t, &err));
  CHECK(err.message == "expected ' (<operator id>)' at the end of the tree line");
  CHECK(err.column == 45);
}

TEST_CASE("plain tree line: default-mode codegen stage and cost-mode statistics") {
  TreeLine t;
  REQUIRE(match_plain_tree_line(":  +- *(3) Project [a#1, b#2]", t));
  CHECK(t.column == 6);
  CHECK(t.codegen_stage == 3);
  CHECK(t.label == "Project [a#1, b#2]");
  REQUIRE(match_plain_tree_line("+- Filter isnotnull(id#110L), Statistics(sizeInBytes=12.0 MiB)", t));
  CHECK(t.label == "Filter isnotnull(id#110L)");
  CHECK(t.stats == "sizeInBytes=12.0 MiB");
}

TEST_CASE("AQE headers and section markers") {
  AqeTitle title;
  std::uint32_t col = 0;
  REQUIRE(match_aqe_header("   +- == Initial Plan ==", title, col));
  CHECK(title == AqeTitle::Initial);
  CHECK(col == 3);
  REQUIRE(match_aqe_header("+- == Final Plan ==", title, col));
  CHECK(title == AqeTitle::Final);
  CHECK_FALSE(match_aqe_header("+- == Other Plan ==", title, col));

  std::string_view t;
  REQUIRE(match_mode_header("== Optimizer Statistics (table names per statistics state) ==", t));
  CHECK(t == "Optimizer Statistics (table names per statistics state)");
  CHECK_FALSE(match_mode_header("===== Subqueries =====", t));
  CHECK(match_subqueries_marker("===== Subqueries ====="));
  CHECK(match_optimized_out_marker("===== Adaptively Optimized Out Exchanges ====="));

  int n = 0;
  CHECK(match_subplan_line("Subplan:2", n, nullptr));
  CHECK(n == 2);
  LineError err;
  CHECK_FALSE(match_subplan_line("Subplan:x", n, &err));
  CHECK(err.message == "expected a number after 'Subplan:'");
}

TEST_CASE("subquery line") {
  SubqueryLine s;
  LineError err;
  REQUIRE(match_subquery_line("Subquery:2 Hosting operator id = 1 Hosting Expression = day_id#21 IN dynamicpruning#30", s, &err));
  CHECK(s.number == 2);
  CHECK(s.hosting_id == "1");
  CHECK(s.expression == "day_id#21 IN dynamicpruning#30");
  CHECK(s.expression_column == 56);
  CHECK_FALSE(match_subquery_line("Subquery:3 Hosting op id = 1", s, &err));
  CHECK(err.message == "expected ' Hosting operator id = '");
  CHECK(err.column == 10);
  CHECK_FALSE(match_subquery_line("Subqueries", s, &err));
}

TEST_CASE("detail block header") {
  BlockHeader h;
  REQUIRE(match_block_header("(12) HashAggregate [codegen id : 3]", h));
  CHECK(h.id == "12");
  CHECK(h.name == "HashAggregate");
  CHECK(h.codegen_stage == 3);
  REQUIRE(match_block_header("(7) ReusedExchange [Reuses operator id: 5]", h));
  CHECK(h.has_reuses);
  CHECK(h.reuses == "5");
  REQUIRE(match_block_header("(1) Scan csv  [codegen id : 1]", h));
  CHECK(h.name == "Scan csv");
  REQUIRE(match_block_header("(3) ReusedExchange [Reuses operator id: unknown]", h));
  CHECK(h.reuses == "unknown");
  CHECK_FALSE(match_block_header("(amount#1 > 5)", h));
}

TEST_CASE("field lines") {
  FieldLine f;
  REQUIRE(match_field_line("Left keys [1]: [cust_id#101L]", f));
  CHECK(f.key == "Left keys");
  CHECK(f.count == 1u);
  CHECK(f.value == "[cust_id#101L]");
  CHECK(f.value_column == 15);
  REQUIRE(match_field_line("Condition : isnotnull(id#1)", f));
  CHECK(f.key == "Condition");
  CHECK(f.value == "isnotnull(id#1)");
  REQUIRE(match_field_line("Keys: []", f));
  CHECK(f.key == "Keys");
  CHECK(f.value == "[]");
  REQUIRE(match_field_line("Join type: Inner", f));
  CHECK(f.key == "Join type");
  REQUIRE(match_field_line("Location [not included in comparison]/{warehouse_dir}/t]", f));
  CHECK(f.key == "Location");
  CHECK_FALSE(match_field_line("iceberg.db.events [filters=ts > 100, groupedBy=]", f));
  CHECK_FALSE(match_field_line("  [L]: Relation", f));
}

TEST_CASE("field lines: a FieldLine read into again holds only the new line's pieces") {
  // match_field_line starts only the count over and sets the other members where it matches: a
  // FieldLine that held a counted line, then a plain one, a bare key and a masked one, must hold
  // each line's own pieces (no count left from an earlier line).
  FieldLine f;
  REQUIRE(match_field_line("Output [2]: [a#1, b#2]", f));
  CHECK(f.count == 2u);
  REQUIRE(match_field_line("Arguments: x", f));
  CHECK(f.key == "Arguments");
  CHECK(f.value == "x");
  CHECK(f.value_column == 11);
  CHECK_FALSE(f.count.has_value());
  REQUIRE(match_field_line("Input [3]: [a#1, b#2, c#3]", f));
  REQUIRE(match_field_line("Batched:", f));
  CHECK(f.key == "Batched");
  CHECK(f.value.empty());
  CHECK(f.value_column == 8);
  CHECK_FALSE(f.count.has_value());
  REQUIRE(match_field_line("Left keys [1]: [k#1]", f));
  REQUIRE(match_field_line("Condition : (a#1 > 1)", f));
  CHECK(f.key == "Condition");
  CHECK(f.value == "(a#1 > 1)");
  CHECK(f.value_column == 12);
  CHECK_FALSE(f.count.has_value());
  // A counted line without its ':' matches nothing, but its count was read (as the grammar's
  // action does): the next line that matches starts it over.
  CHECK_FALSE(match_field_line("Output [7] [a#1]", f));
  REQUIRE(match_field_line("Location [not included in comparison]/{warehouse_dir}/t]", f));
  CHECK(f.key == "Location");
  CHECK_FALSE(f.count.has_value());
}

TEST_CASE("statistics body: units and scientific notation") {
  StatsValues v;
  REQUIRE(parse_stats_body("sizeInBytes=240.0 B, rowCount=10", v));
  CHECK(*v.size_bytes == doctest::Approx(240.0));
  CHECK(*v.row_count == doctest::Approx(10.0));
  REQUIRE(parse_stats_body("sizeInBytes=1024.0 KiB, rowCount=1.23E+6", v));
  CHECK(*v.size_bytes == doctest::Approx(1024.0 * 1024));
  CHECK(*v.row_count == doctest::Approx(1.23e6));
  REQUIRE(parse_stats_body("sizeInBytes=8.0 EiB", v));
  CHECK(*v.size_bytes == doctest::Approx(8.0 * 1152921504606846976.0));
  CHECK_FALSE(v.row_count);
  REQUIRE(parse_stats_body("X", v));
  CHECK(v.masked);
  CHECK_FALSE(v.size_bytes);
}
