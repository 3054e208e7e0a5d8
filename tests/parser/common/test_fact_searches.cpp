// The fact code's fast paths find every match the plain substring search finds: the byte set that
// rules words out, the search through a rarer byte of a word, the skip of a text inside one
// searched already, and the explain facts that use them (one case per place a match can be).
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "support/text_search.hpp"
#include "parser/explain/explain.hpp"

using namespace planlint;

TEST_CASE("text search: ByteSet never rules out a word the text holds") {
  const std::string_view texts[] = {"", "Project", "StateStoreSave", "Scan parquet spark_catalog.db.t_0",
                                    "EventTimeWatermark x#1: timestamp", "RowToColumnar", "[a#1, b#2L] 0x9f"};
  const std::string_view words[] = {"Stat", "Stream", "MicroBatch", "Watermark", "columnar", "a#1", "0x", "t_0", "Z"};
  for (std::string_view t : texts) {
    const ByteSet set(t);
    for (std::string_view w : words)
      if (contains(t, w)) CHECK_MESSAGE(set.may_contain(ByteSet(w)), t << " / " << w);
  }
  CHECK_FALSE(ByteSet("Project").may_contain(ByteSet("Stat")));
  CHECK_FALSE(ByteSet("HashAggregate").may_contain_folded(ByteSet("columnar")));
  // Folded: an upper-case letter of the text counts for its lower-case letter.
  CHECK(ByteSet("RowToCOLUMNAR").may_contain_folded(ByteSet("columnar")));
  CHECK(ByteSet("ColumnarToRow").may_contain_folded(ByteSet("rowto")));
  CHECK_FALSE(ByteSet("COLUMNR").may_contain_folded(ByteSet("columnar")));
}

TEST_CASE("text search: find_via finds the first place, wherever the rarer byte is") {
  const std::string_view word = "EXECUTOR_BROADCAST";
  for (std::size_t k : {0u, 1u, 5u, 17u}) {
    CAPTURE(k);
    CHECK(find_via("EXECUTOR_BROADCAST", word, k) == 0);
    CHECK(find_via("xEXECUTOR_BROADCAST", word, k) == 1);
    CHECK(find_via("EXECUTOR_BROADCASEXECUTOR_BROADCAST, EXECUTOR_BROADCAST", word, k) == 17);
    CHECK(find_via("EXECUTOR_BROADCAS", word, k) == std::string_view::npos);
    CHECK(find_via("XECUTOR_BROADCAST", word, k) == std::string_view::npos);
    CHECK(find_via("", word, k) == std::string_view::npos);
  }
  // The byte at k occurring before the word's start, and at the very end of the text.
  CHECK(contains_via("fields, 3 more fields", "more fields", 5));
  CHECK(contains_via("more fields", "more fields", 5));
  CHECK_FALSE(contains_via("fields more field", "more fields", 5));
  CHECK(find_via("a [COMET: b] [COMET: c]", "[COMET: ", 3) == 2);
}

TEST_CASE("text search: lies_within") {
  const std::string_view label = "Exchange hashpartitioning(a#1, 200), ENSURE_REQUIREMENTS";
  CHECK(lies_within(label.substr(9), label));
  CHECK(lies_within(label, label));
  CHECK_FALSE(lies_within(label, label.substr(9)));
  const std::string copy(label.substr(9));
  CHECK_FALSE(lies_within(copy, label));
}

namespace {

const Operator& only_op(const ParseResult& r, std::string_view name) {
  REQUIRE(r.plans.size() == 1);
  for (const Operator& op : r.plans[0].ops)
    if (op.name == name) return op;
  FAIL("no operator " << name);
  return r.plans[0].ops.front();
}

}  // namespace

TEST_CASE("explain facts: each marker is found in every part that can hold it") {
  SUBCASE("formatted: EXECUTOR_BROADCAST and the Comet note in the Arguments field (also the arguments)") {
    const ParseResult r = parse_explain_text(R"(== Physical Plan ==
BroadcastExchange (2)
+- Scan parquet t (1)

(1) Scan parquet t
Output [1]: [a#1]

(2) BroadcastExchange
Input [1]: [a#1]
Arguments: HashedRelationBroadcastMode(List(a#1),false), EXECUTOR_BROADCAST, [COMET: unsupported mode], [plan_id=3]
)",
                                             "t.txt");
    const Operator& op = only_op(r, "BroadcastExchange");
    CHECK(op.facts->partitioning.executor_broadcast);
    CHECK(*op.facts->fallback_reason == "unsupported mode");
    CHECK(r.plans[0].facts.engine.spark_major == 3);
    CHECK(r.plans[0].facts.engine.spark_minor == 3);
  }
  SUBCASE("formatted: the Comet note in a field other than the arguments, and more fields in a list") {
    const ParseResult r = parse_explain_text(R"(== Physical Plan ==
Project (2)
+- Scan parquet t (1)

(1) Scan parquet t
Output [2]: [a#1, ... 3 more fields]

(2) Project
Output [1]: [a#1]
Input [1]: [a#1 [COMET: not supported]]
)",
                                             "t.txt");
    CHECK(*only_op(r, "Project").facts->fallback_reason == "not supported");
    const Operator& scan = *r.plans[0].find_id("1");
    REQUIRE(scan.field(FieldRole::Output) != nullptr);
    CHECK(scan.field(FieldRole::Output)->more_fields);
  }
  SUBCASE("default mode: markers in the label's arguments") {
    const ParseResult r = parse_explain_text(R"(== Physical Plan ==
*(2) Project [a#1] [COMET: no codegen]
+- Exchange hashpartitioning(a#1, 200), ENSURE_REQUIREMENTS, [id=#7]
   +- StateStoreSave [a#1], EXECUTOR_BROADCAST
      +- *(1) RowToColumnar
         +- LocalTableScan [a#1]
)",
                                             "t.txt");
    CHECK(*only_op(r, "Project").facts->fallback_reason == "no codegen");
    const Operator& ex = only_op(r, "Exchange");
    CHECK(ex.facts->partitioning.partitions == 200u);
    CHECK(ex.facts.in_store());  // filled inside the plan's BlockScope: in its store, no heap block
    CHECK(r.plans[0].facts.engine.spark_major == 3);
    CHECK(r.plans[0].facts.engine.spark_minor == 1);
    const Operator& save = only_op(r, "StateStoreSave");
    CHECK(save.facts->streaming);
    CHECK(save.facts->partitioning.executor_broadcast);
    CHECK(only_op(r, "RowToColumnar").facts->row_to_columnar);
  }
  SUBCASE("the Comet note behind the whole-input check: spelled only once unescaped, or absent") {
    // The Project's fallback reason, "" when it has none.
    auto reason = [](std::string_view project_args) {
      const ParseResult r = parse_explain_text("== Physical Plan ==\n*(2) Project [a#1]" + std::string(project_args) +
                                                   "\n+- LocalTableScan [a#1]\n",
                                               "t.html");
      const Operator& p = only_op(r, "Project");
      return p.facts->fallback_reason.present() ? *p.facts->fallback_reason : std::string();
    };
    // The input never holds "[COMET: " itself (an HTML-escaped blank): normalize's rewrite must
    // not be ruled out by the check of the input.
    CHECK(reason(" [COMET:&nbsp;no codegen]") == "no codegen");
    CHECK(reason("") == "");
  }
  SUBCASE("EXECUTOR_BROADCAST and [plan_id= behind the whole-input check") {
    auto plan = [](std::string_view exchange_args) {
      return parse_explain_text("== Physical Plan ==\n*(2) Project [a#1]\n+- BroadcastExchange IdentityBroadcastMode" +
                                    std::string(exchange_args) + "\n   +- LocalTableScan [a#1]\n",
                                "t.html");
    };
    // Spelled only once unescaped (`&#95;` is '_'): still found.
    const ParseResult escaped = plan(", EXECUTOR&#95;BROADCAST, [plan&#95;id=3]");
    CHECK(only_op(escaped, "BroadcastExchange").facts->partitioning.executor_broadcast);
    CHECK(escaped.plans[0].facts.engine.spark_minor == 3);
    // Absent: neither is made up.
    const ParseResult plain = plan(", [id=#3]");
    CHECK_FALSE(only_op(plain, "BroadcastExchange").facts->partitioning.executor_broadcast);
    CHECK(plain.plans[0].facts.engine.spark_minor != 3);
  }
}

TEST_CASE("common facts: the parts derive_common_facts gives an operator are in the plan's store") {
  // A global aggregate and a join with keys: derive_common_facts is the first to set their facts
  // (global_aggregate, join_has_condition), inside the plan's BlockScope.
  const ParseResult r = parse_explain_text(R"(== Physical Plan ==
HashAggregate(keys=[], functions=[count(1)])
+- SortMergeJoin [a#1], [b#2], Inner
   :- LocalTableScan [a#1]
   +- LocalTableScan [b#2]
)",
                                           "t.txt");
  const Operator& agg = only_op(r, "HashAggregate");
  REQUIRE(agg.facts.present());
  CHECK(agg.facts->global_aggregate);
  CHECK(agg.facts.in_store());
  const Operator& join = only_op(r, "SortMergeJoin");
  REQUIRE(join.facts.present());
  CHECK(join.facts->join_has_condition);
  CHECK(join.facts.in_store());
}

namespace {

// The role fill_explain_facts gave the field of `op` with `key` (None when it gave none).
FieldRole role_of_key(const Operator& op, std::string_view key) {
  for (const Field& f : op.fields)
    if (std::string_view(f.key) == key) return f.role;
  FAIL("no field " << key);
  return FieldRole::None;
}

}  // namespace

TEST_CASE("explain facts: a detail key names its role only when every byte matches") {
  // Keys of 4 to 19 bytes (each of the word compares: under 8, 8 to 16, over 16), and keys of
  // the same lengths one byte off at the start, the middle or the end.
  const ParseResult r = parse_explain_text(R"(== Physical Plan ==
Scan parquet t (1)

(1) Scan parquet t
Output [1]: [a#1]
Keys: [a#1]
Input [1]: [a#1]
Location: InMemoryFileIndex [file:/t]
ReadSchema: struct<a:int>
PushedFilters: [IsNotNull(a)]
PartitionFilters: []
RequiredDataFilters: [isnotnull(a#1)]
OptionalDataFilters: [isnotnull(a#1)]
ClusteringColumns: [a#1]
Kexs: [a#1]
Outpux: x
Inpux: x
ReadSchemX: x
PushedFiltexs: x
XartitionFilters: x
RequiredDataFilterz: x
OptionalDatxFilters: x
)",
                                           "t.txt");
  REQUIRE(r.plans.size() == 1);
  const Operator& scan = *r.plans[0].find_id("1");
  CHECK(role_of_key(scan, "Output") == FieldRole::Output);
  CHECK(role_of_key(scan, "Keys") == FieldRole::GroupingKeys);
  CHECK(role_of_key(scan, "Input") == FieldRole::Input);
  CHECK(role_of_key(scan, "Location") == FieldRole::Location);
  CHECK(role_of_key(scan, "ReadSchema") == FieldRole::ReadSchema);
  CHECK(role_of_key(scan, "PushedFilters") == FieldRole::PushedFilters);
  CHECK(role_of_key(scan, "PartitionFilters") == FieldRole::PartitionFilters);
  CHECK(role_of_key(scan, "RequiredDataFilters") == FieldRole::RequiredDataFilters);
  CHECK(role_of_key(scan, "OptionalDataFilters") == FieldRole::OptionalDataFilters);
  CHECK(role_of_key(scan, "ClusteringColumns") == FieldRole::Clustering);
  for (std::string_view off : {"Kexs", "Outpux", "Inpux", "ReadSchemX", "PushedFiltexs", "XartitionFilters",
                               "RequiredDataFilterz", "OptionalDatxFilters"}) {
    CAPTURE(off);
    CHECK(role_of_key(scan, off) == FieldRole::None);
  }
}

TEST_CASE("explain facts: a Project passes its columns when every item is a bare attribute") {
  auto passes = [](std::string_view list) {
    const ParseResult r = parse_explain_text("== Physical Plan ==\nProject " + std::string(list) +
                                                 "\n+- LocalTableScan [a#1, b#2]\n",
                                             "t.txt");
    const Operator& p = only_op(r, "Project");
    return p.facts.present() && p.facts->passes_columns;
  };
  CHECK(passes("[a#1, b#2]"));
  CHECK(passes("[a#1L, t.b#2, `c`#0x3]"));
  CHECK_FALSE(passes("[a#1, b#2#3]"));    // a second '#': the name part holds one
  CHECK_FALSE(passes("[a#1, #2]"));       // no name
  CHECK_FALSE(passes("[a#1, b#]"));       // no id
  CHECK_FALSE(passes("[a#1, b#2z]"));     // not an id
  CHECK_FALSE(passes("[a#1, b]"));        // no '#'
  CHECK_FALSE(passes("[a#1, (b#2 + 1) AS c#3]"));
  CHECK_FALSE(passes("[a#1, b-c#2]"));    // a byte no name holds
}

TEST_CASE("explain facts: long items are classed 16 bytes at a time as the byte loop classes them") {
  auto passes_long = [](std::string_view list) {
    const ParseResult r = parse_explain_text("== Physical Plan ==\nProject " + std::string(list) +
                                                 "\n+- LocalTableScan [a#1, b#2]\n",
                                             "t.txt");
    const Operator& p = only_op(r, "Project");
    return p.facts.present() && p.facts->passes_columns;
  };
  // Names of 15 to 40 bytes: the '#' before, at and after the end of the first 16-byte block.
  CHECK(passes_long("[abcdefghijklmno#1, b#2]"));
  CHECK(passes_long("[abcdefghijklmnop#1, b#2]"));
  CHECK(passes_long("[abcdefghijklmnopq#1L, b#2]"));
  CHECK(passes_long("[ss_sold_date_sk_and_more_text_AZ09#12, `t`.`c_Z9_xy`.long_name#0x3]"));
  CHECK(passes_long("[ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz_0123456789#7]"));
  // One byte that is no name byte, in the first block, at its last place, in the second block:
  // bytes next to the classes ('@' '[' '/' ':' '{' and one above 0x7F).
  for (std::string_view off : {"[abcd@fghijklmnopqrs#1]", "[abcdefghijklmno[qrs#1]", "[abcdefghijklmnopqrs/uv#1]",
                               "[abcdefghijklmnopqrs:uv#1]", "[abcdefghijklmnopqrs{uv#1]", "[abcdefghijklmnopqrs\xc3\xa9uv#1]",
                               "[abcdefghijklmnopqrstuvwxyz0123-#1]", "[abcdefghijklmnopqrstuv wxyz#1]"}) {
    CAPTURE(off);
    CHECK_FALSE(passes_long(off));
  }
}

TEST_CASE("explain facts: the name facts kept per name are each name's own") {
  // `StateStoreRestore` and `Sxxxxxxxrxxxxxxxe` share the length, the first, the middle and the last
  // byte (one slot of the per-thread answers): each operator gets the answer of its own name, in
  // turn, and a name too long to be kept is answered too.
  const std::string long_name = "StateStoreSave" + std::string(60, 'x');
  const ParseResult r = parse_explain_text("== Physical Plan ==\n"
                                           "StateStoreRestore [a#1]\n"
                                           "+- Sxxxxxxxrxxxxxxxe [a#1]\n"
                                           "   +- StateStoreRestore [a#1]\n"
                                           "      +- RowToColumnar\n"
                                           "         +- Sxxxxxxxrxxxxxxxe [a#1]\n"
                                           "            +- " + long_name + " [a#1]\n"
                                           "               +- Coalesce 1\n"
                                           "                  +- LocalTableScan [a#1]\n",
                                           "t.txt");
  REQUIRE(r.plans.size() == 1);
  int restores = 0, others = 0;
  for (const Operator& op : r.plans[0].ops) {
    const bool streaming = op.facts.present() && op.facts->streaming;
    const bool rtc = op.facts.present() && op.facts->row_to_columnar;
    const std::string name(std::string_view(op.name));
    CAPTURE(name);
    if (name == "StateStoreRestore") {
      ++restores;
      CHECK(streaming);
    } else if (name == "Sxxxxxxxrxxxxxxxe") {
      ++others;
      CHECK_FALSE(streaming);
      CHECK_FALSE(rtc);
    } else if (name == long_name) {
      CHECK(streaming);
    } else if (name == "RowToColumnar") {
      CHECK(rtc);
      CHECK_FALSE(streaming);
    } else if (name == "Coalesce") {
      CHECK(op.facts->partitioning.kind == PartitioningKind::Coalesce);
      CHECK(op.facts->partitioning.single);
    }
  }
  CHECK(restores == 2);
  CHECK(others == 2);

  // Eight bytes (the word compares' shortest full load): `Coalesce` and `Cxxxexxe` share a slot.
  const ParseResult c = parse_explain_text("== Physical Plan ==\nCoalesce 1\n+- Cxxxexxe 1\n   +- Coalesce 1\n"
                                           "      +- LocalTableScan [a#1]\n",
                                           "t.txt");
  REQUIRE(c.plans.size() == 1);
  int coalesces = 0;
  for (const Operator& op : c.plans[0].ops) {
    const std::string name(std::string_view(op.name));
    CAPTURE(name);
    const bool coalesce = op.facts.present() && op.facts->partitioning.kind == PartitioningKind::Coalesce;
    if (name == "Coalesce") {
      ++coalesces;
      CHECK(coalesce);
    } else {
      CHECK_FALSE(coalesce);
    }
  }
  CHECK(coalesces == 2);
}

TEST_CASE("common facts: a scan's partition columns are every attribute of its partition filters") {
  const ParseResult r = parse_explain_text(R"(== Physical Plan ==
Scan parquet t (1)

(1) Scan parquet t
Output [2]: [a#1, d#2]
PartitionFilters: [isnotnull(d#2), (d#2 = 5), ((e#3 + f#4) > coalesce(g#5, 1))]
ReadSchema: struct<a:int>
)",
                                           "t.txt");
  REQUIRE(r.plans.size() == 1);
  const Operator& scan = *r.plans[0].find_id("1");
  REQUIRE(scan.scan);
  const ColumnSet& pc = scan.scan->partition_columns;
  CHECK(pc.size() == 4);
  for (std::string_view c : {"d", "e", "f", "g"}) {
    CAPTURE(c);
    CHECK(pc.contains(c));
  }
  CHECK_FALSE(pc.contains("a"));
}

TEST_CASE("explain facts: an exchange's partition count after nested parentheses anywhere in a 16-byte block") {
  // Names of 1 to 40 bytes move the inner parentheses across the 16-byte blocks next_paren reads.
  for (std::size_t len = 1; len <= 40; ++len) {
    const std::string col(len, 'c');
    const std::string args = "hashpartitioning(coalesce(" + col + "#1, 0), substring(" + col + "#2, (1 + 2), 3), 7" +
                             std::to_string(len) + "), ENSURE_REQUIREMENTS, [plan_id=5]";
    const ParseResult r = parse_explain_text("== Physical Plan ==\nExchange " + args + "\n+- LocalTableScan [" + col + "#1]\n",
                                             "t.txt");
    CAPTURE(args);
    const Operator& ex = only_op(r, "Exchange");
    REQUIRE(ex.facts.present());
    CHECK(ex.facts->partitioning.kind == PartitioningKind::Hash);
    CHECK(ex.facts->partitioning.partitions == static_cast<std::uint32_t>(7 * (len < 10 ? 10 : 100) + len));
  }
  // rangepartitioning with a sort order's parentheses, and a count the closing one is cut from.
  const ParseResult range = parse_explain_text(
      "== Physical Plan ==\nExchange rangepartitioning(ss_sold_date_sk_long_name#1 ASC NULLS FIRST, (abs(x#2) + 1) DESC, 64)\n"
      "+- LocalTableScan [x#2]\n",
      "t.txt");
  CHECK(only_op(range, "Exchange").facts->partitioning.kind == PartitioningKind::Range);
  CHECK(only_op(range, "Exchange").facts->partitioning.partitions == 64u);
}

TEST_CASE("explain facts: && / || make a Spark 2 plan only when no marker is found, in any operator") {
  // The version fill_explain_facts inferred: major.minor, "" when none.
  auto version = [](const std::string& text) {
    const ParseResult r = parse_explain_text(text, "t.txt");
    REQUIRE(r.plans.size() == 1);
    const EngineFacts& e = r.plans[0].facts.engine;
    return e.spark_major ? std::to_string(*e.spark_major) + "." + std::to_string(e.spark_minor.value_or(0)) : std::string();
  };
  const std::string filter_and = "*(1) Filter ((a#1 > 1) && (b#2 < 3))\n";
  // No marker: && or || in the first, the last or a logical operator only.
  CHECK(version("== Physical Plan ==\n" + filter_and + "+- LocalTableScan [a#1, b#2]\n") == "2.0");
  CHECK(version("== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Filter ((a#1 > 1) || (b#2 < 3))\n"
                "   +- LocalTableScan [a#1, b#2]\n") == "2.0");
  CHECK(version("== Parsed Logical Plan ==\n'Filter (('a > 1) && ('b < 3))\n+- 'UnresolvedRelation [t]\n\n"
                "== Physical Plan ==\n*(1) Filter isnotnull(a#1)\n+- LocalTableScan [a#1, b#2]\n") == "2.0");
  // Neither, nor a bare exchange: no version.
  CHECK(version("== Physical Plan ==\n*(1) Filter ((a#1 > 1) AND (b#2 < 3))\n+- LocalTableScan [a#1, b#2]\n") == "");
  // A marker after the && operator, or before it: the marker's version.
  CHECK(version("== Physical Plan ==\n" + filter_and +
                "+- Exchange hashpartitioning(a#1, 200), ENSURE_REQUIREMENTS, [id=#7]\n"
                "   +- LocalTableScan [a#1, b#2]\n") == "3.1");
  CHECK(version("== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=false\n+- " + filter_and +
                "   +- LocalTableScan [a#1, b#2]\n") == "3.0");
  // Formatted: 3.0 at least, whatever the conditions say.
  CHECK(version("== Physical Plan ==\nFilter (2)\n+- Scan parquet t (1)\n\n(1) Scan parquet t\nOutput [1]: [a#1]\n\n"
                "(2) Filter\nInput [1]: [a#1]\nCondition : ((a#1 > 1) && (a#1 < 3))\n") == "3.0");
  // A bare exchange (no plan id, no shuffle origin) in default mode: Spark 2, with && or without.
  CHECK(version("== Physical Plan ==\nExchange hashpartitioning(a#1, 200)\n+- LocalTableScan [a#1]\n") == "2.0");
}

TEST_CASE("explain facts: an exchange's partitioning, its count read where the kind's word was found") {
  // The partitioning fill_explain_facts gave the Exchange of `args`.
  auto of = [](const std::string& args) {
    const ParseResult r = parse_explain_text("== Physical Plan ==\nExchange " + args + "\n+- LocalTableScan [a#1]\n", "t.txt");
    const Operator& ex = only_op(r, "Exchange");
    REQUIRE(ex.facts.present());
    return ex.facts->partitioning;
  };
  // Each: the arguments, the kind, the count (0: none), whether single, the origin (Unknown: not
  // checked). SinglePartition wins over a partitioning word after it and still makes the exchange
  // single; the first hashpartitioning( counts, a rangepartitioning( inside it does not; a count
  // that is no number is none.
  struct Case {
    const char* args;
    PartitioningKind kind;
    std::uint32_t partitions;
    bool single;
    ShuffleOrigin origin;
  };
  using K = PartitioningKind;
  using O = ShuffleOrigin;
  const Case cases[] = {
      {"SinglePartition, ENSURE_REQUIREMENTS, [plan_id=1]", K::Single, 1, true, O::EnsureRequirements},
      {"SinglePartition, hashpartitioning(a#1, 5)", K::Single, 1, true, O::Unknown},
      {"RoundRobinPartitioning(1), REPARTITION_BY_NUM, [plan_id=1]", K::RoundRobin, 1, true, O::RepartitionByNum},
      {"RoundRobinPartitioning(8), REPARTITION_BY_COL", K::RoundRobin, 8, false, O::RepartitionByCol},
      {"hashpartitioning(rangepartitioning(a#1, 3), 7), REBALANCE_PARTITIONS_BY_COL", K::Hash, 7, false, O::Rebalance},
      {"rangepartitioning(a#1 ASC NULLS FIRST, 9), ENSURE_REQUIREMENTS, RoundRobinPartitioning(4)", K::Range, 9, false,
       O::EnsureRequirements},
      {"hashpartitioning(a#1, x)", K::Hash, 0, false, O::Unknown},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Partitioning p = of(c.args);
    CHECK(p.kind == c.kind);
    if (c.partitions == 0) CHECK_FALSE(p.partitions.has_value());
    else CHECK(p.partitions == c.partitions);
    CHECK(p.single == c.single);
    if (c.origin != O::Unknown) CHECK(p.origin == c.origin);
  }
  // Not an exchange, and no EXECUTOR_BROADCAST in the input: no partitioning; a broadcast
  // exchange has its kind.
  const ParseResult r = parse_explain_text("== Physical Plan ==\n*(1) Project [a#1]\n+- BroadcastExchange "
                                           "HashedRelationBroadcastMode(List(a#1),false)\n   +- LocalTableScan [a#1]\n",
                                           "t.txt");
  const Operator& project = only_op(r, "Project");
  CHECK((!project.facts.present() || project.facts->partitioning.kind == PartitioningKind::Unknown));
  CHECK(only_op(r, "BroadcastExchange").facts->partitioning.kind == PartitioningKind::Broadcast);
}
