// planlint diff (lint/diff/): operator matching on re-captured plans, each planted regression class,
// real plan pairs of one query from Spark's goldens, the CLI gate (exit codes, formats, config,
// suppressions) and the rule docs.
#include <doctest/doctest.h>

#include <regex>
#include <set>

#include "lint/diff/diff.hpp"
#include "lint/diff/diff_rules.hpp"
#include "lint/engine/parse_errors.hpp"
#include "parser/registry/parse.hpp"
#include "rules/rule_doc.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// The same plan as Spark prints it on another capture: every expression id, operator number,
// plan_id and reference to an operator renumbered.
std::string recapture(const std::string& text) {
  auto shift = [](const std::string& s, const std::regex& re, int by, const std::string& pre, const std::string& post) {
    std::string out;
    auto begin = std::sregex_iterator(s.begin(), s.end(), re);
    std::size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      out += s.substr(last, static_cast<std::size_t>(it->position()) - last);
      out += pre + std::to_string(std::stoll((*it)[1]) + by) + post;
      last = static_cast<std::size_t>(it->position() + it->length());
    }
    return out + s.substr(last);
  };
  std::string s = shift(text, std::regex(R"(#(\d+))"), 5000, "#", "");
  s = shift(s, std::regex(R"(\((\d+)\))"), 300, "(", ")");
  s = shift(s, std::regex(R"(operator id: (\d+))"), 300, "operator id: ", "");
  s = shift(s, std::regex(R"(operator id = (\d+))"), 300, "operator id = ", "");
  s = shift(s, std::regex(R"(plan_id=(\d+))"), 77, "plan_id=", "");
  return s;
}

std::string edit(std::string text, const std::string& from, const std::string& to) {
  std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "text to edit not found: " << from);
  return text.replace(at, from.size(), to);
}

std::vector<Diagnostic> diff(const std::string& a, const std::string& b, const Config& config = {}) {
  FileReport r = diff_texts(a, "old.txt", b, "new.txt", config);
  INFO(r.error);
  CHECK(r.error.empty());
  return r.diagnostics;
}

std::multiset<std::string> rules_of(const std::vector<Diagnostic>& ds, bool with_improvements = false) {
  std::multiset<std::string> out;
  for (const auto& d : ds)
    if (with_improvements || d.rule != kPlanImproved) out.insert(d.rule);
  return out;
}

std::string dump(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += std::to_string(d.range.line) + " " + d.rule + ": " + d.message + "\n";
  return s;
}

const Diagnostic* first(const std::vector<Diagnostic>& ds, std::string_view rule) {
  for (const auto& d : ds)
    if (d.rule == rule) return &d;
  return nullptr;
}

std::string corpus(const std::string& rel) { return test::read_file(test::corpus_dir() / rel); }

}  // namespace

TEST_CASE("diff: a plan against itself and against a re-capture (new ids) reports nothing") {
  for (const char* rel : {"check/orders-join.explain.txt", "parse/aqe-final-4x-statistics-skew.explain.txt",
                          "rules/native-engine-fallback/trigger-formatted-photon-udf.txt", "examples/orders-by-region.explain.txt"}) {
    CAPTURE(rel);
    std::string t = corpus(rel);
    auto same = diff(t, t);
    CHECK_MESSAGE(same.empty(), dump(same));
    auto again = diff(t, recapture(t));
    CHECK_MESSAGE(again.empty(), dump(again));
  }
  // The corpus' own re-captured pair (ids and operator numbers changed by hand).
  auto pair = diff(corpus("check/orders-join.explain.txt"), corpus("check/orders-join.recaptured.explain.txt"));
  CHECK_MESSAGE(rules_of(pair).empty(), dump(pair));
}

TEST_CASE("diff: every Spark golden plan against its re-capture reports nothing" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(*shared / "corpus" / "spark")) {
    if (!e.is_regular_file() || e.path().string().find(".explain.txt") == std::string::npos) continue;
    std::string t = test::read_file(e.path());
    FileReport r = diff_texts(t, "old", recapture(t), "new", Config{});
    CAPTURE(e.path().string());
    CHECK_MESSAGE(r.diagnostics.empty(), dump(r.diagnostics));
    ++files;
  }
  CHECK(files > 400);
}

TEST_CASE("diff: one-line edits plant each regression class" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  const fs::path q = *shared / "corpus" / "spark" / "v4.1" / "tpcds-v1_4";
  std::string q3 = test::read_file(q / "q3.explain.txt");

  SUBCASE("broadcast hash join -> sort-merge join") {
    std::string n = edit(q3, "BroadcastHashJoin Inner BuildRight (16)", "SortMergeJoin Inner (16)");
    auto ds = diff(q3, recapture(n));
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"join-strategy-regressed"}, dump(ds));
    const Diagnostic* d = first(ds, kJoinRegressed);
    REQUIRE(d);
    CHECK(d->message.find("SortMergeJoin") != std::string::npos);
    CHECK(d->message.find("BroadcastHash") != std::string::npos);
    CHECK(d->range.line == 7);  // the new plan's outline line
    bool old_side = false;
    for (const auto& e : d->evidence) old_side = old_side || (e.name == "old operator" && e.value.find("old.txt:7") != std::string::npos);
    CHECK(old_side);
    // The other way round is an improvement (info only).
    auto back = diff(n, q3);
    CHECK_MESSAGE(rules_of(back).empty(), dump(back));
    CHECK(rules_of(back, true).count("plan-improved") == 1);
  }
  SUBCASE("a new cartesian product") {
    auto ds = diff(q3, edit(q3, "BroadcastHashJoin Inner BuildRight (16)", "CartesianProduct Inner (16)"));
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"join-strategy-regressed"}, dump(ds));
  }
  SUBCASE("a PushedFilters entry removed") {
    auto ds = diff(q3, edit(q3, "PushedFilters: [IsNotNull(d_moy), EqualTo(d_moy,11), IsNotNull(d_date_sk)]",
                            "PushedFilters: [IsNotNull(d_moy), IsNotNull(d_date_sk)]"));
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"filter-pushdown-lost"}, dump(ds));
    const Diagnostic* d = first(ds, kPushdownLost);
    REQUIRE(d);
    CHECK(d->message.find("EqualTo(d_moy,N)") != std::string::npos);
    CHECK(d->message.find("date_dim") != std::string::npos);
  }
  SUBCASE("a ReusedExchange replaced") {
    std::string sf = test::read_file(q / "q3.sf100.explain.txt");
    auto ds = diff(sf, edit(sf, "+- ReusedExchange (11)", "+- BroadcastExchange (11)"));
    CHECK_MESSAGE(rules_of(ds).count("reuse-lost") == 1, dump(ds));
  }
  SUBCASE("a non-sargable predicate") {
    std::string n = edit(q3, "Condition : ((isnotnull(d_moy#3) AND (d_moy#3 = 11)) AND isnotnull(d_date_sk#1))",
                         "Condition : ((isnotnull(d_moy#3) AND (cast(d_moy#3 as string) = 11)) AND isnotnull(d_date_sk#1))");
    auto ds = diff(q3, n);
    CHECK_MESSAGE(rules_of(ds).count("new-non-sargable-predicate") == 1, dump(ds));
  }
  SUBCASE("a new exchange") {
    std::string n = edit(q3, "+- * HashAggregate (18)", "+- Exchange (30)\n         +- * HashAggregate (18)");
    auto ds = diff(q3, n);
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"new-exchange-or-sort"}, dump(ds));
  }
}

TEST_CASE("diff: AQE turned off, on Spark's explain.sql goldens (same query, AQE on vs off)" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  const fs::path dir = *shared / "corpus" / "spark" / "v3.2" / "sql-tests";
  std::size_t pairs = 0;
  for (int i = 1; i <= 14; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "explain-%02d.explain.txt", i);
    std::string off = test::read_file(dir / name);
    std::snprintf(name, sizeof name, "explain-aqe-%02d.explain.txt", i);
    if (!fs::exists(dir / name)) continue;
    std::string on = test::read_file(dir / name);
    CAPTURE(i);
    auto ds = diff(on, off);
    // Commands (CREATE VIEW ...) have no AdaptiveSparkPlan on either side.
    std::size_t expected = on.find("AdaptiveSparkPlan") != std::string::npos ? 1 : 0;
    CHECK_MESSAGE(rules_of(ds).count("adaptive-execution-lost") == expected, dump(ds));
    pairs += expected;
    auto back = diff(on, on);
    CHECK(back.empty());
  }
  CHECK(pairs >= 10);
}

TEST_CASE("diff: TPC-DS default statistics vs sf100 statistics (real plans of one query)" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  const fs::path q = *shared / "corpus" / "spark" / "v4.1" / "tpcds-v1_4";
  // q17 with sf100 statistics: date_dim and item keep their broadcasts, the fact-to-fact joins of
  // store_sales, store_returns and catalog_sales become sort-merge joins.
  std::string small = test::read_file(q / "q17.explain.txt"), big = test::read_file(q / "q17.sf100.explain.txt");
  auto ds = diff(small, big);
  // One root cause, one finding: the paired top join became a sort-merge join and, with the join
  // order, two more joins below it; the eight exchanges and sorts they brought are its evidence
  // (before: nine findings, one per exchange or sort).
  CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"join-strategy-regressed"}, dump(ds));
  const Diagnostic* d = first(ds, kJoinRegressed);
  REQUIRE(d);
  CHECK(d->message.find("SortMergeJoin (44)") != std::string::npos);
  CHECK(d->message.find("2 more joins shuffle both sides (SortMergeJoin (32), SortMergeJoin (20))") != std::string::npos);
  CHECK(d->message.find("3 shuffle joins where the old plan had none") != std::string::npos);
  std::size_t brought = 0;
  for (const auto& e : d->evidence)
    if (e.name == "new shuffles and sorts" || e.name == "their new shuffles and sorts") brought += static_cast<std::size_t>(*e.number);
  CHECK(brought == 12);
}

TEST_CASE("diff: unpaired shuffle joins without a paired regression give one finding") {
  // Both joins of a broadcast plan turn into sort-merge joins over a new join order: no join pairs
  // (the tables below each differ), one finding at the top one lists both and what they brought.
  std::string old_plan =
      "== Physical Plan ==\n"
      "*(3) Project [a#1]\n"
      "+- *(3) BroadcastHashJoin [b#2], [b#5], Inner, BuildRight\n"
      "   :- *(3) BroadcastHashJoin [c#3], [c#4], Inner, BuildRight\n"
      "   :  :- *(3) FileScan parquet db.facts[a#1,b#2,c#3] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/facts], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<a:int,b:int,c:int>\n"
      "   :  +- BroadcastExchange HashedRelationBroadcastMode(List(input[0, int, false]),false), [plan_id=1]\n"
      "   :     +- *(1) FileScan parquet db.dim_c[c#4] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/dim_c], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<c:int>\n"
      "   +- BroadcastExchange HashedRelationBroadcastMode(List(input[0, int, false]),false), [plan_id=2]\n"
      "      +- *(2) FileScan parquet db.dim_b[b#5] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/dim_b], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<b:int>\n";
  std::string new_plan =
      "== Physical Plan ==\n"
      "*(7) Project [a#1]\n"
      "+- *(7) SortMergeJoin [c#3], [c#4], Inner\n"
      "   :- *(5) Sort [c#3 ASC NULLS FIRST], false, 0\n"
      "   :  +- Exchange hashpartitioning(c#3, 200), ENSURE_REQUIREMENTS, [plan_id=3]\n"
      "   :     +- *(4) SortMergeJoin [b#2], [b#5], Inner\n"
      "   :        :- *(1) Sort [b#2 ASC NULLS FIRST], false, 0\n"
      "   :        :  +- Exchange hashpartitioning(b#2, 200), ENSURE_REQUIREMENTS, [plan_id=1]\n"
      "   :        :     +- FileScan parquet db.facts[a#1,b#2,c#3] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/facts], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<a:int,b:int,c:int>\n"
      "   :        +- *(3) Sort [b#5 ASC NULLS FIRST], false, 0\n"
      "   :           +- Exchange hashpartitioning(b#5, 200), ENSURE_REQUIREMENTS, [plan_id=2]\n"
      "   :              +- FileScan parquet db.dim_b[b#5] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/dim_b], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<b:int>\n"
      "   +- *(6) Sort [c#4 ASC NULLS FIRST], false, 0\n"
      "      +- Exchange hashpartitioning(c#4, 200), ENSURE_REQUIREMENTS, [plan_id=4]\n"
      "         +- FileScan parquet db.dim_c[c#4] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[s3://x/dim_c], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<c:int>\n";
  auto ds = diff(old_plan, new_plan);
  CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"join-strategy-regressed"}, dump(ds));
  const Diagnostic* d = first(ds, kJoinRegressed);
  REQUIRE(d);
  CHECK(d->range.line == 3);  // the top join
  CHECK(d->message.find("2 shuffle joins where the old plan had none") != std::string::npos);
  CHECK(d->message.find("they brought") != std::string::npos);
  // The other way round: nothing got worse.
  CHECK_MESSAGE(rules_of(diff(new_plan, old_plan)).empty(), dump(diff(new_plan, old_plan)));
}

TEST_CASE("diff: plans of two different queries are refused, with what they share" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  const fs::path v41 = *shared / "corpus" / "spark" / "v4.1" / "tpcds-v1_4";
  const fs::path v32 = *shared / "corpus" / "spark" / "v3.2" / "tpcds-v1_4";
  auto parse = [](const fs::path& p) { return parse_input(test::read_file(p), p.string()); };
  // Every query against its own plan with sf100 statistics and its Spark 3.2 capture: one query.
  std::vector<fs::path> queries;
  for (const auto& e : fs::directory_iterator(v41)) {
    std::string n = e.path().filename().string();
    if (n.size() > 12 && n.ends_with(".explain.txt") && n.find(".sf100.") == std::string::npos) queries.push_back(e.path());
  }
  std::sort(queries.begin(), queries.end());
  REQUIRE(queries.size() > 90);
  std::size_t same = 0;
  for (const auto& q : queries) {
    std::string base = q.filename().string();
    base.resize(base.size() - std::string(".explain.txt").size());
    for (const fs::path& other : {v41 / (base + ".sf100.explain.txt"), v32 / q.filename()}) {
      if (!fs::exists(other)) continue;
      ParseResult a = parse(q), b = parse(other);
      REQUIRE(!a.plans.empty());
      REQUIRE(a.plans.size() == b.plans.size());
      PlanLikeness l = plan_likeness(a.plans[0], b.plans[0]);
      CAPTURE(q.string());
      CAPTURE(other.string());
      CHECK_MESSAGE(l.same_query, l.describe());
      ++same;
    }
  }
  CHECK(same > 180);
  // Different queries: each query against the next-but-k ones, refused nearly always (the few kept
  // are template siblings of one query: q24a/q24b, q4/q11, q42/q52, q47/q63).
  std::size_t pairs = 0, refused = 0;
  std::vector<ParseResult> parsed;
  for (const auto& q : queries) parsed.push_back(parse(q));
  for (std::size_t i = 0; i < parsed.size(); ++i)
    for (std::size_t k : {7u, 23u, 41u}) {
      std::size_t j = (i + k) % parsed.size();
      if (parsed[i].plans.empty() || parsed[j].plans.empty()) continue;
      ++pairs;
      refused += !plan_likeness(parsed[i].plans[0], parsed[j].plans[0]).same_query;
    }
  CHECK(pairs > 270);
  CHECK_MESSAGE(refused * 100 >= pairs * 95, refused << " of " << pairs << " pairs of different queries refused");
  // What the refusal says, and --force.
  std::string q72 = test::read_file(v41 / "q72.explain.txt"), q31 = test::read_file(v41 / "q31.explain.txt");
  FileReport r = diff_texts(q72, "q72", q31, "q31", Config{});
  CHECK(r.diagnostics.empty());
  CHECK(r.error.find("do not look like plans of the same query: they share 1 of 12 tables") != std::string::npos);
  CHECK(r.error.find("only the new plan reads customer_address, store_sales, web_sales") != std::string::npos);
  CHECK(r.error.find("--force") != std::string::npos);
  FileReport forced = diff_texts(q72, "q72", q31, "q31", Config{}, true);
  CHECK(forced.error.empty());
  CHECK(!forced.diagnostics.empty());
  REQUIRE(forced.messages.size() == 1);
  CHECK(forced.messages[0].severity == MessageSeverity::Warning);
  CHECK(forced.messages[0].message.find("compared anyway (--force)") != std::string::npos);
}

TEST_CASE("diff: Photon operators moved to the JVM") {
  std::string full = corpus("rules/native-engine-fallback/near-miss-formatted-photon-full.txt");
  std::string udf = corpus("rules/native-engine-fallback/trigger-formatted-photon-udf.txt");
  auto ds = diff(full, udf);
  CHECK_MESSAGE(rules_of(ds).count("engine-coverage-dropped") >= 1, dump(ds));
  CHECK(rules_of(diff(udf, full)).count("engine-coverage-dropped") == 0);
}

TEST_CASE("diff: statistics and skew handling on an AQE final plan") {
  std::string t = corpus("parse/aqe-final-4x-statistics-skew.explain.txt");
  SUBCASE("a query stage 1,000x larger") {
    std::string n = edit(t, "ShuffleQueryStage (3), Statistics(sizeInBytes=1024.0 KiB, rowCount=1.23E+6)",
                         "ShuffleQueryStage (3), Statistics(sizeInBytes=1024.0 MiB, rowCount=1.23E+9)");
    auto ds = diff(t, recapture(n));
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"metric-regressed"}, dump(ds));
    const Diagnostic* d = first(ds, kMetricRegressed);
    REQUIRE(d);
    CHECK(d->message.find("size ") != std::string::npos);
    CHECK(d->message.find("GiB") != std::string::npos);
    CHECK(d->range.line == 9);
    // Under the factor: nothing. A higher factor silences it too.
    CHECK(diff(t, edit(t, "sizeInBytes=1024.0 KiB, rowCount=1.23E+6", "sizeInBytes=1400.0 KiB, rowCount=1.5E+6")).empty());
    Config c;
    c.thresholds["metric-regressed"]["factor"] = 2000;
    CHECK(diff(t, n, c).empty());
  }
  SUBCASE("skew handling lost") {
    auto ds = diff(t, edit(t, "SortMergeJoin(skew=true) Inner (12)", "SortMergeJoin Inner (12)"));
    CHECK_MESSAGE(rules_of(ds) == std::multiset<std::string>{"adaptive-execution-lost"}, dump(ds));
  }
}

TEST_CASE("diff: different plan counts and empty inputs are errors, not findings") {
  FileReport r = diff_texts("", "old", corpus("check/orders-join.explain.txt"), "new", Config{});
  CHECK(!r.error.empty());
}

TEST_CASE("planlint diff: CI gate, formats, config and suppressions") {
  auto shared = test::shared_dir();
  fs::path tmp = fs::temp_directory_path() / ("planlint-diff-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::string base = corpus("examples/orders-by-region.explain.txt");
  std::string worse = edit(base, "SortMergeJoin Inner (15)", "CartesianProduct Inner (15)");
  test::write_file(tmp / "main.txt", base);
  test::write_file(tmp / "pr.txt", worse);
  test::write_file(tmp / "same.txt", recapture(base));
  std::string m = (tmp / "main.txt").string(), p = (tmp / "pr.txt").string(), s = (tmp / "same.txt").string();

  CHECK(test::run_planlint("diff --no-config " + m + " " + s).exit_code == 0);
  auto text = test::run_planlint("diff --no-config " + m + " " + p);
  CHECK(text.exit_code == 1);
  CHECK(text.out.find("[PLD001 join-strategy-regressed]") != std::string::npos);
  auto gh = test::run_planlint("diff --no-config --format github " + m + " " + p);
  CHECK(gh.out.find("::warning file=" + p + ",line=10") != std::string::npos);
  for (const char* f : {"json", "sarif", "junit"}) {
    auto r = test::run_planlint(std::string("diff --no-config --format ") + f + " " + m + " " + p);
    CAPTURE(f);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("join-strategy-regressed") != std::string::npos);
  }
  CHECK(test::run_planlint("diff --no-config --ignore PLD001 " + m + " " + p).exit_code == 0);
  // Code prefixes of the comparison family select them like ruff's (PLD = every diff rule).
  CHECK(test::run_planlint("diff --no-config --ignore PLD " + m + " " + p).exit_code == 0);
  CHECK(test::run_planlint("diff --no-config --select PLD " + m + " " + p).exit_code == 1);
  CHECK(test::run_planlint("diff --no-config --select PLD0 " + m + " " + p).exit_code == 1);
  CHECK(test::run_planlint("diff --no-config --select PLX " + m + " " + p).exit_code == 2);
  CHECK(test::run_planlint("diff --no-config --exit-zero " + m + " " + p).exit_code == 0);
  CHECK(test::run_planlint("diff --no-config --fail-on error " + m + " " + p).exit_code == 0);
  CHECK(test::run_planlint("diff --no-config --severity PLD001=error --fail-on error " + m + " " + p).exit_code == 1);
  // A directive in the new plan file suppresses the finding (and a check-rule directive is not "unused").
  test::write_file(tmp / "pr-ok.txt", "# planlint: disable=join-strategy-regressed\n# planlint: disable=PL002\n" + worse);
  auto sup = test::run_planlint("diff --no-config " + m + " " + (tmp / "pr-ok.txt").string());
  CHECK(sup.exit_code == 0);
  CHECK(sup.out.find("unused") == std::string::npos);
  // A config file next to the new plan.
  test::write_file(tmp / ".planlint.toml", "ignore = [\"join-strategy-regressed\"]\n");
  CHECK(test::run_planlint("diff " + m + " " + p).exit_code == 0);
  fs::remove(tmp / ".planlint.toml");
  // Unreadable input and usage errors.
  CHECK(test::run_planlint("diff --no-config " + m + " " + (tmp / "missing.txt").string()).exit_code == 2);
  CHECK(test::run_planlint("diff --no-config --select NOPE " + m + " " + p).exit_code == 2);
  fs::remove_all(tmp);
}

TEST_CASE("diff rules are documented like the others (planlint rule, docs/rules)") {
  std::set<std::string> codes;
  for (const RuleDoc* d : diff_rule_docs()) {
    CAPTURE(d->name);
    CHECK(d->code.rfind("PLD", 0) == 0);
    CHECK(codes.insert(d->code).second);
    CHECK(find_rule_doc(d->name) == d);
    CHECK(find_rule_doc(d->code) == d);
    auto run = test::run_planlint("rule " + d->code + " --markdown");
    CHECK(run.exit_code == 0);
    CHECK(run.out == render_rule_doc(*d, DocFormat::Markdown));
    test::check_golden(test::source_dir() / "docs" / "rules" / (d->name + ".md"), run.out);
  }
  auto list = test::run_planlint("rules");
  CHECK(list.out.find("PLD001 join-strategy-regressed") != std::string::npos);
}
