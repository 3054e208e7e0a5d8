#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lint/core/baseline.hpp"
#include "lint/core/fingerprint.hpp"
#include "tests/lint_fixtures.hpp"
#include "tests/support.hpp"

using namespace planlint;
using planlint::test::sample_finding;
using planlint::test::sample_report;

TEST_CASE("fingerprint: normalise ids, plan_id and measured numbers away") {
  CHECK(normalise_plan_text("customer_id#12L = c_customer_id#4031") == "customer_id = c_customer_id");
  CHECK(normalise_plan_text("Scan parquet  spark_catalog.db.t2\n") == "Scan parquet spark_catalog.db.t2");
  CHECK(normalise_plan_text("ReusedExchange [id=#57], plan_id=1234") == "ReusedExchange [id=], plan_id=");
  CHECK(normalise_plan_text("ShuffleQueryStage 3, 2.5 GiB") == "ShuffleQueryStage N, N");
  CHECK(normalise_plan_text("Statistics(sizeInBytes=980.0 KiB, rowCount=1.52E+8)") ==
        "Statistics(sizeInBytes=N, rowCount=N)");
  CHECK(normalise_plan_text("12 s of 3 min 20 s, 5 Bytes, 1,234,567 rows") == "N of N, N Bytes, N rows");
  CHECK(normalise_plan_text("col1 > 10") == "col1 > N");
}

TEST_CASE("fingerprint: stable across a re-captured plan, different for another finding") {
  Diagnostic a = sample_finding();
  Diagnostic b = sample_finding();  // the same finding after capturing the plan again
  b.operator_id = "17";
  b.range = {42, 9, 42, 22};
  b.message = "SortMergeJoin (17) shuffles both sides although the left side is 2.3 MiB";
  b.evidence[0] = {"left side size", 2411724.0, Unit::Bytes, "2.3 MiB"};
  b.evidence[1].value = "customer_id#901 = c_customer_id#977";
  CHECK(fingerprint(a) == fingerprint(b));
  CHECK(fingerprint(a).size() == 16);

  Diagnostic other_table = sample_finding();
  other_table.fix = "let Spark broadcast the left side: /*+ BROADCAST(r) */";
  CHECK(fingerprint(a) != fingerprint(other_table));

  Diagnostic other_keys = sample_finding();
  other_keys.evidence[1].value = "order_id#12 = o_order_id#40";
  CHECK(fingerprint(a) != fingerprint(other_keys));
  CHECK(fingerprint(a) != fingerprint(sample_finding("skew-not-handled")));

  auto occ = fingerprints_with_occurrence({a, b, other_keys});
  CHECK(occ[0] == fingerprint(a) + ":1");
  CHECK(occ[1] == fingerprint(a) + ":2");
  CHECK(occ[2] == fingerprint(other_keys) + ":1");
}

TEST_CASE("fingerprint: a plan label counts as the message prefix it used to be") {
  // Before Diagnostic::plan_label, the engine wrote the execution into the message.
  Diagnostic before = sample_finding();
  before.message = "execution 3 (save at etl.py:41): " + before.message;
  Diagnostic labelled = sample_finding();
  labelled.plan_label = {3, "save at etl.py:41"};
  CHECK(labelled_message(labelled) == before.message);
  CHECK(fingerprint(labelled) == fingerprint(before));
  CHECK(fingerprint(labelled) != fingerprint(sample_finding()));
  // Another execution of the same statement (ids are numbers, normalised away) is the same finding;
  // another statement is not.
  Diagnostic other_run = labelled;
  other_run.plan_label.execution = 12;
  CHECK(fingerprint(other_run) == fingerprint(labelled));
  Diagnostic other_statement = labelled;
  other_statement.plan_label.description = "collect at report.py:7";
  CHECK(fingerprint(other_statement) != fingerprint(labelled));

  std::string text = baseline_json({sample_report({labelled})}, "baseline.json");
  auto j = nlohmann::json::parse(text);
  CHECK(j["findings"][0]["message"] == before.message);
  CHECK(j["findings"][0]["fingerprint"] == fingerprint(before));
}

TEST_CASE("baseline: recorded findings are hidden after a re-capture, new ones are reported") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "planlint_test_baseline";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path file = dir / "baseline.json";

  FileReport before = sample_report({sample_finding()});
  before.path = (dir / "plans" / "q1.txt").string();
  std::string error;
  REQUIRE(write_baseline(file, {before}, error));
  auto j = nlohmann::json::parse(planlint::test::read_file(file));
  CHECK(j["version"] == 1);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["path"] == "plans/q1.txt");  // relative to the baseline's folder
  CHECK(j["findings"][0]["rule"] == "shuffle-join-could-broadcast");
  CHECK(j["findings"][0]["fingerprint"] == fingerprint(sample_finding()));

  // Re-captured: new ids and lines; plus one new finding and a second copy of the old one.
  Diagnostic recaptured = sample_finding();
  recaptured.operator_id = "23";
  recaptured.range = {30, 7, 30, 20};
  recaptured.evidence[1].value = "customer_id#512 = c_customer_id#513";
  Diagnostic twin = recaptured;
  twin.range.line = 50;
  Diagnostic fresh = sample_finding("exploding-join", "PL005");
  FileReport after = sample_report({recaptured, fresh, twin});
  after.path = before.path;

  auto baseline = read_baseline(file, error);
  REQUIRE(baseline);
  CHECK(apply_baseline(*baseline, after, file) == 1);
  REQUIRE(after.diagnostics.size() == 2);
  CHECK(after.diagnostics[0].rule == "exploding-join");
  CHECK(after.diagnostics[1].range.line == 50);  // the baseline had only one of them
  CHECK(after.baselined == 1);

  // Another file with the same finding is not covered.
  FileReport elsewhere = sample_report({sample_finding()});
  elsewhere.path = (dir / "plans" / "q2.txt").string();
  auto fresh_baseline = read_baseline(file, error);
  CHECK(apply_baseline(*fresh_baseline, elsewhere, file) == 0);
  fs::remove_all(dir);
}

TEST_CASE("baseline: a file that is not a baseline is an error") {
  std::string error;
  CHECK(!parse_baseline("{\"files\": []}", error));
  CHECK(error.find("not a planlint baseline") != std::string::npos);
  CHECK(!parse_baseline("{\"version\": 2, \"findings\": []}", error));
  CHECK(error.find("version 2") != std::string::npos);
  CHECK(!parse_baseline("{\"version\": 1, \"findings\": [{\"path\": 1}]}", error));
  CHECK(parse_baseline("{\"version\": 1, \"findings\": []}", error));
}

TEST_CASE("baseline: deep nesting is refused before parsing, and errors quote at most ~200 bytes (probe C2)") {
  std::string error;
  // 100,000 levels under "findings" overflowed the stack in nlohmann's parse / dump (SIGSEGV).
  const std::size_t n = 100000;
  std::string deep = "{\"version\":1,\"findings\":" + std::string(n, '[') + std::string(n, ']') + "}";
  CHECK(!parse_baseline(deep, error));
  CHECK(error.find("nested deeper than") != std::string::npos);
  // A deep "version" too.
  std::string deep_version = "{\"version\":" + std::string(n, '[') + std::string(n, ']') + ",\"findings\":[]}";
  CHECK(!parse_baseline(deep_version, error));
  CHECK(error.size() < 300);
  // An entry holding a 1 MB string: the message quotes its start and says how large it was.
  std::string big = "{\"version\":1,\"findings\":[{\"path\":\"p\",\"x\":\"" + std::string(1 << 20, 'a') + "\"}]}";
  CHECK(!parse_baseline(big, error));
  CHECK(error.find("baseline entry without") != std::string::npos);
  CHECK(error.size() < 400);
  CHECK(error.find("bytes)") != std::string::npos);
  // A version of 50 levels (under the limit) is quoted short as well.
  std::string v50 = "{\"version\":" + std::string(50, '[') + "\"" + std::string(1000, 'v') + "\"" +
                    std::string(50, ']') + ",\"findings\":[]}";
  CHECK(!parse_baseline(v50, error));
  CHECK(error.find("unsupported baseline version") != std::string::npos);
  CHECK(error.size() < 400);
  // What a real baseline nests stays accepted.
  CHECK(parse_baseline("{\"version\": 1, \"findings\": [{\"path\": \"a\", \"fingerprint\": \"f\", \"x\": [[[1]]]}]}", error));
}

TEST_CASE("fingerprint: a renamed rule keeps its former name's fingerprint (baselines still match)") {
  // native-engine-fallback was photon-fallback: findings recorded before the rename must still
  // match, so the fingerprint is taken under the first former name (RuleDoc::aliases).
  Diagnostic now = sample_finding();
  now.rule = "native-engine-fallback";
  now.code = "PL007";
  Diagnostic before = now;
  before.rule = "photon-fallback";
  CHECK(fingerprint(now) == fingerprint(before));
  // Any other rule name still changes the fingerprint.
  Diagnostic other = now;
  other.rule = "disk-spill";
  CHECK(fingerprint(other) != fingerprint(now));
}
