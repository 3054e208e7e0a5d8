// `planlint check` end to end through the executable: exit codes, formats, config discovery,
// suppressions, the baseline across a re-captured plan, folder walks and parallel runs.
// Plans: corpus/check/orders-join.explain.txt (a SortMergeJoin whose right side is 1.2 MiB:
// shuffle-join-could-broadcast) and orders-join.recaptured.explain.txt (the same query captured
// again: new expression ids, plan_ids, operator numbers, a smaller size, a comment header).
#include <doctest/doctest.h>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support.hpp"

namespace fs = std::filesystem;
using planlint::test::corpus_dir;
using planlint::test::q;
using planlint::test::Scratch;
using planlint::test::read_file;
using planlint::test::run_planlint;
using planlint::test::write_file;

namespace {

fs::path plan() { return corpus_dir() / "check" / "orders-join.explain.txt"; }
fs::path recaptured() { return corpus_dir() / "check" / "orders-join.recaptured.explain.txt"; }

// A scratch folder, removed at the end of the test.

std::size_t count_lines(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("check: exit codes 0, 1 and 2") {
  auto r = run_planlint("check --no-config " + q(plan()));
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("[PL002 shuffle-join-could-broadcast]") != std::string::npos);
  CHECK(r.out.find("Found 1 finding (1 warning) in 1 file.") != std::string::npos);
  CHECK(run_planlint("check --no-config --exit-zero " + q(plan())).exit_code == 0);
  CHECK(run_planlint("check --no-config --fail-on error " + q(plan())).exit_code == 0);
  CHECK(run_planlint("check --no-config --fail-on error --severity shuffle-join-could-broadcast=error " + q(plan()))
            .exit_code == 1);
  CHECK(run_planlint("check --no-config --ignore PL002 " + q(plan())).exit_code == 0);
  CHECK(run_planlint("check --no-config --select filter-not-pushed-down " + q(plan())).exit_code == 0);
  CHECK(run_planlint("check --no-config --set broadcast-threshold=1m " + q(plan())).exit_code == 0);
  CHECK(run_planlint("check --no-config --set shuffle-join-could-broadcast.broadcast-threshold=1m " + q(plan()))
            .exit_code == 0);
  // Usage errors, unreadable input.
  auto bad = run_planlint("check --no-config --select no-such-rule " + q(plan()), true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("unknown rule `no-such-rule`") != std::string::npos);
  CHECK(run_planlint("check --no-config --set nope=3 " + q(plan())).exit_code == 2);
  CHECK(run_planlint("check --no-config --set broadcast-threshold=huge " + q(plan())).exit_code == 2);
  CHECK(run_planlint("check --no-config --format yaml " + q(plan())).exit_code == 2);
  auto missing = run_planlint("check --no-config /nonexistent/plan.txt " + q(plan()), true);
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("/nonexistent/plan.txt: No such file or directory") != std::string::npos);
  CHECK(missing.out.find("[PL002 shuffle-join-could-broadcast]") != std::string::npos);  // the other file was checked
}

TEST_CASE("check: input that does not parse is a parse-error finding (severity error)") {
  Scratch s("planlint_cli_parse");
  // A plan read in part: its parse error is a finding (exit 1) that configuration can tune.
  write_file(s.dir / "cut.txt", "== Physical Plan ==\nAdaptiveSparkPlan (9)\n+- SortMergeJoin Inner (8\n");
  auto r = run_planlint("check --no-config --format json " + q(s.dir / "cut.txt"));
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["files"][0]["diagnostics"].size() >= 1);
  const auto& d = j["files"][0]["diagnostics"][0];
  CHECK(d["rule"] == "parse-error");
  CHECK(d["code"] == "PL900");
  CHECK(d["severity"] == "error");
  CHECK(d["line"] == 3);
  CHECK(run_planlint("check --no-config --fail-on error " + q(s.dir / "cut.txt")).exit_code == 1);
  CHECK(run_planlint("check --no-config --fail-on error --severity parse-error=warning " + q(s.dir / "cut.txt"))
            .exit_code == 0);
  CHECK(run_planlint("check --no-config --ignore parse-error " + q(s.dir / "cut.txt")).exit_code == 0);
  // --select does not hide parse errors: a plan that cannot be read was not checked.
  CHECK(run_planlint("check --no-config --select PL002 " + q(s.dir / "cut.txt")).exit_code == 1);
  // Nothing read at all is not "No findings" and cannot be configured away: exit 2, with a hint.
  write_file(s.dir / "notes.txt", "remember to capture the plan of q7\n");
  auto n = run_planlint("check --no-config " + q(s.dir / "notes.txt"), true);
  CHECK(n.exit_code == 2);
  CHECK(n.out.find("no plan operators were read") != std::string::npos);
  CHECK(n.out.find("hint: ") != std::string::npos);
  CHECK(run_planlint("check --no-config --ignore parse-error " + q(s.dir / "notes.txt")).exit_code == 2);
  CHECK(run_planlint("parse " + q(s.dir / "notes.txt")).exit_code == 2);
  // Not a plan at all.
  write_file(s.dir / "profile.json", "{\"graphs\": [{\"nodes\": [");
  auto p = run_planlint("check --no-config --format concise " + q(s.dir / "profile.json"));
  CHECK(p.exit_code == 1);
  CHECK(p.out.find("error[PL900 parse-error]") != std::string::npos);
}

TEST_CASE("check: stdin, --stdin-filename, and every format through the executable") {
  auto r = run_planlint("check --no-config --format concise --stdin-filename plans/q.txt < " + q(plan()));
  CHECK(r.exit_code == 1);
  CHECK(r.out.rfind("plans/q.txt:5:7: warning[PL002 shuffle-join-could-broadcast] SortMergeJoin (14) shuffles", 0) == 0);

  auto j = nlohmann::json::parse(run_planlint("check --no-config --format json " + q(plan())).out);
  const auto& d = j["files"][0]["diagnostics"][0];
  CHECK(j["files"][0]["format"] == "explain-formatted");
  CHECK(d["rule"] == "shuffle-join-could-broadcast");
  CHECK(d["operator_id"] == "14");
  CHECK(d["operator"] == "SortMergeJoin");
  CHECK(d["line"] == 5);
  CHECK(d["column"] == 7);

  auto s = nlohmann::json::parse(run_planlint("check --no-config --format sarif " + q(plan())).out);
  CHECK(s["runs"][0]["results"][0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "SortMergeJoin (14)");
  CHECK(run_planlint("check --no-config --format github " + q(plan())).out.rfind("::warning file=", 0) == 0);
  CHECK(run_planlint("check --no-config --format junit " + q(plan())).out.find("<failure ") != std::string::npos);
  CHECK(run_planlint("check --no-config --statistics " + q(plan())).out.find("    1  PL002  shuffle-join-could-broadcast\n") !=
        std::string::npos);
  // Never colour into a pipe unless asked.
  CHECK(run_planlint("check --no-config " + q(plan())).out.find('\x1b') == std::string::npos);
  CHECK(run_planlint("check --no-config --color always " + q(plan())).out.find('\x1b') != std::string::npos);
}

TEST_CASE("check: SARIF fingerprints survive a re-captured plan") {
  auto a = nlohmann::json::parse(run_planlint("check --no-config --format sarif " + q(plan())).out);
  auto b = nlohmann::json::parse(run_planlint("check --no-config --format sarif " + q(recaptured())).out);
  const auto& ra = a["runs"][0]["results"][0];
  const auto& rb = b["runs"][0]["results"][0];
  CHECK(ra["locations"][0]["physicalLocation"]["region"]["startLine"] !=
        rb["locations"][0]["physicalLocation"]["region"]["startLine"]);
  CHECK(ra["partialFingerprints"] == rb["partialFingerprints"]);
}

TEST_CASE("check: config discovery from the file's folder, nearest wins, errors exit 2") {
  Scratch s("planlint_cli_config");
  std::string text = read_file(plan());
  write_file(s.dir / "pyproject.toml", "[tool.planlint]\n[tool.planlint.severity]\nshuffle-join-could-broadcast = \"error\"\n");
  write_file(s.dir / "a" / "q.txt", text);
  write_file(s.dir / "b" / ".planlint.toml", "ignore = [\"shuffle-join-could-broadcast\"]\n");
  write_file(s.dir / "b" / "q.txt", text);
  write_file(s.dir / "c" / ".planlint.toml", "[per-file-ignores]\n\"old/*.txt\" = [\"PL002\"]\n");
  write_file(s.dir / "c" / "old" / "q.txt", text);
  write_file(s.dir / "c" / "new" / "q.txt", text);

  auto a = run_planlint("check --format concise " + q(s.dir / "a" / "q.txt"));
  CHECK(a.exit_code == 1);
  CHECK(a.out.find("error[PL002 shuffle-join-could-broadcast]") != std::string::npos);  // pyproject's severity
  CHECK(run_planlint("check " + q(s.dir / "b" / "q.txt")).exit_code == 0);          // nearest config ignores it
  CHECK(run_planlint("check --no-config " + q(s.dir / "b" / "q.txt")).exit_code == 1);
  CHECK(run_planlint("check --config " + q(s.dir / "b" / ".planlint.toml") + " " + q(s.dir / "a" / "q.txt")).exit_code == 0);
  auto c = run_planlint("check --format concise " + q(s.dir / "c"));
  CHECK(count_lines(c.out, "[PL002 shuffle-join-could-broadcast]") == 1);
  CHECK(c.out.find("new/q.txt") != std::string::npos);

  write_file(s.dir / "b" / ".planlint.toml", "[rules.shuffle-join-could-broadcast]\nbroadcast-treshold = \"1m\"\n");
  auto bad = run_planlint("check " + q(s.dir / "b" / "q.txt"), true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find((s.dir / "b" / ".planlint.toml").string() +
                     ":2:1: error: unknown option `broadcast-treshold` for rule `shuffle-join-could-broadcast`") !=
        std::string::npos);
  write_file(s.dir / "b" / ".planlint.toml", "[rules.shuffle-join-could-broadcast]\nbroadcast-threshold = \"1m\"\n");
  CHECK(run_planlint("check " + q(s.dir / "b" / "q.txt")).exit_code == 0);  // 1.2 MiB is above 1 MiB
  write_file(s.dir / "b" / ".planlint.toml", "select = \"PL002\"\n");
  CHECK(run_planlint("check " + q(s.dir / "b" / "q.txt")).exit_code == 2);
}

TEST_CASE("check: suppression directives, used and unused") {
  Scratch s("planlint_cli_suppress");
  std::string text = read_file(plan());
  write_file(s.dir / "file.txt", "# planlint: disable=shuffle-join-could-broadcast\n" + text);
  write_file(s.dir / "op.txt", "-- planlint: disable=PL002 operator=14\n" + text);
  write_file(s.dir / "wrong-op.txt", "// planlint: disable=shuffle-join-could-broadcast operator=3\n" + text);
  write_file(s.dir / "unknown.txt", "# planlint: disable=shuffle-join-could-broadcast,no-such-rule\n" + text);

  auto f = run_planlint("check --no-config " + q(s.dir / "file.txt"));
  CHECK(f.exit_code == 0);
  CHECK(f.out.find("No findings in 1 file (1 suppressed).") != std::string::npos);
  CHECK(run_planlint("check --no-config " + q(s.dir / "op.txt")).exit_code == 0);

  auto w = run_planlint("check --no-config --format concise " + q(s.dir / "wrong-op.txt"));
  CHECK(w.exit_code == 1);
  CHECK(w.out.find("wrong-op.txt:1:22: warning[PL901 unused-suppression] unused suppression: `shuffle-join-could-broadcast` "
                   "reported nothing on operator 3") != std::string::npos);
  CHECK(w.out.find("warning[PL002 shuffle-join-could-broadcast]") != std::string::npos);

  auto u = run_planlint("check --no-config --format concise " + q(s.dir / "unknown.txt"));
  CHECK(u.out.find("unknown.txt:1:50: warning[PL901 unused-suppression] unknown rule `no-such-rule` in suppression") !=
        std::string::npos);
  CHECK(count_lines(u.out, "[PL002 shuffle-join-could-broadcast]") == 0);
  CHECK(run_planlint("check --no-config --ignore unused-suppression " + q(s.dir / "unknown.txt")).exit_code == 0);
}

TEST_CASE("check: the baseline hides known findings of a re-captured plan, not new ones") {
  Scratch s("planlint_cli_baseline");
  fs::create_directories(s.dir / "plans");
  fs::copy_file(plan(), s.dir / "plans" / "q1.txt");
  std::string base = q(s.dir / "baseline.json");
  auto w = run_planlint("check --no-config --write-baseline " + base + " " + q(s.dir / "plans"), true);
  CHECK(w.exit_code == 0);
  CHECK(w.out.find("wrote 1 finding to the baseline") != std::string::npos);
  auto j = nlohmann::json::parse(read_file(s.dir / "baseline.json"));
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["path"] == "plans/q1.txt");

  // The plan is captured again: new ids, operator numbers, lines and sizes.
  fs::copy_file(recaptured(), s.dir / "plans" / "q1.txt", fs::copy_options::overwrite_existing);
  auto again = run_planlint("check --no-config --baseline " + base + " " + q(s.dir / "plans"));
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("No findings in 1 file (1 in the baseline).") != std::string::npos);

  // A new problem in another query is reported; so is the known one in a file the baseline lacks.
  std::string other = read_file(plan());
  for (std::size_t at; (at = other.find("shop.stores")) != std::string::npos;) other.replace(at, 11, "shop.region");
  write_file(s.dir / "plans" / "q1.txt", other);
  write_file(s.dir / "plans" / "q2.txt", read_file(plan()));
  auto fresh = run_planlint("check --no-config --format concise --baseline " + base + " " + q(s.dir / "plans"));
  CHECK(fresh.exit_code == 1);
  CHECK(count_lines(fresh.out, "[PL002 shuffle-join-could-broadcast]") == 2);
  CHECK(run_planlint("check --no-config --baseline " + q(s.dir / "missing.json") + " " + q(s.dir / "plans")).exit_code == 2);
}

// tests/tools/cli/data/baseline-9617-executions.json was written by planlint before findings had a
// plan label of their own (the engine wrote "execution 1 (...): " into the message), for
// logs/multi-exec.eventlog and logs/multi-exec.sql.json (corpus/eventlog, corpus/history-server).
TEST_CASE("check: a baseline written when the execution was part of the message still matches") {
  Scratch s("planlint_cli_baseline_executions");
  fs::create_directories(s.dir / "logs");
  fs::copy_file(corpus_dir() / "eventlog" / "multi-exec.eventlog", s.dir / "logs" / "multi-exec.eventlog");
  fs::copy_file(corpus_dir() / "history-server" / "multi-exec.sql.json", s.dir / "logs" / "multi-exec.sql.json");
  const fs::path old_baseline = planlint::test::source_dir() / "tests" / "tools" / "cli" / "data" / "baseline-9617-executions.json";
  fs::copy_file(old_baseline, s.dir / "baseline.json");
  auto r = run_planlint("check --no-config --baseline " + q(s.dir / "baseline.json") + " " + q(s.dir / "logs"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No findings in 2 files (6 in the baseline).") != std::string::npos);
  // Written again, the baseline is the same file: fingerprints and messages name the execution.
  auto w = run_planlint("check --no-config --write-baseline " + q(s.dir / "again.json") + " " + q(s.dir / "logs"), true);
  CHECK(w.exit_code == 0);
  CHECK(read_file(s.dir / "again.json") == read_file(old_baseline));
}

TEST_CASE("check: JSON gives a finding's execution as a field, the text outputs write it before the message") {
  Scratch s("planlint_cli_execution_field");
  // A History Server answer with two executions that both have findings: execution 7 (the skewed
  // join, renumbered) and execution 1.
  nlohmann::json seven = nlohmann::json::parse(read_file(corpus_dir() / "history-server" / "skewed-join.sql.json")).at(0);
  seven["id"] = 7;
  seven["description"] = "nightly at etl.py:9";
  nlohmann::json one = nlohmann::json::parse(read_file(corpus_dir() / "history-server" / "multi-exec.sql-1.json"));
  write_file(s.dir / "answer.json", nlohmann::json::array({seven, one}).dump(2));
  fs::path log = corpus_dir() / "eventlog" / "multi-exec.eventlog";

  auto j = run_planlint("check --no-config --format json " + q(s.dir / "answer.json") + " " + q(log));
  CHECK(j.exit_code == 1);
  auto files = nlohmann::json::parse(j.out)["files"];
  REQUIRE(files.size() == 2);
  std::map<long long, std::size_t> by_id;
  for (const auto& d : files[0]["diagnostics"]) {
    REQUIRE(d.contains("execution"));
    long long id = d["execution"]["id"].get<long long>();
    ++by_id[id];
    CHECK(d["execution"]["description"] == (id == 7 ? "nightly at etl.py:9" : "save at sessions.py:58"));
    CHECK(d["message"].get<std::string>().rfind("execution", 0) == std::string::npos);
  }
  CHECK(by_id.size() == 2);
  CHECK(by_id[7] > 0);
  CHECK(by_id[1] > 0);
  // The event log's two executions: execution 0 has no finding, so every one is execution 1.
  REQUIRE(!files[1]["diagnostics"].empty());
  for (const auto& d : files[1]["diagnostics"]) {
    CHECK(d["execution"] == nlohmann::json{{"id", 1}, {"description", "save at sessions.py:58"}});
    CHECK(d["message"].get<std::string>().rfind("execution", 0) == std::string::npos);
  }
  // --execution: the one plan read is the log's execution 1, not plan 0.
  auto only = run_planlint("check --no-config --format json --execution 1 " + q(log));
  const auto only_json = nlohmann::json::parse(only.out);  // kept: the loop must not view a temporary
  for (const auto& d : only_json["files"][0]["diagnostics"]) CHECK(d["execution"]["id"] == 1);
  // An explain text has no execution.
  auto plain = run_planlint("check --no-config --format json " + q(plan()));
  const auto plain_json = nlohmann::json::parse(plain.out);
  for (const auto& d : plain_json["files"][0]["diagnostics"]) CHECK(!d.contains("execution"));

  auto text = run_planlint("check --no-config --format concise " + q(s.dir / "answer.json") + " " + q(log));
  CHECK(count_lines(text.out, "] execution 7 (nightly at etl.py:9): ") == by_id[7]);
  CHECK(count_lines(text.out, "] execution 1 (save at sessions.py:58): ") == by_id[1] + files[1]["diagnostics"].size());
  auto sarif = run_planlint("check --no-config --format sarif " + q(log));
  CHECK(count_lines(sarif.out, "\"text\": \"execution 1 (save at sessions.py:58): ") == files[1]["diagnostics"].size());
}

TEST_CASE("check: folders in a fixed order, the same with one job or many") {
  Scratch s("planlint_cli_folders");
  std::string text = read_file(plan());
  for (const char* f : {"z.txt", "a.explain", "sub/m.plan", "sub/skip.md", ".hidden/h.txt", "old/o.txt"})
    write_file(s.dir / f, text);
  auto one = run_planlint("check --no-config --format concise --jobs 1 --exclude old " + q(s.dir));
  auto many = run_planlint("check --no-config --format concise --jobs 4 --exclude old " + q(s.dir));
  CHECK(one.out == many.out);
  auto a = one.out.find("a.explain:"), m = one.out.find("sub/m.plan:"), z = one.out.find("z.txt:");
  CHECK(a != std::string::npos);
  CHECK(m != std::string::npos);
  CHECK(z != std::string::npos);
  CHECK(a < m);
  CHECK(m < z);
  CHECK(one.out.find("skip.md") == std::string::npos);
  CHECK(one.out.find(".hidden") == std::string::npos);
  CHECK(one.out.find("o.txt") == std::string::npos);
  CHECK(one.out.find("in 3 files.") != std::string::npos);
  auto inc = run_planlint("check --no-config --format concise --include '*.plan' " + q(s.dir));
  CHECK(inc.out.find("in 1 file.") != std::string::npos);
}

TEST_CASE("check: a directive after a BOM or with blanks around `=` suppresses; one not understood is reported (issue 32 W5)") {
  Scratch s("planlint-w5");
  std::string plan_text = read_file(corpus_dir() / "examples" / "orders-by-region.explain.txt");
  struct Case {
    std::string directive;
    bool suppressed;
  };
  const Case cases[] = {
      {"\xEF\xBB\xBF# planlint: disable=shuffle-join-could-broadcast\n", true},
      {"# planlint: disable = shuffle-join-could-broadcast\n", true},
      {"# planlint: disable=shuffle-join-could-broadcast trailing words\n", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.directive);
    fs::path f = s.dir / "sup.txt";
    write_file(f, c.directive + plan_text);
    auto r = run_planlint("check --no-config --format concise " + q(f));
    CHECK(r.exit_code == 1);
    CHECK(count_lines(r.out, "[PL002 shuffle-join-could-broadcast]") == (c.suppressed ? 0u : 1u));
    CHECK(count_lines(r.out, "[PL006 non-sargable-predicate]") == 1);
    if (c.suppressed) {
      CHECK(count_lines(r.out, "[PL901 unused-suppression]") == 0);
    } else {
      CHECK(r.out.find("sup.txt:1:1: warning[PL901 unused-suppression] `# planlint:` directive not understood") !=
            std::string::npos);
    }
    // The JSON format carries the same.
    auto j = nlohmann::json::parse(run_planlint("check --no-config --format json " + q(f)).out);
    std::size_t unused = 0, smj = 0;
    for (const auto& d : j["files"][0]["diagnostics"]) {
      unused += d["rule"] == "unused-suppression";
      smj += d["rule"] == "shuffle-join-could-broadcast";
    }
    CHECK(smj == (c.suppressed ? 0u : 1u));
    CHECK(unused == (c.suppressed ? 0u : 1u));
  }
}

namespace {

// The reliability probe's event log: 1,500 SQL executions that never end (its item W4).
std::string many_running_executions(int n) {
  std::string out = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.3.2\"}\n";
  const std::string plan =
      R"(== Physical Plan ==\n* Project (2)\n+- * Filter (1)\n\n(1) Filter\nCondition : (a#1 > 1)\n\n(2) Project\nOutput [1]: [a#1]\n)";
  for (int i = 0; i < n; ++i)
    out += R"({"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart", "executionId": )" +
           std::to_string(i) + R"(, "description": "q", "physicalPlanDescription": ")" + plan +
           R"(", "sparkPlanInfo": {"nodeName": "Project", "simpleString": "Project", "children": [], "metadata": {}, "metrics": []}, "time": 0})" +
           "\n";
  return out;
}

// A History Server answer with one graph node no operator of the plan text matches.
std::string answer_with_unmatched_node() {
  // ordered: the answer keeps Spark's key order
  auto j = nlohmann::ordered_json::parse(read_file(corpus_dir() / "history-server" / "even-join.sql.json"));
  j[0]["nodes"].push_back({{"nodeId", 99},
                           {"nodeName", "MysteryNode"},
                           {"metrics", nlohmann::ordered_json::array({{{"name", "number of output rows"}, {"value", "5"}}})}});
  return j.dump();
}

}  // namespace

TEST_CASE("check: the readers' warnings and notes reach every format (issue 32 W4)") {
  Scratch s("planlint-w4");
  fs::path log = s.dir / "n1500.eventlog";
  write_file(log, many_running_executions(1500));
  fs::path hs = s.dir / "hs.sql.json";
  write_file(hs, answer_with_unmatched_node());
  const std::string warning =
      "n1500.eventlog:1002:1: warning: more than 1000 SQL executions (or 256 MiB of their plans) are running at once: "
      "the oldest are checked now as unfinished";
  const std::string note_text = "execution 0: metrics of 1 of 14 graph nodes could not be matched to an operator of the plan text";
  // Where the reader puts the note is its business: take it from the JSON format.
  auto where = nlohmann::json::parse(run_planlint("check --no-config --format json " + q(hs)).out)["files"][0]["messages"][0];
  const std::string col = std::to_string(where["column"].get<int>());
  CHECK(where["line"] == 1);
  const std::string note = "hs.sql.json:1:" + col + ": note: " + note_text;

  // Text and concise: on standard error, as `parse` prints them; standard output is the report.
  for (const char* format : {"text", "concise"}) {
    CAPTURE(format);
    auto out = run_planlint(std::string("check --no-config --format ") + format + " " + q(log) + " " + q(hs));
    CHECK(out.exit_code == 0);  // warnings and notes are not findings
    CHECK(out.out.find("warning: more than 1000") == std::string::npos);
    CHECK(out.out.find("No findings in 2 files.") != std::string::npos);
    auto both = run_planlint(std::string("check --no-config --format ") + format + " " + q(log) + " " + q(hs), true);
    CHECK(both.out.find(warning) != std::string::npos);
    CHECK(both.out.find(note) != std::string::npos);
  }
  // The same text as `planlint parse` prints.
  CHECK(run_planlint("parse " + q(log), true).out.find(warning) != std::string::npos);

  // JSON: a "messages" array per file.
  auto j = nlohmann::json::parse(run_planlint("check --no-config --format json " + q(log) + " " + q(hs)).out);
  REQUIRE(j["files"].size() == 2);
  REQUIRE(j["files"][0]["messages"].size() == 1);
  CHECK(j["files"][0]["messages"][0] == nlohmann::json{{"severity", "warning"},
                                                       {"message", warning.substr(warning.find("more than"))},
                                                       {"line", 1002},
                                                       {"column", 1}});
  REQUIRE(j["files"][1]["messages"].size() == 1);
  CHECK(j["files"][1]["messages"][0]["severity"] == "note");
  CHECK(j["files"][1]["messages"][0]["message"] == note_text);
  CHECK(j["files"][0]["diagnostics"].empty());

  // SARIF: tool execution notifications, and the run is still successful.
  auto sarif = nlohmann::json::parse(run_planlint("check --no-config --format sarif " + q(log) + " " + q(hs)).out);
  const auto& inv = sarif["runs"][0]["invocations"][0];
  CHECK(inv["executionSuccessful"] == true);
  REQUIRE(inv["toolExecutionNotifications"].size() == 2);
  CHECK(inv["toolExecutionNotifications"][0]["level"] == "warning");
  CHECK(inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1002);
  CHECK(inv["toolExecutionNotifications"][1]["level"] == "note");
  CHECK(inv["toolExecutionNotifications"][1]["message"]["text"] == note_text + ".");
  CHECK(sarif["runs"][0]["results"].empty());

  // GitHub: annotations of their own title.
  auto gh = run_planlint("check --no-config --format github " + q(log) + " " + q(hs)).out;
  CHECK(gh.find(",line=1002,col=1,title=planlint reader warning::more than 1000 SQL executions") != std::string::npos);
  CHECK(gh.find("::notice file=") != std::string::npos);
  CHECK(gh.find(",line=1,col=" + col + ",title=planlint reader note::" + note_text + "\n") != std::string::npos);

  // JUnit: the suite's standard error; no failures.
  auto junit = run_planlint("check --no-config --format junit " + q(log) + " " + q(hs)).out;
  CHECK(junit.find("failures=\"0\"") != std::string::npos);
  CHECK(junit.find("<system-err>" + (s.dir / "n1500.eventlog").string() + ":1002:1: warning: more than 1000") !=
        std::string::npos);
  CHECK(junit.find(":1:" + col + ": note: " + note_text) != std::string::npos);

  // NDJSON: in the record's "done" line, for a path and for a text record.
  fs::path records = s.dir / "records.ndjson";
  write_file(records, nlohmann::json{{"id", 1}, {"path", log.string()}}.dump() + "\n" +
                          nlohmann::json{{"id", 2}, {"text", answer_with_unmatched_node()}}.dump() + "\n");
  auto nd = run_planlint("check --no-config --format ndjson - < " + q(records)).out;
  std::vector<nlohmann::json> done;
  for (std::size_t at = 0, nl; (nl = nd.find('\n', at)) != std::string::npos; at = nl + 1) {
    auto rec = nlohmann::json::parse(nd.substr(at, nl - at));
    if (rec["type"] == "done") done.push_back(rec);
  }
  REQUIRE(done.size() == 2);
  CHECK(done[0]["messages"][0]["line"] == 1002);
  CHECK(done[1]["messages"][0]["message"] == note_text);

  // A file without reader messages keeps its JSON as before (no "messages" key).
  auto plain = nlohmann::json::parse(run_planlint("check --no-config --format json " + q(plan())).out);
  CHECK_FALSE(plain["files"][0].contains("messages"));
}
