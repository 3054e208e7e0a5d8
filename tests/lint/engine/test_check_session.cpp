// lint/engine/check_session: planning, running and the exit status of a check, without a process.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "lint/engine/check_session.hpp"
#include "lint/output/output.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system temporary folder, removed at the end of the test case.
struct TempFolder {
  fs::path path;
  explicit TempFolder(const std::string& name) : path(fs::temp_directory_path() / ("planlint-session-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string plan_text() { return test::read_file(test::corpus_dir() / "check" / "orders-join.explain.txt"); }

CheckRequest request_for(const std::vector<std::string>& paths) {
  CheckRequest r;
  r.paths = paths;
  r.no_config = true;
  r.jobs = 2;
  return r;
}

}  // namespace

TEST_CASE("check session: plan_check walks a folder and gives one config per input") {
  TempFolder dir("plan");
  test::write_file(dir.path / "a.explain", plan_text());
  test::write_file(dir.path / "sub" / "b.plan", plan_text());
  test::write_file(dir.path / "notes.md", "not a plan");
  CheckRequest request = request_for({dir.path.string()});
  request.execution = 3;
  CheckPlan plan = plan_check(request);
  CHECK(plan.status == 0);
  CHECK(plan.errors.empty());
  CHECK(plan.walked);
  REQUIRE(plan.inputs.size() == 2);
  CHECK(plan.configs.size() == 2);
  CHECK(plan.displays == plan.inputs);
  CHECK(plan.configs[0].execution == 3);
}

TEST_CASE("check session: plan_check refuses nothing to check, a missing path and -o over an input") {
  TempFolder dir("refuse");
  test::write_file(dir.path / "notes.md", "not a plan");
  CheckPlan empty = plan_check(request_for({dir.path.string()}));
  CHECK(empty.status == 2);
  REQUIRE(empty.errors.size() == 1);
  CHECK(empty.errors[0].rfind("planlint: error: no plan found in ", 0) == 0);

  CheckPlan missing = plan_check(request_for({(dir.path / "nope.plan").string()}));
  CHECK(missing.status == 2);
  REQUIRE(missing.errors.size() == 1);  // the missing path, not also "no plan found"
  CHECK(missing.errors[0].find("No such file or directory") != std::string::npos);

  test::write_file(dir.path / "a.plan", plan_text());
  CheckRequest over = request_for({(dir.path / "a.plan").string()});
  over.output = (dir.path / "a.plan").string();
  CheckPlan refused = plan_check(over);
  CHECK(refused.status == 2);
  REQUIRE(refused.errors.size() == 1);
  CHECK(refused.errors[0].find("refusing to overwrite it") != std::string::npos);
}

TEST_CASE("check session: a bad config file stops the plan with its error") {
  TempFolder dir("badconfig");
  test::write_file(dir.path / ".planlint.toml", "select = [\"no-such-rule\"\n");
  test::write_file(dir.path / "a.plan", plan_text());
  CheckRequest request = request_for({(dir.path / "a.plan").string()});
  request.no_config = false;
  request.config_file = (dir.path / ".planlint.toml").string();
  CheckPlan plan = plan_check(request);
  CHECK(plan.status == 2);
  CHECK(plan.errors.size() == 1);
}

TEST_CASE("check session: run reports every input, in order, and says what a walk found") {
  TempFolder dir("run");
  test::write_file(dir.path / "a.explain", plan_text());
  test::write_file(dir.path / "b.explain", plan_text());
  CheckRequest request = request_for({dir.path.string()});
  CheckPlan plan = plan_check(request);
  REQUIRE(plan.status == 0);
  CheckRun done = run(plan, request);
  CHECK(done.status == 0);
  CHECK_FALSE(done.unreadable);
  REQUIRE(done.reports.size() == 2);
  CHECK(done.reports[0].path == plan.inputs[0]);
  CHECK(done.reports[1].path == plan.inputs[1]);
  CHECK_FALSE(done.reports[0].diagnostics.empty());
  REQUIRE(done.errors.size() == 1);
  CHECK(done.errors[0] == "planlint: checked 2 files: 2 explain texts");
}

TEST_CASE("check session: run with emit hands each report over whole and in input order, then keeps what exit_code reads") {
  TempFolder dir("emit");
  // Plans with findings, plans without, an empty file (an error line, exit 2) and a JSON array that
  // is no plan, over two workers: reports finish out of order, they are handed over in order.
  for (int i = 0; i < 30; ++i) {
    const std::string name = (i < 10 ? "p0" : "p") + std::to_string(i) + ".explain";
    test::write_file(dir.path / name, i % 3 ? plan_text() : "== Physical Plan ==\n* Project (1)\n");
  }
  test::write_file(dir.path / "empty.explain", "");
  test::write_file(dir.path / "list.json", "[1, 2]");
  CheckRequest request = request_for({dir.path.string()});
  CheckPlan plan = plan_check(request);
  REQUIRE(plan.status == 0);
  const CheckRun whole = run(plan, request);
  std::vector<FileReport> handed;
  CheckRun done = run(plan, request, [&handed](const FileReport& r) { handed.push_back(r); });
  REQUIRE(handed.size() == whole.reports.size());
  for (std::size_t i = 0; i < handed.size(); ++i) {
    CHECK(handed[i].path == whole.reports[i].path);
    CHECK(handed[i].diagnostics.size() == whole.reports[i].diagnostics.size());
    CHECK(handed[i].error == whole.reports[i].error);
  }
  // What the front end writes from them is write_json's report of the whole run.
  std::ostringstream from_whole, from_handed;
  write_json(from_whole, whole.reports);
  {
    JsonReportStream json(from_handed);
    for (const auto& r : handed) json.file(r);
    json.end();
  }
  CHECK(from_handed.str() == from_whole.str());
  // Kept: the error lines, what is unreadable and the exit status alike, each report's most severe
  // finding without its texts.
  CHECK(done.errors == whole.errors);
  CHECK(done.unreadable == whole.unreadable);
  CHECK(done.unreadable);
  REQUIRE(done.reports.size() == whole.reports.size());
  for (Severity fail_on : {Severity::Info, Severity::Warning, Severity::Error}) {
    CHECK(exit_code(done.reports, fail_on, false) == exit_code(whole.reports, fail_on, false));
  }
  for (std::size_t i = 0; i < done.reports.size(); ++i) {
    CHECK(done.reports[i].path == whole.reports[i].path);
    CHECK(done.reports[i].error == whole.reports[i].error);
    CHECK(done.reports[i].diagnostics.size() == (whole.reports[i].diagnostics.empty() ? 0u : 1u));
    for (const auto& d : done.reports[i].diagnostics) {
      CHECK(d.message.empty());
      for (const auto& w : whole.reports[i].diagnostics) CHECK(w.severity <= d.severity);
    }
  }
  // A baseline to write needs every report whole: nothing is handed over.
  handed.clear();
  request.write_baseline = (dir.path / "baseline.json").string();
  CheckRun with_baseline = run(plan_check(request), request, [&handed](const FileReport& r) { handed.push_back(r); });
  CHECK(handed.empty());
  CHECK_FALSE(hands_reports_over(request));
  REQUIRE(with_baseline.reports.size() == whole.reports.size());
  CHECK(with_baseline.reports[1].diagnostics.size() == whole.reports[1].diagnostics.size());
}

TEST_CASE("check session: --write-baseline, then --baseline drops the recorded findings") {
  TempFolder dir("baseline");
  test::write_file(dir.path / "a.plan", plan_text());
  CheckRequest request = request_for({(dir.path / "a.plan").string()});
  request.write_baseline = (dir.path / "baseline.json").string();
  CheckRun written = run(plan_check(request), request);
  CHECK(written.status == 0);
  REQUIRE(written.errors.size() == 1);
  CHECK(written.errors[0].rfind("planlint: wrote ", 0) == 0);
  std::size_t found = written.reports.at(0).diagnostics.size();
  CHECK(found > 0);

  CheckRequest again = request_for({(dir.path / "a.plan").string()});
  again.baseline = (dir.path / "baseline.json").string();
  CheckRun done = run(plan_check(again), again);
  CHECK(done.status == 0);
  CHECK(done.reports.at(0).diagnostics.empty());
  CHECK(done.reports.at(0).baselined == found);

  again.baseline = (dir.path / "missing.json").string();
  CheckRun bad = run(plan_check(again), again);
  CHECK(bad.status == 2);
}

TEST_CASE("check session: --against goes through the comparison the front end gives") {
  TempFolder dir("against");
  test::write_file(dir.path / "a.plan", plan_text());
  CheckRequest request = request_for({(dir.path / "a.plan").string()});
  std::size_t compared = 0;
  Comparison c;
  c.available = [](std::string&) { return true; };
  c.add = [&compared](const std::string&, FileReport&, const Config&) { ++compared; };
  request.against = c;
  CheckRun done = run(plan_check(request), request);
  CHECK(done.status == 0);
  CHECK(compared == 1);

  c.available = [](std::string& error) {
    error = "--against: `nope` is not a git revision here";
    return false;
  };
  request.against = c;
  CheckRun refused = run(plan_check(request), request);
  CHECK(refused.status == 2);
  REQUIRE(refused.errors.size() == 1);
  CHECK(refused.errors[0] == "planlint: error: --against: `nope` is not a git revision here");
}

TEST_CASE("check session: exit_code") {
  FileReport clean;
  FileReport warned;
  Diagnostic d;
  d.severity = Severity::Warning;
  warned.diagnostics.push_back(d);
  FileReport broken;
  broken.error = "x: unreadable";
  CHECK(exit_code({clean}, Severity::Warning, false) == 0);
  CHECK(exit_code({clean, warned}, Severity::Warning, false) == 1);
  CHECK(exit_code({clean, warned}, Severity::Error, false) == 0);
  CHECK(exit_code({clean, warned}, Severity::Info, false) == 1);
  CHECK(exit_code({warned}, Severity::Warning, true) == 0);
  CHECK(exit_code({warned}, Severity::Warning, true, true) == 2);  // --exit-zero does not hide errors
  CHECK(exit_code({clean}, Severity::Warning, false, true) == 2);
  CHECK(any_unreadable({clean, broken}));
  CHECK_FALSE(any_unreadable({clean, warned}));
}

TEST_CASE("check session: the config search answers as find_config_file and looks at each folder once") {
  TempFolder t("config-memo");
  test::write_file(t.path / "pyproject.toml", "[tool.planlint]\nignore = [\"parse-error\"]\n");
  test::write_file(t.path / "team" / "pyproject.toml", "[tool.black]\nline-length = 99\n");
  test::write_file(t.path / "team" / "plans" / "deep" / "q.txt", "x");
  test::write_file(t.path / "other" / ".planlint.toml", "ignore = []\n");
  test::write_file(t.path / "other" / "deep" / "q.txt", "x");

  ConfigCache cache("", false);
  // Deepest first, so the shallower folders are answered from what the first walk remembered.
  for (const fs::path& dir : {t.path / "team" / "plans" / "deep", t.path / "team" / "plans", t.path / "team",
                             t.path, t.path / "other" / "deep", t.path / "other", t.path / "other" / "deep" / "",
                             t.path / "team" / "." / "plans"}) {
    CAPTURE(dir);
    std::string error;
    const ProjectConfig* pc = cache.for_dir(dir, error);
    REQUIRE(pc);
    CHECK(error.empty());
    auto expected = find_config_file(dir);
    REQUIRE(expected);
    CHECK(pc->root == expected->parent_path());
  }
  // Remembered for the run: a config written after the first look at a folder is not read again
  // (a check plans its configs once, before it reads any input).
  test::write_file(t.path / "team" / "plans" / ".planlint.toml", "ignore = []\n");
  std::string error;
  const ProjectConfig* pc = cache.for_dir(t.path / "team" / "plans" / "deep", error);
  REQUIRE(pc);
  CHECK(pc->root == t.path);
  CHECK(find_config_file(t.path / "team" / "plans" / "deep")->parent_path() == t.path / "team" / "plans");
}
