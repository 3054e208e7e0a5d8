// EXPLAIN CODEGEN: each `== Subtree k / n ==` section prints its stage's whole tree, so lower
// stages are printed again inside the stages above them. The reader keeps one copy of each
// operator (one plan for one query), keeps sections that are not printed inside another (a
// subquery's stage), and says what it folded.
#include <doctest/doctest.h>

#include <string>

#include "parser/explain/explain.hpp"

using namespace planlint;

namespace {

ParseResult parse_cg(const std::string& text) { return parse_explain_text(text, "cg.txt"); }

// As Spark 4.3 prints it (corpus/live/4.3.0/skew_aqe_off/final-codegen.txt, generated code cut).
const char* kThreeStages = R"(Found 3 WholeStageCodegen subtrees.
== Subtree 1 / 3 (maxMethodCodeSize:276; maxConstantPoolSize:151(0.23% used); numInnerClasses:0) ==
*(1) Filter isnotnull(k#9L)
+- *(1) ColumnarToRow
   +- FileScan parquet [k#9L,v#10] Batched: true, DataFilters: [isnotnull(k#9L)], Format: Parquet, PartitionFilters: [], PushedFilters: [IsNotNull(k)], ReadSchema: struct<k:bigint,v:double>

Generated code:
/* 001 */ public Object generate(Object[] references) {
/* 002 */   return new GeneratedIteratorForCodegenStage1(references);
/* 003 */ }

== Subtree 2 / 3 (maxMethodCodeSize:120; maxConstantPoolSize:124(0.19% used); numInnerClasses:0) ==
*(2) Sort [k#9L ASC NULLS FIRST], false, 0
+- Exchange hashpartitioning(k#9L, 8), ENSURE_REQUIREMENTS, [plan_id=100]
   +- *(1) Filter isnotnull(k#9L)
      +- *(1) ColumnarToRow
         +- FileScan parquet [k#9L,v#10] Batched: true, DataFilters: [isnotnull(k#9L)], Format: Parquet, PartitionFilters: [], PushedFilters: [IsNotNull(k)], ReadSchema: struct<k:bigint,v:double>

Generated code:
/* 001 */ public Object generate(Object[] references) {
/* 003 */ }

== Subtree 3 / 3 (maxMethodCodeSize:168; maxConstantPoolSize:244(0.37% used); numInnerClasses:0) ==
*(3) HashAggregate(keys=[k#9L], functions=[count(1)], output=[k#9L, n#17L])
+- *(3) Project [k#9L]
   +- *(2) Sort [k#9L ASC NULLS FIRST], false, 0
      +- Exchange hashpartitioning(k#9L, 8), ENSURE_REQUIREMENTS, [plan_id=100]
         +- *(1) Filter isnotnull(k#9L)
            +- *(1) ColumnarToRow
               +- FileScan parquet [k#9L,v#10] Batched: true, DataFilters: [isnotnull(k#9L)], Format: Parquet, PartitionFilters: [], PushedFilters: [IsNotNull(k)], ReadSchema: struct<k:bigint,v:double>

Generated code:
/* 001 */ public Object generate(Object[] references) {
/* 003 */ }
)";

bool has_note(const ParseResult& r, const std::string& part) {
  for (const auto& m : r.messages)
    if (m.severity == MessageSeverity::Note && m.message.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("codegen: sections printed inside a higher stage are read once, as part of it") {
  ParseResult r = parse_cg(kThreeStages);
  REQUIRE(r.plans.size() == 1);
  const Plan& p = r.plans.front();
  CHECK(p.name == "plan 1");
  CHECK(p.ops.size() == 7);  // the top section's tree: no operator twice
  REQUIRE(p.roots.size() == 1);
  CHECK(p.ops[p.roots.front()].name.view() == "HashAggregate");
  CHECK(p.ops[p.roots.front()].codegen_stage == 3);
  std::size_t scans = 0;
  for (const auto& op : p.ops) scans += op.name.view().starts_with("FileScan") || op.kind == OpKind::Scan;
  CHECK(scans == 1);
  CHECK(p.loc.line == 23);  // where the kept section starts
  CHECK(has_note(r, "2 of the 3 '== Subtree ==' sections are printed again inside another"));
  CHECK_FALSE(r.has_errors());
}

TEST_CASE("codegen: a section whose tree differs from every copy inside another stays a plan") {
  std::string text = kThreeStages;
  // Subtree 2's exchange now has another plan_id than the one printed inside subtree 3: not the
  // same operator, so subtree 2 is not a copy of part of subtree 3 (subtree 1 still is).
  const std::string from = "+- Exchange hashpartitioning(k#9L, 8), ENSURE_REQUIREMENTS, [plan_id=100]\n   +- *(1)";
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "+- Exchange hashpartitioning(k#9L, 8), ENSURE_REQUIREMENTS, [plan_id=777]\n   +- *(1)");
  ParseResult r = parse_cg(text);
  REQUIRE(r.plans.size() == 2);
  CHECK(r.plans[0].name == "plan 1");
  CHECK(r.plans[1].name == "plan 2");
  CHECK(r.plans[0].ops.size() == 5);
  CHECK(r.plans[1].ops.size() == 7);
  CHECK(has_note(r, "1 of the 3"));
}

TEST_CASE("codegen: one section, or sections that share nothing, are read as they are") {
  const char* one = R"(Found 1 WholeStageCodegen subtrees.
== Subtree 1 / 1 (maxMethodCodeSize:282; maxConstantPoolSize:348(0.53% used); numInnerClasses:2) ==
*(1) Project [(id#0L * 2) AS x#2L]
+- *(1) Filter (id#0L > 5)
   +- *(1) Range (0, 10, step=1, splits=2)

Generated code:
/* 001 */ public Object generate(Object[] references) {
)";
  ParseResult r = parse_cg(one);
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == 3);
  CHECK_FALSE(has_note(r, "Subtree"));
}

TEST_CASE("codegen: 'Found 0 WholeStageCodegen subtrees' says why, not only that nothing was read") {
  ParseResult r = parse_cg("Found 0 WholeStageCodegen subtrees.\n\n");
  CHECK(r.plans.empty());
  REQUIRE(r.has_errors());
  bool said = false;
  for (const auto& m : r.messages) said = said || m.message.find("explain('codegen') before the query has run") != std::string::npos;
  CHECK(said);
}
