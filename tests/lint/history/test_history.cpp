// planlint history (lint/history/): reading system.query.history exports (CSV, JSON lines),
// fingerprints, p95 windows, and the planted regressions of the generated export
// (tools/gen/gen_query_history.py -> corpus/history/).
#include <doctest/doctest.h>

#include <set>

#include "lint/history/history.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {

constexpr double kNow = 1768478400000.0;  // 2026-01-15T12:00:00Z, the end of the generated export

std::set<std::string> regressed(const FileReport& r) {
  std::set<std::string> out;
  for (const auto& d : r.diagnostics)
    if (d.rule == kQueryRegressed) out.insert(d.operator_name);
  return out;
}

std::string phase_of(const FileReport& r, std::string_view fingerprint) {
  for (const auto& d : r.diagnostics)
    if (d.operator_name == fingerprint)
      for (const auto& e : d.evidence)
        if (e.name == "phase that grew") return e.value;
  return "";
}

}  // namespace

TEST_CASE("history: timestamps, p95, normalisation") {
  CHECK(parse_timestamp_ms("2026-01-15T12:00:00Z") == kNow);
  CHECK(parse_timestamp_ms("2026-01-15 12:00:00.000") == kNow);
  CHECK(parse_timestamp_ms("2026-01-15T14:00:00+02:00") == kNow);
  CHECK(parse_timestamp_ms("1768478400000") == kNow);
  CHECK_FALSE(parse_timestamp_ms("yesterday"));
  CHECK_FALSE(parse_timestamp_ms("2026-13-01 00:00:00"));
  // Offsets without a colon, half-hour zones, microseconds, the calendar (no 30 February).
  CHECK(parse_timestamp_ms("2026-01-15T17:30:00+0530") == kNow);
  CHECK(parse_timestamp_ms("2026-01-15T06:30:00-05:30") == kNow);
  CHECK(parse_timestamp_ms("2026-01-15 12:00:00 UTC") == kNow);
  CHECK(parse_timestamp_ms("2026-01-15T12:00:00.250000Z") == kNow + 250);
  CHECK(parse_timestamp_ms("2026-01-15") == kNow - 12 * 3600 * 1000.0);
  CHECK_FALSE(parse_timestamp_ms("2026-02-30 00:00:00"));
  CHECK_FALSE(parse_timestamp_ms("2026-01-15T12:00:00 tomorrow"));
  CHECK(p95({1, 2, 3, 4}) == 4);
  std::vector<double> many(30, 1.0);
  many[7] = 100;  // one outlier among 30 runs is not the p95
  CHECK(p95(many) == 1.0);
  CHECK(normalise_statement("SELECT *  FROM t\nWHERE id = 42 AND name = 'x'") == "select * from t where id = ? and name = ?");
  HistoryRecord a, b;
  a.statement_text = "select * from t1 where id = 1";
  b.statement_text = "SELECT * FROM t1 WHERE id = 99";
  CHECK(statement_fingerprint(a) == statement_fingerprint(b));
  b.tags = "job=etl";
  CHECK(statement_fingerprint(b) == "tag:job=etl");
}

TEST_CASE("history: the generated export flags exactly the planted fingerprints, CSV and JSON lines") {
  for (const char* ext : {".csv", ".jsonl"}) {
    CAPTURE(ext);
    std::string bad = test::read_file(test::corpus_dir() / "history" / (std::string("history-regressed") + ext));
    FileReport r = check_history(bad, "history-regressed", Config{}, kNow);
    CHECK(r.error.empty());
    std::string all;
    for (const auto& d : r.diagnostics) all += d.rule + ": " + d.message + "\n";
    INFO(all);
    auto flagged = regressed(r);
    REQUIRE(flagged.size() == 2);
    CHECK(flagged.count("tag:job=nightly_etl") == 1);
    std::string sql;
    for (const auto& f : flagged)
      if (f.rfind("sql:", 0) == 0) sql = f;
    CHECK(!sql.empty());
    CHECK(phase_of(r, sql) == "execution");
    CHECK(phase_of(r, "tag:job=nightly_etl") == "queueing at capacity");
    for (const auto& d : r.diagnostics) {
      CHECK(d.range.line > 1);
      CHECK(d.message.find("grew most") != std::string::npos);
    }
    // The same export without the plants: nothing.
    std::string clean = test::read_file(test::corpus_dir() / "history" / (std::string("history-clean") + ext));
    FileReport c = check_history(clean, "history-clean", Config{}, kNow);
    CHECK(c.error.empty());
    CHECK(c.diagnostics.empty());
  }
}

TEST_CASE("history: bad input is reported, never guessed") {
  CHECK(!check_history("", "e.csv", Config{}).error.empty());
  CHECK(check_history("a,b\n1,2\n", "x.csv", Config{}).error.find("start_time") != std::string::npos);
  FileReport r = check_history(
      "statement_text,start_time,total_duration_ms\n\"select 1\",nope,5\n\"select 1\",2026-01-01,7,9\n\"select 1\",2026-01-01,7\n",
      "y.csv", Config{});
  CHECK(r.error.empty());
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].rule == "parse-error");
  CHECK(r.diagnostics[0].range.line == 2);
  CHECK(r.diagnostics[1].range.line == 3);
  CHECK(!check_history("{\"x\": 1}\n", "z.jsonl", Config{}).error.empty());
  // Rows that could all not be read: nothing was read (exit 2), and the error says so.
  CHECK(!check_history("statement_text,start_time,total_duration_ms\n\"select 1\",nope,5\n", "w.csv", Config{}).error.empty());
}

TEST_CASE("planlint history: CLI, formats and exit codes") {
  std::string dir = (test::corpus_dir() / "history").string();
  auto r = test::run_planlint("history --no-config --now 2026-01-15T12:00:00Z " + dir + "/history-regressed.csv");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("[PLH001 query-regressed]") != std::string::npos);
  auto gh = test::run_planlint("history --no-config --format github --now 2026-01-15T12:00:00Z " + dir + "/history-regressed.jsonl");
  CHECK(gh.out.find("::warning file=" + dir + "/history-regressed.jsonl,line=") != std::string::npos);
  CHECK(test::run_planlint("history --no-config --now 2026-01-15T12:00:00Z " + dir + "/history-clean.csv").exit_code == 0);
  CHECK(test::run_planlint("history --no-config --set query-regressed.factor=10 --now 2026-01-15T12:00:00Z " + dir +
                           "/history-regressed.csv")
            .exit_code == 0);
  CHECK(test::run_planlint("history --no-config " + dir + "/missing.csv").exit_code == 2);
  CHECK(test::run_planlint("history --no-config --now never " + dir + "/history-clean.csv").exit_code == 2);
  auto doc = test::run_planlint("rule PLH001");
  CHECK(doc.exit_code == 0);
  CHECK(doc.out.find("query-regressed (PLH001)") != std::string::npos);
}
