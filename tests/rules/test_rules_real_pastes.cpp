// Rule repairs on real pastes of issue 34's first-contact batch (073: a CartesianProduct whose
// condition is a UDF; 083: a Photon explanation naming only CollectLimit), with their near misses.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "lint/engine/engine.hpp"
#include "tests/rules/rule_test_helpers.hpp"
#include "tests/support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

// `text` with each `from` (which must be there) replaced once by its `to`: a near miss made from a
// real paste.
std::string replaced(std::string text, std::initializer_list<std::pair<std::string, std::string>> edits) {
  for (const auto& edit : edits) {  // not a structured binding: doctest's message lambda captures it (clang 14)
    const std::string& from = edit.first;
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), edit.second);
  }
  return text;
}

}  // namespace

TEST_CASE("cartesian-product: a CartesianProduct whose condition is a UDF (real paste 073)") {
  const std::string plan =
      "== Physical Plan ==\n"
      "CartesianProduct UDF:st_intersects(geom#32, the_geom#101)\n"
      ":- *(1) Scan GeoMesaRelation[geom#32]\n"
      "+- *(2) Scan GeoMesaRelation[the_geom#101]\n";
  LintResult lr = lint_text(plan, "cp.txt", only_rule("cartesian-product"));
  const Diagnostic* d = find(lr, "cartesian-product");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("evaluates its condition") != std::string::npos);
  CHECK(evidence(*d, "join condition")->value.find("st_intersects") != std::string::npos);

  SUBCASE("near miss: a BroadcastNestedLoopJoin with a condition stays silent") {
    const std::string bnlj =
        "== Physical Plan ==\n"
        "BroadcastNestedLoopJoin BuildRight, Inner, (x#1 < y#2)\n"
        ":- Scan parquet db.a[x#1]\n"
        "+- BroadcastExchange IdentityBroadcastMode, [plan_id=1]\n"
        "   +- Scan parquet db.b[y#2]\n";
    CHECK(find(lint_text(bnlj, "bnlj.txt", only_rule("cartesian-product")), "cartesian-product") == nullptr);
  }
}

TEST_CASE("native-engine-fallback: a Photon explanation naming only CollectLimit (real paste 083)") {
  const std::string text = read_file(corpus_dir() / "real/083-photon-json-fixture-collectlimit.txt");
  CHECK(find(lint_text(text, "083.txt", only_rule("native-engine-fallback")), "native-engine-fallback") == nullptr);
  SUBCASE("near miss: the same explanation naming an operator that did the work is still reported") {
    std::string other = text;
    const std::string from = "Unsupported node: CollectLimit 1.\\n\\nReference node:\\n\\tCollectLimit 1";
    const auto at = other.find(from);
    REQUIRE(at != std::string::npos);
    other.replace(at, from.size(), "Unsupported node: Generate explode.\\n\\nReference node:\\n\\tGenerate explode");
    CHECK(find(lint_text(other, "083.txt", only_rule("native-engine-fallback")), "native-engine-fallback") != nullptr);
  }
}

TEST_CASE("filter-not-pushed-down: Iceberg's [filters=...] is the scan's pushed list (live corpus iceberg_refused_filter)") {
  // What Spark 3.5.9 with iceberg-spark-runtime-3.5_2.12:1.10.0 printed for name LIKE '%42'
  // (endswith): Iceberg converts STARTS_WITH but not ENDS_WITH, so only name IS NOT NULL reached it.
  const std::string one_line =
      "== Physical Plan ==\n"
      "Project [v#20]\n"
      "+- Filter (isnotnull(name#19) AND EndsWith(name#19, 42))\n"
      "   +- BatchScan lake.db.events[name#19, v#20] lake.db.events (branch=null) [filters=name IS NOT NULL, groupedBy=] "
      "RuntimeFilters: []\n";
  const std::string formatted =
      "== Physical Plan ==\n"
      "* Project (4)\n"
      "+- * Filter (3)\n"
      "   +- * ColumnarToRow (2)\n"
      "      +- BatchScan lake.db.events (1)\n"
      "\n\n"
      "(1) BatchScan lake.db.events\n"
      "Output [2]: [name#19, v#20]\n"
      "lake.db.events (branch=null) [filters=name IS NOT NULL, groupedBy=]\n"
      "\n"
      "(2) ColumnarToRow [codegen id : 1]\n"
      "Input [2]: [name#19, v#20]\n"
      "\n"
      "(3) Filter [codegen id : 1]\n"
      "Input [2]: [name#19, v#20]\n"
      "Condition : (isnotnull(name#19) AND EndsWith(name#19, 42))\n"
      "\n"
      "(4) Project [codegen id : 1]\n"
      "Output [1]: [v#20]\n"
      "Input [2]: [name#19, v#20]\n";
  for (const std::string* text : {&one_line, &formatted}) {
    CAPTURE(*text);
    LintResult lr = lint_text(*text, "iceberg.txt", only_rule("filter-not-pushed-down"));
    const Diagnostic* d = find(lr, "filter-not-pushed-down");
    REQUIRE(d != nullptr);
    CHECK(d->message.find("evaluates `EndsWith(name#19, 42)`") != std::string::npos);
    CHECK(d->message.find("not in its pushed filters") != std::string::npos);
    CHECK(evidence(*d, "pushed filters")->value == "[name IS NOT NULL]");
    CHECK(d->fix.find("Iceberg") != std::string::npos);
  }
  SUBCASE("near miss: the predicate Iceberg accepted (iceberg_pushed_filter) is not reported") {
    const std::string pushed =
        replaced(formatted, {{"EndsWith(name#19, 42)", "(name#19 = n42)"},
                             {"[filters=name IS NOT NULL, groupedBy=]", "[filters=name IS NOT NULL, name = 'n42', groupedBy=]"}});
    CHECK(find(lint_text(pushed, "pushed.txt", only_rule("filter-not-pushed-down")), "filter-not-pushed-down") == nullptr);
  }
  SUBCASE("Iceberg 1.12 on Spark 4.1 prints the list inside IcebergScan(...), before runtimeFilters=") {
    const std::string v41 =
        replaced(formatted, {{"lake.db.events (branch=null) [filters=name IS NOT NULL, groupedBy=]",
                              "IcebergScan(table=lake.db.events, schemaId=0, snapshotId=1718913576566073459, branch=null, "
                              "filters=name IS NOT NULL, runtimeFilters=, groupedBy=)"}});
    const LintResult lr41 = lint_text(v41, "v41.txt", only_rule("filter-not-pushed-down"));
    const Diagnostic* d = find(lr41, "filter-not-pushed-down");
    REQUIRE(d != nullptr);
    CHECK(evidence(*d, "pushed filters")->value == "[name IS NOT NULL]");
    const std::string accepted =
        replaced(v41, {{"EndsWith(name#19, 42)", "(name#19 = n42)"},
                       {"filters=name IS NOT NULL, runtimeFilters=", "filters=name IS NOT NULL, name = 'n42', runtimeFilters="}});
    CHECK(find(lint_text(accepted, "acc.txt", only_rule("filter-not-pushed-down")), "filter-not-pushed-down") == nullptr);
  }
  SUBCASE("an empty list says Iceberg accepted nothing") {
    const std::string none = replaced(one_line, {{"[filters=name IS NOT NULL, groupedBy=]", "[filters=, groupedBy=]"}});
    const LintResult lrn = lint_text(none, "none.txt", only_rule("filter-not-pushed-down"));
    const Diagnostic* d = find(lrn, "filter-not-pushed-down");
    REQUIRE(d != nullptr);
    CHECK(evidence(*d, "pushed filters")->value == "[]");
  }
}
