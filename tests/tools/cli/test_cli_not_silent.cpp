// Nothing passes silently (a "No findings" on input that was not read would be a false all-clear):
// each reproduction of the review gives a clear message and
// exit 2 instead of "No findings" or a silent wait. Through the real executable.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/support.hpp"

namespace fs = std::filesystem;
using planlint::test::corpus_dir;
using planlint::test::q;
using planlint::test::Scratch;
using planlint::test::read_file;
using planlint::test::run_planlint;
using planlint::test::write_file;

namespace {
bool has(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }
planlint::test::RunResult run_command(const std::string& cmd) { return planlint::test::run_shell(cmd + " 2>&1"); }
fs::path explain() { return corpus_dir() / "check" / "orders-join.explain.txt"; }
fs::path eventlog() { return corpus_dir() / "eventlog" / "multi-exec.eventlog"; }
}  // namespace

TEST_CASE("not silent: a JSON object that is no Query Profile is not a plan (exit 2)") {
  Scratch s("planlint_ns_json");
  write_file(s.dir / "app.json", "{\"name\":\"my-app\"}\n");
  for (const char* cmd : {"check", "show", "parse"}) {
    auto r = run_planlint(std::string(cmd) + " --no-config " + q(s.dir / "app.json"), true);
    INFO(std::string(cmd) << ": " << r.out);
    if (std::string(cmd) == "parse") continue;  // parse prints what it read; check and show refuse
    CHECK(r.exit_code == 2);
    CHECK(has(r.out, "not a plan: a JSON object without `graphs` or `query`"));
    CHECK(has(r.out, "expected Spark / Databricks explain text, a Databricks Query Profile export"));
    CHECK(!has(r.out, "No findings"));
    if (std::string(cmd) == "check") CHECK(has(r.out, "Nothing was checked: 1 file could not be read."));
  }
  write_file(s.dir / "list.json", "[1, 2, 3]\n");
  auto a = run_planlint("check --no-config " + q(s.dir / "list.json"), true);
  CHECK(a.exit_code == 2);
  CHECK(has(a.out, "not a plan: a JSON array"));
  // A History Server SQL answer is recognised by its keys (read by its own reader when present).
  write_file(s.dir / "sql.json", "{\"id\":1,\"planDescription\":\"== Physical Plan ==\",\"nodes\":[]}\n");
  auto h = run_planlint("check --no-config " + q(s.dir / "sql.json"), true);
  CHECK(h.exit_code != 0);
  // A real profile still reads (no regression).
  auto ok = run_planlint("check --no-config --exit-zero " +
                             q(corpus_dir() / "rules" / "native-engine-fallback" / "trigger-profile-jvm-aggregate.json"),
                         true);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("not silent: empty and binary files exit 2 and never echo their bytes") {
  Scratch s("planlint_ns_bytes");
  write_file(s.dir / "empty.txt", "");
  write_file(s.dir / "blank.txt", "  \n\n");
  auto e = run_planlint("check --no-config " + q(s.dir / "empty.txt"), true);
  CHECK(e.exit_code == 2);
  CHECK(has(e.out, "empty.txt: is empty, nothing to check"));
  auto b = run_planlint("check --no-config " + q(s.dir / "blank.txt"), true);
  CHECK(b.exit_code == 2);
  CHECK(has(b.out, "holds only white space"));
  std::string bin("\x7f" "ELF\x02\x01\x01", 7);
  bin += std::string(40, '\0');
  bin += "\x1b[2J\x07secret";
  write_file(s.dir / "tool.bin", bin);
  auto x = run_planlint("check --no-config " + q(s.dir / "tool.bin"), true);
  CHECK(x.exit_code == 2);
  CHECK(has(x.out, "is binary data (a NUL byte at offset 7), not a plan"));
  CHECK(!has(x.out, "ELF"));
  CHECK(!has(x.out, "\x1b[2J"));
  CHECK(!has(x.out, "secret"));
  CHECK(run_planlint("show --no-config " + q(s.dir / "tool.bin")).exit_code == 2);
  // Empty standard input too.
  CHECK(run_planlint("check --no-config - < /dev/null").exit_code == 2);
}

TEST_CASE("not silent: folder walks find event logs by content and say what they checked") {
  Scratch s("planlint_ns_walk");
  fs::create_directories(s.dir / "logs");
  fs::copy_file(eventlog(), s.dir / "logs" / "app-20261130101500-0001");  // Spark's name: no extension
  fs::copy_file(eventlog(), s.dir / "logs" / "local-1701000000000");
  write_file(s.dir / "logs" / "README", "not a log\n");
  auto r = run_planlint("check --no-config --exit-zero --format concise " + q(s.dir / "logs"), true);
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(has(r.out, "checked 2 files: 2 event logs"));
  CHECK(has(r.out, "in 2 files"));
  CHECK(!has(r.out, "README"));
  // A rolling eventlog_v2_ folder inside a walked folder is one event log.
  fs::copy(corpus_dir() / "eventlog" / "eventlog_v2_app-20231114221320-0009",
           s.dir / "logs" / "eventlog_v2_app-20231114221320-0009");
  auto v2 = run_planlint("check --no-config --exit-zero --format concise " + q(s.dir / "logs"), true);
  CHECK(has(v2.out, "checked 3 files: 3 event logs"));
  // A History Server answer is named as one (it was summarised as an explain text).
  fs::copy_file(corpus_dir() / "history-server" / "even-join.sql.json", s.dir / "logs" / "even-join.sql.json");
  auto hs = run_planlint("check --no-config --exit-zero --format concise " + q(s.dir / "logs"), true);
  CHECK(has(hs.out, "checked 4 files: 1 History Server answer, 3 event logs"));
  // An empty folder, or one without plans: nothing checked is an error, not a pass.
  fs::create_directories(s.dir / "empty");
  auto e = run_planlint("check --no-config " + q(s.dir / "empty"), true);
  CHECK(e.exit_code == 2);
  CHECK(has(e.out, "no plan found in"));
  CHECK(has(e.out, "nothing was checked"));
  CHECK(!has(e.out, "No findings"));
}

TEST_CASE("not silent: check with no file and a terminal on stdin checks the current folder, never waits") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    MESSAGE("util-linux `script` is missing: cannot give planlint a terminal");
    return;
  }
  // `script` runs planlint on a pseudo-terminal in a folder without plans: planlint must not wait
  // for input, and checking nothing is an error that says why the folder was checked.
  Scratch s("planlint_ns_tty");
  auto r = run_command("cd " + q(s.dir) + " && script -qec \"timeout 10 '" + PLANLINT_BINARY +
                       "' check --no-config; echo rc=\\$?\" /dev/null < /dev/null");
  INFO(r.out);
  CHECK(has(r.out, "no plan found in ."));
  CHECK(has(r.out, "standard input is no pipe or file"));
  CHECK(has(r.out, "rc=2"));
  // Piped input still reads stdin.
  CHECK(run_planlint("check --no-config --exit-zero < " + q(explain())).exit_code == 0);
}

TEST_CASE("not silent: --execution 999, report on a missing input, --statistics as JSON, a typo") {
  Scratch s("planlint_ns_misc");
  auto x = run_planlint("check --no-config --execution 999 " + q(eventlog()), true);
  CHECK(x.exit_code == 2);
  CHECK(has(x.out, "no SQL execution 999"));
  CHECK(run_planlint("check --no-config --exit-zero --execution 0 " + q(eventlog())).exit_code == 0);

  auto rep = run_planlint("report --no-config " + q(s.dir / "missing.json") + " -o " + q(s.dir / "r.html"), true);
  CHECK(rep.exit_code == 2);
  CHECK(has(rep.out, "missing.json"));
  CHECK(has(rep.out, "no report written"));
  CHECK(!fs::exists(s.dir / "r.html"));
  // With one good and one missing input, still nothing: a report without a file looks complete.
  auto rep2 = run_planlint("report --no-config " + q(explain()) + " " + q(s.dir / "missing.json") + " -o " +
                           q(s.dir / "r.html"));
  CHECK(rep2.exit_code == 2);
  CHECK(!fs::exists(s.dir / "r.html"));

  auto st = run_planlint("check --no-config --statistics --format json " + q(explain()));
  CHECK(st.exit_code == 1);
  auto j = nlohmann::json::parse(st.out);
  REQUIRE(j["statistics"].is_array());
  REQUIRE(j["statistics"].size() == 1);
  CHECK(j["statistics"][0]["rule"] == "shuffle-join-could-broadcast");
  CHECK(j["statistics"][0]["code"] == "PL002");
  CHECK(j["statistics"][0]["count"] == 1);
  CHECK(j["findings"] == 1);
  auto sarif = run_planlint("check --no-config --statistics --format sarif " + q(explain()), true);
  CHECK(sarif.exit_code == 2);
  CHECK(has(sarif.out, "--statistics"));

  auto typo = run_planlint("chek " + q(explain()), true);
  CHECK(typo.exit_code == 2);
  CHECK(has(typo.out, "unknown command `chek`; did you mean `check`?"));
  auto file = run_planlint(q(explain()), true);
  CHECK(file.exit_code == 2);
  CHECK(has(file.out, "planlint check"));
}
