// Rule repairs on real pastes of issue 34's first-contact batch (073: a CartesianProduct whose
// condition is a UDF; 083: a Photon explanation naming only CollectLimit), with their near misses.
#include <doctest/doctest.h>

#include <string>

#include "lint/engine/engine.hpp"
#include "tests/rules/rule_test_helpers.hpp"
#include "tests/support.hpp"

using namespace planlint;
using namespace planlint::test;

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
