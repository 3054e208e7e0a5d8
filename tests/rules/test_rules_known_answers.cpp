// Rule repairs with known answers (issue 38's live-Spark gaps G1, G2, G8): each trigger in the shape
// real Spark printed it, with its near misses.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lint/engine/engine.hpp"
#include "tests/rules/rule_test_helpers.hpp"
#include "tests/support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

// Two reads of one filtered table (simple explain, as Spark 4.3 prints duplicate_scan): `cols1` /
// `cols2` are the column lists of the two scans, `filter2` the second read's data filter.
std::string two_reads(const std::string& cols1, const std::string& schema1, const std::string& cols2,
                      const std::string& schema2, const std::string& filter2 = "(x#33L > 100)",
                      const std::string& location = "Location: InMemoryFileIndex(1 paths)[file:/data/events], ") {
  auto scan = [&location](const std::string& cols, const std::string& schema, const std::string& filter) {
    return "FileScan parquet [" + cols + "] Batched: true, DataFilters: [" + filter + "], Format: Parquet, " + location +
           "PartitionFilters: [], PushedFilters: [GreaterThan(x,100)], ReadSchema: struct<" + schema + ">\n";
  };
  return "== Physical Plan ==\n"
         "SortMergeJoin [code#9], [code#32], Inner\n"
         ":- HashAggregate(keys=[code#9], functions=[count(1)])\n"
         ":  +- Exchange hashpartitioning(code#9, 4), ENSURE_REQUIREMENTS, [plan_id=63]\n"
         ":     +- Filter (x#10L > 100)\n"
         ":        +- " +
         scan(cols1, schema1, "(x#10L > 100)") +
         "+- HashAggregate(keys=[code#32], functions=[sum(v#34)])\n"
         "   +- Exchange hashpartitioning(code#32, 4), ENSURE_REQUIREMENTS, [plan_id=65]\n"
         "      +- Filter " +
         filter2 +
         "\n"
         "         +- " +
         scan(cols2, schema2, filter2);
}

}  // namespace

TEST_CASE("duplicate-work: two reads of one filtered table, the columns of one within the other's (live G1)") {
  const std::string plan = two_reads("code#9,x#10L", "code:string,x:bigint", "code#32,x#33L,v#34",
                                     "code:string,x:bigint,v:double");
  LintResult lr = lint_text(plan, "dup.txt", only_rule("duplicate-work"));
  const Diagnostic* d = find(lr, "duplicate-work");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("with columns [code, x] within [code, v, x]") != std::string::npos);
  CHECK(d->message.find("is computed 2 times") != std::string::npos);
  CHECK(d->severity == Severity::Info);  // explain text: no measured size
  CHECK(evidence(*d, "copies")->number == doctest::Approx(2));
  CHECK(d->fix.find("union of the columns ([code, v, x])") != std::string::npos);

  SUBCASE("near miss: a different filter on the second read") {
    CHECK(lint_text(two_reads("code#9,x#10L", "code:string,x:bigint", "code#32,x#33L,v#34",
                              "code:string,x:bigint,v:double", "(x#33L > 200)"),
                    "dup.txt", only_rule("duplicate-work"))
              .diagnostics.empty());
  }
  SUBCASE("near miss: neither column list within the other") {
    CHECK(lint_text(two_reads("code#9,x#10L", "code:string,x:bigint", "v#34,x#33L", "v:double,x:bigint"), "dup.txt",
                    only_rule("duplicate-work"))
              .diagnostics.empty());
  }
  SUBCASE("near miss: no location, so no table identity") {
    CHECK(lint_text(two_reads("code#9,x#10L", "code:string,x:bigint", "code#32,x#33L,v#34",
                              "code:string,x:bigint,v:double", "(x#33L > 100)", ""),
                    "dup.txt", only_rule("duplicate-work"))
              .diagnostics.empty());
  }
  SUBCASE("identical columns: reported as before, as one repeated scan") {
    LintResult same = lint_text(two_reads("code#9,x#10L", "code:string,x:bigint", "code#32,x#33L",
                                          "code:string,x:bigint"),
                                "dup.txt", only_rule("duplicate-work"));
    REQUIRE(same.diagnostics.size() == 1);
    CHECK(same.diagnostics[0].message.find("the same scan and filter") != std::string::npos);
  }
}

TEST_CASE("duplicate-work: the copies among several reads that share a head, whatever their place") {
  // Four scans with one head (FileScan parquet): two reads of /data/a with one filter (the first
  // and the third), a read of /data/b, and a read of /data/a with another filter. One finding,
  // of two copies; moving the copies around does not change it.
  auto scan = [](const std::string& cols, const std::string& where, const std::string& filter, const std::string& pushed) {
    return "FileScan parquet [" + cols + "] Batched: true, DataFilters: [" + filter +
           "], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/data/" + where +
           "], PartitionFilters: [], PushedFilters: [" + pushed + "], ReadSchema: struct<code:string,x:bigint>\n";
  };
  const std::string a1 = "Filter (x#1L > 100)\n:  +- " + scan("code#0,x#1L", "a", "(x#1L > 100)", "GreaterThan(x,100)");
  const std::string b = scan("code#2,x#3L", "b", "", "");
  const std::string a2 = "Filter (x#5L > 100)\n:  +- " + scan("code#4,x#5L", "a", "(x#5L > 100)", "GreaterThan(x,100)");
  const std::string a3 = "Filter (x#7L > 200)\n   +- " + scan("code#6,x#7L", "a", "(x#7L > 200)", "GreaterThan(x,200)");
  for (const auto& order : {std::vector<std::string>{a1, b, a2}, std::vector<std::string>{b, a1, a2},
                            std::vector<std::string>{a1, a2, b}}) {
    const std::string plan = "== Physical Plan ==\nUnion\n:- " + order[0] + ":- " + order[1] + ":- " + order[2] + "+- " + a3;
    CAPTURE(plan);
    LintResult lr = lint_text(plan, "heads.txt", only_rule("duplicate-work"));
    REQUIRE(lr.diagnostics.size() == 1);
    CHECK(lr.diagnostics[0].message.find("the same scan and filter") != std::string::npos);
    CHECK(lr.diagnostics[0].message.find("is computed 2 times") != std::string::npos);
    CHECK(evidence(lr.diagnostics[0], "copies")->number == doctest::Approx(2));
  }
}

TEST_CASE("duplicate-work: copies found whether their keys were kept from the first pass or built again") {
  // The rule keeps the first pass's group keys up to 256 KiB and builds the others again: scans
  // whose locations run to 100,000 bytes fill it with two or three keys, so a later scan's key is
  // built again and compared with a kept one (or with another built again). The answer is the one
  // of short keys.
  const std::string long_a = std::string(100'000, 'a'), long_b = std::string(100'000, 'b');
  auto scan = [](const std::string& cols, const std::string& where, const std::string& filter, const std::string& pushed) {
    return "FileScan parquet [" + cols + "] Batched: true, DataFilters: [" + filter +
           "], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/data/" + where +
           "], PartitionFilters: [], PushedFilters: [" + pushed + "], ReadSchema: struct<code:string,x:bigint>\n";
  };
  const std::string a1 = "Filter (x#1L > 100)\n:  +- " + scan("code#0,x#1L", long_a, "(x#1L > 100)", "GreaterThan(x,100)");
  const std::string b = scan("code#2,x#3L", long_b, "", "");
  const std::string a2 = "Filter (x#5L > 100)\n:  +- " + scan("code#4,x#5L", long_a, "(x#5L > 100)", "GreaterThan(x,100)");
  const std::string a3 = "Filter (x#7L > 200)\n   +- " + scan("code#6,x#7L", long_a, "(x#7L > 200)", "GreaterThan(x,200)");
  for (const auto& order : {std::vector<std::string>{a1, b, a2}, std::vector<std::string>{b, a1, a2},
                            std::vector<std::string>{a1, a2, b}}) {
    const std::string plan = "== Physical Plan ==\nUnion\n:- " + order[0] + ":- " + order[1] + ":- " + order[2] + "+- " + a3;
    LintResult lr = lint_text(plan, "long.txt", only_rule("duplicate-work"));
    REQUIRE(lr.diagnostics.size() == 1);
    CHECK(lr.diagnostics[0].message.find("the same scan and filter") != std::string::npos);
    CHECK(lr.diagnostics[0].message.find("is computed 2 times") != std::string::npos);
    CHECK(evidence(lr.diagnostics[0], "copies")->number == doctest::Approx(2));
  }
  // Two pairs of copies, the second pair's keys both built again: two findings.
  const std::string b2 = scan("code#8,x#9L", long_b, "", "");
  const std::string plan = "== Physical Plan ==\nUnion\n:- " + a1 + ":- " + b + ":- " + a2 + "+- " + b2;
  CHECK(lint_text(plan, "long.txt", only_rule("duplicate-work")).diagnostics.size() == 2);
}

TEST_CASE("duplicate-work: near miss, RDD scans with nested columns have no table identity") {
  const std::string plan =
      "== Physical Plan ==\n"
      "Union\n"
      ":- Filter (x#1L > 100)\n"
      ":  +- Scan ExistingRDD[code#0,x#1L]\n"
      "+- Filter (x#11L > 100)\n"
      "   +- Scan ExistingRDD[code#10,x#11L,v#12]\n";
  CHECK(lint_text(plan, "rdd.txt", only_rule("duplicate-work")).diagnostics.empty());
}

TEST_CASE("duplicate-work: near miss, the scan of an AQE bloom-filter subquery (rt04, NDS q72)") {
  // As Spark 3.5 prints a runtime filter with AQE: the subquery's final and initial plans share
  // its scan (21), which so has two parents; the join reads the same filtered dims at (4).
  const std::string plan =
      read_file(corpus_dir() / "rules/duplicate-work/near-miss-formatted-bloom-filter-aqe-subquery.txt");
  LintResult lr = lint_text(plan, "bloom.txt", only_rule("duplicate-work"));
  CHECK(lr.diagnostics.empty());
  REQUIRE(lr.parse.plans.size() == 1);
  const Plan& p = lr.parse.plans[0];
  // The typed fact the rule reads: every operator below a bloom_filter_agg aggregate, the shared
  // scan included; none of the main plan's.
  for (const Operator& op : p.ops) {
    INFO(op.name.str() << " (" << op.id.str() << ")");
    const bool in_subquery = !op.id.empty() && std::stoi(op.id.str()) >= 21 && op.kind != OpKind::AdaptivePlan &&
                             !(op.id == "28" || op.id == "33");  // the final aggregates are above it
    CHECK(op.facts->runtime_filter_side == in_subquery);
  }

  SUBCASE("control: an ordinary aggregate in its place is a user's repeat, reported") {
    std::string plain = plan;
    for (std::size_t at; (at = plain.find("bloom_filter_agg")) != std::string::npos;) plain.replace(at, 16, "max");
    LintResult repeat = lint_text(plain, "max.txt", only_rule("duplicate-work"));
    REQUIRE(repeat.diagnostics.size() == 1);
    CHECK(repeat.diagnostics[0].message.find("(21) repeats") != std::string::npos);
  }
}

namespace {

// The final adaptive plan of duplicate_scan (Spark 4.3.0): both join inputs are final
// HashAggregates over the query stages of their own shuffle; `functions` is the left aggregate's.
std::string aggregated_join(const std::string& functions) {
  return "== Physical Plan ==\n"
         "AdaptiveSparkPlan (14)\n"
         "+- == Final Plan ==\n"
         "   * SortMergeJoin Inner (13)\n"
         "   :- * Sort (6)\n"
         "   :  +- * HashAggregate (5)\n"
         "   :     +- AQEShuffleRead (4), coalesced\n"
         "   :        +- ShuffleQueryStage (3), Statistics(sizeInBytes=49.9 KiB, rowCount=1.60E+3)\n"
         "   :           +- Exchange (2)\n"
         "   :              +- Scan parquet  (1)\n"
         "   +- * Sort (12)\n"
         "      +- * HashAggregate (11)\n"
         "         +- AQEShuffleRead (10), coalesced\n"
         "            +- ShuffleQueryStage (9), Statistics(sizeInBytes=49.9 KiB, rowCount=1.60E+3)\n"
         "               +- Exchange (8)\n"
         "                  +- Scan parquet  (7)\n"
         "\n\n"
         "(5) HashAggregate [codegen id : 2]\n"
         "Input [2]: [code#9, count#48L]\n"
         "Keys [1]: [code#9]\n"
         "Functions [1]: [" +
         functions +
         "]\n"
         "Aggregate Attributes [1]: [count(1)#20L]\n"
         "Results [2]: [code#9, count(1)#20L AS n#13L]\n"
         "\n"
         "(11) HashAggregate [codegen id : 4]\n"
         "Input [2]: [code#32, sum#50]\n"
         "Keys [1]: [code#32]\n"
         "Functions [1]: [partial_sum(v#34)]\n"
         "Aggregate Attributes [1]: [sum#49]\n"
         "Results [2]: [code#32, sum#50]\n"
         "\n"
         "(13) SortMergeJoin [codegen id : 5]\n"
         "Left keys [1]: [code#9]\n"
         "Right keys [1]: [code#32]\n"
         "Join type: Inner\n"
         "Join condition: None\n";
}

}  // namespace

TEST_CASE("shuffle-join-could-broadcast: a size bound through a final HashAggregate (live G2)") {
  LintResult lr = lint_text(aggregated_join("count(1)"), "agg.txt", only_rule("shuffle-join-could-broadcast"));
  const Diagnostic* d = find(lr, "shuffle-join-could-broadcast");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("the left side is at most 49.9 KiB (ShuffleQueryStage (3) below HashAggregate (5)") !=
        std::string::npos);
  CHECK(evidence(*d, "left side size")->number == doctest::Approx(51098).epsilon(0.001));
  CHECK(evidence(*d, "left side size bound")->value.find("HashAggregate (5)") != std::string::npos);
  CHECK(evidence(*d, "left side rows (at most)") != nullptr);
  // The right side's aggregate is partial (its buffers may make it wider than its input): no size.
  CHECK(d->message.find("and the other side") == std::string::npos);

  SUBCASE("near miss: a partial aggregate on both sides gives no bound") {
    CHECK(find(lint_text(aggregated_join("partial_count(1)"), "agg.txt", only_rule("shuffle-join-could-broadcast")),
               "shuffle-join-could-broadcast") == nullptr);
  }
}

TEST_CASE("wide-projection: a projection that passes every column on is looked through (live G8)") {
  std::string cols;
  for (int i = 0; i < 30; ++i) {
    cols += ", c" + std::to_string(i) + "#" + std::to_string(32 + i) + "L";
  }
  const std::string all = "id#31L" + cols;
  auto plan = [&all](const std::string& top_output) {
    return "== Physical Plan ==\n"
           "HashAggregate (4)\n"
           "+- Project (3)\n"
           "   +- Project (2)\n"
           "      +- Scan parquet  (1)\n"
           "\n\n"
           "(1) Scan parquet \n"
           "Output [31]: [" +
           all +
           "]\n"
           "Location: InMemoryFileIndex [file:/data/wide]\n"
           "\n"
           "(2) Project\n"
           "Output [32]: [" +
           all +
           ", rand(7) AS r#63]\n"
           "Input [31]: [" +
           all +
           "]\n"
           "\n"
           "(3) Project\n"
           "Output [2]: [" +
           top_output +
           "]\n"
           "Input [32]: [" +
           all +
           ", r#63]\n"
           "\n"
           "(4) HashAggregate\n"
           "Input [2]: [id#31L, r#63]\n"
           "Keys: []\n"
           "Functions [2]: [sum(id#31L), max(r#63)]\n";
  };
  LintResult lr = lint_text(plan("id#31L, r#63"), "wide.txt", only_rule("wide-projection"));
  const Diagnostic* d = find(lr, "wide-projection");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("reads 31 columns but Project (3) and the operators below it use 1") != std::string::npos);
  CHECK(evidence(*d, "pass-through projection")->value.find("Project (2)") != std::string::npos);

  SUBCASE("near miss: the projection above uses most columns") {
    std::string used = "id#31L";
    for (int i = 0; i < 28; ++i) used += ", c" + std::to_string(i) + "#" + std::to_string(32 + i) + "L";
    CHECK(find(lint_text(plan(used), "wide.txt", only_rule("wide-projection")), "wide-projection") == nullptr);
  }
  SUBCASE("near miss: a computed column of the pass-through projection uses the columns") {
    std::string p = plan("id#31L, r#63");
    const std::string from = "rand(7) AS r#63";
    std::string sum = "(";
    for (int i = 0; i < 30; ++i) sum += std::string(i ? " + " : "") + "c" + std::to_string(i) + "#" + std::to_string(32 + i) + "L";
    sum += ") AS r#63";
    p.replace(p.find(from), from.size(), sum);
    CHECK(find(lint_text(p, "wide.txt", only_rule("wide-projection")), "wide-projection") == nullptr);
  }
}
