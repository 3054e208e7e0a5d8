// The conventions a ruff user brings (issue 35, item 6), through the real executable: no path
// checks the current folder unless something is piped in, --output-format, --extend-select, -q,
// codes next to rule names, a renamed rule's former name, SARIF helpUri.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

#include "tests/support.hpp"

namespace fs = std::filesystem;
using planlint::test::corpus_dir;
using planlint::test::q;
using planlint::test::Scratch;
using planlint::test::read_file;
using planlint::test::run_planlint;
using planlint::test::run_shell;
using planlint::test::write_file;

namespace {
bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }
fs::path orders_join() { return corpus_dir() / "check" / "orders-join.explain.txt"; }  // PL002 once
fs::path photon_udf() { return corpus_dir() / "rules" / "native-engine-fallback" / "trigger-formatted-photon-udf.txt"; }
std::string binary() { return std::string("'") + PLANLINT_BINARY + "'"; }
}  // namespace

TEST_CASE("ruff conventions: no path checks the current folder unless stdin is a pipe or a file") {
  Scratch s("planlint_rc_nopath");
  fs::create_directories(s.dir / "plans");
  fs::copy_file(orders_join(), s.dir / "plans" / "q.explain.txt");
  // /dev/null on stdin (no terminal, nothing piped: cron, CI): the current folder, walked.
  auto r = run_shell("cd " + q(s.dir) + " && " + binary() + " check --no-config < /dev/null 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "plans/q.explain.txt:"));
  CHECK(contains(r.out, "checked 1 file: 1 explain text"));
  // A pipe and a redirected file are still read as the plan (scripts rely on it).
  auto piped = run_shell("cat " + q(orders_join()) + " | " + binary() + " check --no-config --format json");
  CHECK(piped.exit_code == 1);
  CHECK(nlohmann::json::parse(piped.out)["files"][0]["path"] == "-");
  auto redirected = run_shell(binary() + " check --no-config --format json < " + q(orders_join()));
  CHECK(nlohmann::json::parse(redirected.out)["files"][0]["path"] == "-");
  // --stdin-filename names what stdin holds: it is read even from /dev/null (an empty input, exit 2).
  auto named = run_shell("cd " + q(s.dir) + " && " + binary() +
                         " check --no-config --stdin-filename x.txt < /dev/null 2>&1");
  CHECK(named.exit_code == 2);
  CHECK(!contains(named.out, "plans/q.explain.txt"));
  // A folder without plans: the error says why the current folder was checked.
  fs::create_directories(s.dir / "empty");
  auto e = run_shell("cd " + q(s.dir / "empty") + " && " + binary() + " check --no-config < /dev/null 2>&1");
  CHECK(e.exit_code == 2);
  CHECK(contains(e.out, "no plan found in ."));
  CHECK(contains(e.out, "pipe a plan into `planlint check -`"));
  // --show-files lists what the folder walk finds.
  auto files = run_shell("cd " + q(s.dir) + " && " + binary() + " check --no-config --show-files < /dev/null");
  CHECK(files.exit_code == 0);
  CHECK(contains(files.out, "plans/q.explain.txt"));
}

TEST_CASE("ruff conventions: a terminal on stdin and no path checks the current folder") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    MESSAGE("util-linux `script` is missing: cannot give planlint a terminal");
    return;
  }
  Scratch s("planlint_rc_tty");
  fs::copy_file(orders_join(), s.dir / "q.explain.txt");
  // `script` runs planlint on a pseudo-terminal; planlint must neither wait for input nor print usage.
  auto r = run_shell("cd " + q(s.dir) + " && script -qec \"timeout 10 " + binary() +
                     " check --no-config --color never; echo rc=\\$?\" /dev/null < /dev/null 2>&1");
  INFO(r.out);
  CHECK(contains(r.out, "q.explain.txt:"));
  CHECK(contains(r.out, "[PL002 shuffle-join-could-broadcast]"));
  CHECK(!contains(r.out, "Usage:"));
  CHECK(contains(r.out, "rc=1"));
}

TEST_CASE("ruff conventions: --output-format is --format, for every command that has --format") {
  for (const char* cmd : {"check --no-config", "diff --no-config"}) {
    std::string args = std::string(cmd) + (std::string(cmd).rfind("diff", 0) == 0 ? " " + q(orders_join()) : "") + " " +
                       q(orders_join());
    auto a = run_planlint(args + " --format json");
    auto b = run_planlint(args + " --output-format json");
    INFO(cmd);
    CHECK(a.exit_code == b.exit_code);
    CHECK(a.out == b.out);
    CHECK(nlohmann::json::parse(b.out).is_object());
    CHECK(run_planlint(args + " --output-format yaml").exit_code == 2);
  }
  CHECK(run_planlint("parse --output-format json " + q(orders_join())).out == run_planlint("parse --format json " + q(orders_join())).out);
  CHECK(run_planlint("show --no-config --output-format dot " + q(orders_join())).out ==
        run_planlint("show --no-config --format dot " + q(orders_join())).out);
  CHECK(run_planlint("rules --output-format json").out == run_planlint("rules --format json").out);
}

TEST_CASE("ruff conventions: --extend-select adds to the selection") {
  // PL001 alone finds nothing in this plan; PL002 added to it finds the join.
  CHECK(run_planlint("check --no-config --select PL001 " + q(orders_join())).exit_code == 0);
  auto r = run_planlint("check --no-config --select PL001 --extend-select PL002 " + q(orders_join()));
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "[PL002 shuffle-join-could-broadcast]"));
  // On top of the config file's select.
  Scratch s("planlint_rc_extend");
  fs::copy_file(orders_join(), s.dir / "q.txt");
  write_file(s.dir / ".planlint.toml", "select = [\"PL001\"]\n");
  CHECK(run_planlint("check " + q(s.dir / "q.txt")).exit_code == 0);
  CHECK(run_planlint("check --extend-select shuffle-join-could-broadcast " + q(s.dir / "q.txt")).exit_code == 1);
  // An ignore still wins; an unknown rule is a usage error.
  CHECK(run_planlint("check --no-config --select PL001 --extend-select PL002 --ignore PL002 " + q(orders_join())).exit_code == 0);
  auto bad = run_planlint("check --no-config --extend-select PL777 " + q(orders_join()), true);
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.out, "--extend-select"));
}

TEST_CASE("ruff conventions: -q prints the findings and nothing else") {
  auto loud = run_planlint("check --no-config " + q(orders_join()));
  auto quiet = run_planlint("check --no-config -q " + q(orders_join()), true);
  CHECK(quiet.exit_code == loud.exit_code);
  CHECK(contains(loud.out, "Found 1 finding"));
  CHECK(!contains(quiet.out, "Found 1 finding"));
  CHECK(contains(quiet.out, "[PL002 shuffle-join-could-broadcast]"));
  auto concise = run_planlint("check --no-config --quiet --format concise " + q(orders_join()));
  CHECK(concise.out.find('\n') == concise.out.size() - 1);  // one line: the finding
  // A clean run prints nothing at all; a folder walk says nothing of what it found.
  CHECK(run_planlint("check --no-config -q --select PL001 " + q(orders_join())).out.empty());
  auto walk = run_planlint("check --no-config -q --select PL001 " + q(corpus_dir() / "check"), true);
  CHECK(walk.exit_code == 0);
  CHECK(walk.out.empty());
  // Errors still are said.
  auto missing = run_planlint("check --no-config -q /nonexistent/plan.txt", true);
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.out, "No such file"));
}

TEST_CASE("ruff conventions: the code next to the rule name in text, concise and show") {
  auto text = run_planlint("check --no-config " + q(orders_join()));
  CHECK(contains(text.out, "[PL002 shuffle-join-could-broadcast]\n"));
  auto concise = run_planlint("check --no-config --format concise " + q(orders_join()));
  CHECK(contains(concise.out, ": warning[PL002 shuffle-join-could-broadcast] SortMergeJoin"));
  auto show = run_planlint("show --no-config --color never " + q(orders_join()));
  CHECK(contains(show.out, "warning[PL002 shuffle-join-could-broadcast]"));
}

TEST_CASE("ruff conventions: one name per code; photon-fallback is the former name of PL007") {
  // Photon, Gluten and Comet fallbacks are all native-engine-fallback (PL007).
  for (const char* f : {"trigger-formatted-photon-udf.txt", "trigger-formatted-gluten.txt"}) {
    auto r = run_planlint("check --no-config --format json " +
                          q(corpus_dir() / "rules" / "native-engine-fallback" / f));
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(!j["files"][0]["diagnostics"].empty());
    CHECK(j["files"][0]["diagnostics"][0]["rule"] == "native-engine-fallback");
    CHECK(j["files"][0]["diagnostics"][0]["code"] == "PL007");
  }
  // The former name still selects, ignores, sets severity, suppresses and documents the rule.
  auto sel = run_planlint("check --no-config --select photon-fallback " + q(photon_udf()));
  CHECK(sel.exit_code == 1);
  CHECK(contains(sel.out, "[PL007 native-engine-fallback]"));
  CHECK(run_planlint("check --no-config --ignore photon-fallback --select PL007 " + q(photon_udf())).exit_code == 0);
  CHECK(run_planlint("check --no-config --fail-on error --severity photon-fallback=error " + q(photon_udf())).exit_code == 1);
  Scratch s("planlint_rc_alias");
  write_file(s.dir / "plan.txt", "# planlint: disable=photon-fallback\n" + read_file(photon_udf()));
  auto sup = run_planlint("check --no-config " + q(s.dir / "plan.txt"));
  CHECK(sup.exit_code == 0);  // suppressed, and the directive is not reported unused
  CHECK(contains(sup.out, "No findings in 1 file (1 suppressed)."));
  fs::copy_file(photon_udf(), s.dir / "q.txt");
  write_file(s.dir / ".planlint.toml", "ignore = [\"photon-fallback\"]\n");
  CHECK(run_planlint("check " + q(s.dir / "q.txt")).exit_code == 0);
  auto doc = run_planlint("rule photon-fallback");
  CHECK(doc.exit_code == 0);
  CHECK(doc.out.rfind("native-engine-fallback (PL007)", 0) == 0);
  CHECK(contains(doc.out, "Former names"));
  // `planlint rules` lists one name per code.
  auto list = run_planlint("rules");
  CHECK(!contains(list.out, "photon-fallback"));
}

TEST_CASE("ruff conventions: SARIF helpUri only from --sarif-help-uri, an absolute URI") {
  auto plain = nlohmann::json::parse(run_planlint("check --no-config --format sarif " + q(orders_join())).out);
  for (const auto& r : plain["runs"][0]["tool"]["driver"]["rules"]) CHECK(!r.contains("helpUri"));
  auto withUri = nlohmann::json::parse(
      run_planlint("check --no-config --format sarif --sarif-help-uri 'https://example.org/planlint/rules/{name}.html' " +
                   q(orders_join()))
          .out);
  bool pl007 = false;
  for (const auto& r : withUri["runs"][0]["tool"]["driver"]["rules"]) {
    REQUIRE(r.contains("helpUri"));
    CHECK(r["helpUri"].get<std::string>().rfind("https://example.org/planlint/rules/", 0) == 0);
    if (r["id"] == "shuffle-join-could-broadcast")
      CHECK(r["helpUri"] == "https://example.org/planlint/rules/shuffle-join-could-broadcast.html");
    if (r["id"] == "cartesian-product")  // a secondary name points at its rule's page
      CHECK(r["helpUri"] == "https://example.org/planlint/rules/exploding-join.html");
    if (r["id"] == "native-engine-fallback") {
      pl007 = true;
      CHECK(r["deprecatedNames"] == nlohmann::json::array({"photon-fallback"}));
    }
  }
  CHECK(pl007);
  // A base without a placeholder gets `<name>.md`; {code} is the code.
  auto base = nlohmann::json::parse(
      run_planlint("check --no-config --format sarif --sarif-help-uri https://example.org/docs/rules/ " + q(orders_join())).out);
  auto code = nlohmann::json::parse(
      run_planlint("check --no-config --format sarif --sarif-help-uri 'https://example.org/r/{code}' " + q(orders_join())).out);
  for (const auto& r : base["runs"][0]["tool"]["driver"]["rules"])
    if (r["id"] == "disk-spill") CHECK(r["helpUri"] == "https://example.org/docs/rules/disk-spill.md");
  for (const auto& r : code["runs"][0]["tool"]["driver"]["rules"])
    if (r["id"] == "disk-spill") CHECK(r["helpUri"] == "https://example.org/r/PL104");
  // A relative path is not a URI SARIF accepts.
  for (const char* bad : {"docs/rules/", "'https://x.org/a b/{name}'", "1http://x/"}) {
    auto r = run_planlint(std::string("check --no-config --format sarif --sarif-help-uri ") + bad + " " + q(orders_join()), true);
    INFO(bad);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.out, "absolute URI"));
  }
}
