// Damaged and hostile explain text: never a crash, a hang or a stack overflow. Parent finding is a
// column stack (no recursion), so depth only costs memory; the printers are iterative too.
#include <doctest/doctest.h>

#include <string>

#include "lint/core/plan_json.hpp"
#include "lint/core/plan_tree.hpp"
#include "parser/explain/explain.hpp"

using namespace planlint;

namespace {

ParseResult parse_damaged(const std::string& text) { return parse_explain_text(text, "r.txt"); }

const char* kSmall = R"(== Physical Plan ==
AdaptiveSparkPlan (6)
+- == Final Plan ==
   * Project (4)
   +- * BroadcastHashJoin Inner BuildRight (3)
      :- Scan parquet spark_catalog.db.a (1)
      +- ReusedExchange (2)
+- == Initial Plan ==
   Project (5)
   +- Scan parquet spark_catalog.db.a (1)


(1) Scan parquet spark_catalog.db.a
Output [2]: [k#1, v#2]
PushedFilters: [IsNotNull(k)]

(2) ReusedExchange [Reuses operator id: 9]
Output [1]: [k#3]

(3) BroadcastHashJoin [codegen id : 1]
Left keys [1]: [k#1]
Right keys [1]: [k#3]
Join type: Inner
Join condition: (v#2 > 5)

===== Subqueries =====

Subquery:1 Hosting operator id = 1 Hosting Expression = k#1 IN dynamicpruning#8
BroadcastExchange (9)
+- LocalTableScan (8)


(8) LocalTableScan
Output [1]: [k#7]

(9) BroadcastExchange
Input [1]: [k#7]
Arguments: HashedRelationBroadcastMode(List(input[0, int, true]),false), [plan_id=4]

== Photon Explanation ==
The query is fully supported by Photon.
)";

void sound(const ParseResult& r) {
  for (const auto& p : r.plans) {
    for (const auto& o : p.ops) {
      for (std::size_t c : o.children) REQUIRE(c < p.ops.size());
      if (o.reuses) REQUIRE(*o.reuses < p.ops.size());
    }
    for (const auto& s : p.subqueries) {
      if (s.root) REQUIRE(*s.root < p.ops.size());
      if (s.hosting_op) REQUIRE(*s.hosting_op < p.ops.size());
    }
  }
  (void)parse_result_tree_text(r);
  (void)dump_json(parse_result_json(r));
}

}  // namespace

TEST_CASE("robustness: the small plan parses fully") {
  auto r = parse_damaged(kSmall);
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == 8);
  CHECK(r.plans[0].photon.fully_supported);
  const Operator* re = r.plans[0].find_id("2");
  REQUIRE(re);
  REQUIRE(re->reuses);
  CHECK(r.plans[0].ops[*re->reuses].id == "9");
}

TEST_CASE("robustness: every prefix of a plan (truncated input)") {
  std::string text = kSmall;
  for (std::size_t n = 0; n <= text.size(); ++n) sound(parse_damaged(text.substr(0, n)));
}

TEST_CASE("robustness: NUL bytes, control bytes and invalid UTF-8 everywhere") {
  std::string text = kSmall;
  for (std::size_t step : {7u, 13u, 31u}) {
    std::string t = text;
    for (std::size_t i = 0; i < t.size(); i += step) t[i] = '\0';
    sound(parse_damaged(t));
    std::string u = text;
    for (std::size_t i = 3; i < u.size(); i += step) u[i] = static_cast<char>(0xC3 + i % 40);
    sound(parse_damaged(u));
  }
  sound(parse_damaged(std::string(10000, '\0')));
  sound(parse_damaged("== Physical Plan ==\n\0\0\0 (1)\n"));
}

TEST_CASE("robustness: 100,000 nested parentheses in labels, conditions and default-mode arguments") {
  std::string deep(100000, '(');
  std::string close(100000, ')');
  sound(parse_damaged("== Physical Plan ==\n* Filter " + deep + " (1)\n\n\n(1) Filter\nCondition : " + deep + "a#1" + close + "\n"));
  sound(parse_damaged("== Physical Plan ==\n*(1) Filter " + deep + "a#1 > 5" + close + "\n+- LocalTableScan [a#1]\n"));
  sound(parse_damaged("== Physical Plan ==\nHashAggregate(keys=" + deep + ", functions=[])\n+- Project [" + deep + "]\n"));
  sound(parse_damaged("== Optimized Logical Plan ==\nFilter " + deep + ", Statistics(sizeInBytes=" + deep + ")\n"));
  sound(parse_damaged("== Physical Plan ==\n* Project (1)\n\n\n(" + deep + "\nOutput [1]: [" + std::string(100000, '[') + "]\n"));
  auto r = parse_damaged("== Physical Plan ==\nScan parquet t (1)\n\n\n(1) Scan parquet t\nPushedFilters: [" + deep + "]\n");
  REQUIRE(r.plans.size() == 1);
  REQUIRE(r.plans[0].ops.size() == 1);
  const Field* f = r.plans[0].ops[0].field("PushedFilters");
  REQUIRE(f);
  CHECK(f->value.size() == 100002);
}

TEST_CASE("robustness: a 5,000-deep outline with one-column steps and a 2,000-deep formatted tree") {
  std::string text = "== Physical Plan ==\n";
  for (int d = 0; d < 5000; ++d) text += std::string(static_cast<std::size_t>(d), ' ') + "+- Project (" + std::to_string(5000 - d) + ")\n";
  auto r = parse_damaged(text);
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].ops.size() == 5000);
  CHECK(r.plans[0].roots.size() == 1);
  sound(r);

  std::string f = "== Physical Plan ==\n";
  for (int d = 0; d < 2000; ++d)
    f += (d == 0 ? std::string() : std::string(static_cast<std::size_t>(3 * (d - 1)), ' ') + "+- ") + "* Filter (" +
         std::to_string(2000 - d) + ")\n";
  auto r2 = parse_damaged(f);
  REQUIRE(r2.plans.size() == 1);
  const Plan& p = r2.plans[0];
  CHECK(p.ops.size() == 2000);
  std::size_t depth = 0;
  for (std::size_t cur = p.roots.at(0); !p.ops[cur].children.empty(); cur = p.ops[cur].children[0]) ++depth;
  CHECK(depth == 1999);
}

TEST_CASE("robustness: printers over a 20,000-deep and 100,000-wide model stay iterative and linear") {
  ParseResult r;
  r.path = "model";
  Plan deep;
  deep.name = "deep";
  for (std::size_t i = 0; i < 20000; ++i) {
    Operator o;
    o.index = i;
    o.id = deep.keep(std::to_string(i + 1));
    o.name = "Project";
    o.kind = OpKind::Project;
    if (i + 1 < 20000) o.children.push_back(i + 1);
    deep.ops.push_back(std::move(o));
  }
  deep.roots.push_back(0);
  deep.link();
  r.plans.push_back(std::move(deep));
  std::string tree = parse_result_tree_text(r);
  CHECK(tree.size() < 20000u * 400u);  // indentation is capped
  CHECK(tree.find("[depth 19999]") != std::string::npos);
  std::string json = dump_json(parse_result_json(r));
  CHECK(json.find("\"id\": \"20000\"") != std::string::npos);
}

TEST_CASE("robustness: garbage lines inside every region never stop the plan") {
  std::string text = kSmall;
  std::string junk = "\x01\x02 +- :- (((( [[[ == ==\n(12) \nSubquery:\nSubplan:\n===== Subqueries =====\n   +- == Final Plan ==\n";
  for (std::size_t pos = text.find('\n'); pos != std::string::npos; pos = text.find('\n', pos + junk.size() + 1)) {
    std::string t = text;
    t.insert(pos + 1, junk);
    sound(parse_damaged(t));
  }
}
