#include <doctest/doctest.h>

#include <sys/stat.h>

#include "lint/engine/check.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/glob.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {
std::string config_error(std::string_view text, bool pyproject = false) {
  ConfigError err;
  auto pc = parse_config_text(text, pyproject ? "proj/pyproject.toml" : "proj/.planlint.toml", pyproject, err);
  if (pc) return "";
  return err.str();
}
}  // namespace

TEST_CASE("config: a valid file fills select, ignore, severity, per-file ignores and globs") {
  ConfigError err;
  auto pc = parse_config_text(
      "select = [\"parse-error\", \"PL901\"]\n"
      "ignore = [\"unused-suppression\"]\n"
      "include = [\"*.plan\"]\n"
      "exclude = [\"scratch/\"]\n"
      "[severity]\n"
      "parse-error = \"warning\"\n"
      "PL901 = \"info\"\n"
      "[per-file-ignores]\n"
      "\"legacy/**\" = [\"parse-error\"]\n",
      "repo/.planlint.toml", false, err);
  REQUIRE_MESSAGE(pc, err.str());
  CHECK(pc->root == fs::path("repo"));
  CHECK(pc->config.select == std::set<std::string>{"parse-error", "PL901"});
  CHECK(pc->config.ignore == std::set<std::string>{"unused-suppression"});
  CHECK(pc->config.severity.at("parse-error") == Severity::Warning);
  CHECK(pc->config.severity.at("unused-suppression") == Severity::Info);
  CHECK(pc->include == std::vector<std::string>{"*.plan"});
  CHECK(pc->exclude == std::vector<std::string>{"scratch/"});
  REQUIRE(pc->per_file_ignores.size() == 1);
  CHECK(pc->per_file_ignores[0].glob == "legacy/**");

  Config legacy = config_for_path(*pc, "repo/legacy/old/q.txt");
  CHECK(legacy.ignore.count("parse-error"));
  Config current = config_for_path(*pc, "repo/plans/q.txt");
  CHECK(!current.ignore.count("parse-error"));
}

TEST_CASE("config: [tool.planlint] in pyproject.toml") {
  ConfigError err;
  auto pc = parse_config_text("[project]\nname = \"etl\"\n[tool.planlint]\nignore = [\"parse-error\"]\n",
                              "pyproject.toml", true, err);
  REQUIRE(pc);
  CHECK(pc->config.ignore.count("parse-error"));
  CHECK(config_error("[tool.ruff]\nline-length = 100\n", true) == "proj/pyproject.toml: error: no [tool.planlint] table");
}

TEST_CASE("config: errors name the file, line, column and key") {
  CHECK(config_error("select = [\"parse-error\", \"no-such-rule\"]\n") ==
        "proj/.planlint.toml:1:26: error: unknown rule `no-such-rule` (`planlint rules` lists them) in `select`");
  CHECK(config_error("\n\nselct = [\"parse-error\"]\n") ==
        "proj/.planlint.toml:3:1: error: unknown key `selct` (known: select, extend-select, ignore, include, exclude, severity, "
        "thresholds, rules, per-file-ignores, max-input-size)");
  CHECK(config_error("ignore = \"parse-error\"\n") ==
        "proj/.planlint.toml:1:10: error: `ignore` must be an array of strings");
  CHECK(config_error("ignore = [1]\n") == "proj/.planlint.toml:1:11: error: `ignore` must be an array of strings");
  CHECK(config_error("[severity]\nparse-error = \"fatal\"\n") ==
        "proj/.planlint.toml:2:1: error: unknown severity `fatal` for `parse-error` (error, warning or info) in "
        "`severity`");
  CHECK(config_error("[severity]\nparse-error = 2\n") ==
        "proj/.planlint.toml:2:15: error: `severity.parse-error` must be a string");
  CHECK(config_error("[rules.parse-error]\nmax-rows = 3\n") ==
        "proj/.planlint.toml:2:1: error: unknown option `max-rows` for rule `parse-error` (it has no options)");
  CHECK(config_error("[rules.no-such-rule]\nx = 3\n") ==
        "proj/.planlint.toml:1:8: error: unknown rule `no-such-rule` (`planlint rules` lists them) in `rules`");
  CHECK(config_error("[thresholds]\nno-such-option = 3\n").rfind(
            "proj/.planlint.toml:2:1: error: unknown option `no-such-option` (no rule has it", 0) == 0);
  CHECK(config_error("[per-file-ignores]\n\"a/*\" = [\"nope\"]\n") ==
        "proj/.planlint.toml:2:10: error: unknown rule `nope` (`planlint rules` lists them) in "
        "`per-file-ignores.a/*`");
  // TOML syntax errors come from toml++ with their position.
  CHECK(config_error("select = [\"parse-error\"\n") ==
        "proj/.planlint.toml:1:25: error: invalid TOML: parsing array: encountered end-of-file");
}

TEST_CASE("config: code points U+00A1..U+0499 where toml++ asks \"whitespace?\" are read or refused, never undefined") {
  // toml++ 3.3's whitespace lookup reached __builtin_unreachable() on these code points
  // (lint/core/toml.hpp; tests/fuzz_regressions/config/non-ascii-whitespace-lookup). The
  // sanitizer suite fails here on the unrepaired header.
  CHECK(config_error("\xca\xbf.") ==
        "proj/.planlint.toml:1:1: error: invalid TOML: parsing root table: expected keys, tables, whitespace or comments, "
        "saw '\xca\xbf'");
  // Valid TOML holding them: a quoted key (its text is recorded through the same lookup) and a
  // multi-line string whose line-ending backslash is followed by one.
  CHECK(config_error("[per-file-ignores]\n\"caf\xc3\xa9/*\" = [\"parse-error\"]\n") == "");
  CHECK(config_error("include = [\"\"\"plans/\\\n\xc2\xa7.plan\"\"\"]\n") == "");
  ConfigError err;
  auto pc = parse_config_text("include = [\"\"\"plans/\\\n  \xc2\xa7.plan\"\"\"]\n", "p/.planlint.toml", false, err);
  REQUIRE(pc);
  CHECK(pc->include == std::vector<std::string>{"plans/\xc2\xa7.plan"});
}

TEST_CASE("config: discovery walks up from the file's folder, nearest wins") {
  fs::path root = fs::temp_directory_path() / "planlint_test_config";
  fs::remove_all(root);
  planlint::test::write_file(root / "pyproject.toml", "[tool.planlint]\nignore = [\"parse-error\"]\n");
  planlint::test::write_file(root / "team" / "pyproject.toml", "[tool.black]\nline-length = 99\n");
  planlint::test::write_file(root / "team" / "plans" / "q.txt", "x");
  planlint::test::write_file(root / "other" / ".planlint.toml", "ignore = []\n");
  planlint::test::write_file(root / "other" / "pyproject.toml", "[tool.planlint]\nignore = [\"PL901\"]\n");
  planlint::test::write_file(root / "other" / "deep" / "q.txt", "x");

  auto a = find_config_file(root / "team" / "plans");
  REQUIRE(a);
  CHECK(*a == root / "pyproject.toml");  // team/pyproject.toml has no [tool.planlint]
  auto b = find_config_file(root / "other" / "deep");
  REQUIRE(b);
  CHECK(*b == root / "other" / ".planlint.toml");  // .planlint.toml beats pyproject.toml in one folder

  ConfigError err;
  auto pc = load_config_file(*a, err);
  REQUIRE(pc);
  CHECK(pc->config.ignore.count("parse-error"));
  fs::remove_all(root);
}

TEST_CASE("config: quantities read like Spark's byte strings") {
  CHECK(parse_quantity("10m", "bytes") == 10485760.0);
  CHECK(parse_quantity("10MB", "bytes") == 10485760.0);
  CHECK(parse_quantity("30 MiB", "bytes") == 31457280.0);
  CHECK(parse_quantity("1g", "bytes") == 1073741824.0);
  CHECK(parse_quantity("2048", "bytes") == 2048.0);
  CHECK(parse_quantity("1.5k", "rows") == 1500.0);
  CHECK(parse_quantity("2M", "rows") == 2e6);
  CHECK(parse_quantity("30s", "ms") == 30000.0);
  CHECK(parse_quantity("5", "ratio") == 5.0);
  CHECK(parse_quantity("50%", "percent") == 50.0);
  CHECK(!parse_quantity("10 apples", "bytes"));
  CHECK(!parse_quantity("10MB", "rows"));
  CHECK(!parse_quantity("", "rows"));
  CHECK(!parse_quantity("nan", "rows"));
}

TEST_CASE("config: command-line style setters validate names") {
  Config c;
  std::string err;
  CHECK(set_severity(c, "PL900", "info", err));
  CHECK(c.severity.at("parse-error") == Severity::Info);
  CHECK(!set_severity(c, "nope", "info", err));
  CHECK(!set_threshold(c, "parse-error.limit", "3", err));
  CHECK(err == "unknown option `limit` for rule `parse-error` (it has no options)");
  CHECK(!set_threshold(c, "no-such-option", "3", err));
}

TEST_CASE("glob: ruff/gitignore-like matching") {
  CHECK(glob_match("*.plan", "a/b/q1.plan"));
  CHECK(!glob_match("*.plan", "a/b/q1.plan.txt"));
  CHECK(glob_match("legacy/**", "legacy/x/y.txt"));
  CHECK(!glob_match("legacy/**", "plans/legacy.txt"));
  CHECK(glob_match("**/legacy/*.txt", "a/b/legacy/q.txt"));
  CHECK(glob_match("**/legacy/*.txt", "legacy/q.txt"));
  CHECK(!glob_match("plans/*.txt", "plans/sub/q.txt"));
  CHECK(glob_match("plans/*.txt", "./plans/q.txt"));
  CHECK(glob_match("scratch/", "repo/scratch"));
  CHECK(glob_match("q[0-9].json", "q7.json"));
  CHECK(!glob_match("q[!0-9].json", "q7.json"));
  CHECK(glob_match("q?.json", "x/q1.json"));
  // `*.ext` patterns (the default include list) take a short way: the same answers.
  CHECK(glob_match("*.txt", "a/b/plan.txt"));
  CHECK(glob_match("*.txt", ".txt"));
  CHECK(!glob_match("*.txt", "plan.txt.bak"));
  CHECK(!glob_match("*.txt", "a.txt/b"));
  CHECK(glob_match("*", "a/b"));
  CHECK(glob_match("*.tx?", "p.txt"));
  CHECK(glob_match("./*.json", "./x/q.json"));
  CHECK(!glob_match("q?.json", "q12.json"));
}

TEST_CASE("inputs: folders walked in sorted order, hidden and excluded entries skipped") {
  fs::path root = fs::temp_directory_path() / "planlint_test_inputs";
  fs::remove_all(root);
  for (const char* f : {"b.txt", "a.plan", "notes.md", "sub/c.json", ".git/x.txt", "scratch/d.txt", "sub/e.txt"})
    planlint::test::write_file(root / f, "x");
  std::vector<std::string> errors;
  std::vector<bool> listed;
  auto files = collect_inputs({root.string(), (root / "b.txt").string(), (root / "missing.txt").string()},
                              GlobSet{default_include(), {}}, {GlobSet{{"scratch/", "e.txt"}, {}}}, errors, nullptr,
                              &listed);
  std::vector<std::string> rel;
  for (const auto& f : files) rel.push_back(fs::path(f).lexically_relative(root).generic_string());
  CHECK(rel == std::vector<std::string>{"a.plan", "b.txt", "sub/c.json"});
  // Each was listed by the walk as a regular file (b.txt, named again, is checked once).
  CHECK(listed == std::vector<bool>{true, true, true});
  // A regular file named as an argument is too (its stat said so); a missing one is no input.
  collect_inputs({(root / "b.txt").string()}, GlobSet{default_include(), {}}, {}, errors, nullptr, &listed);
  CHECK(listed == std::vector<bool>{true});
  // A FIFO named as an argument is an input, not a regular one: read the usual way (a stream).
  REQUIRE(::mkfifo((root / "p.fifo").c_str(), 0600) == 0);
  collect_inputs({(root / "p.fifo").string()}, GlobSet{default_include(), {}}, {}, errors, nullptr, &listed);
  CHECK(listed == std::vector<bool>{false});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("missing.txt: No such file or directory") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("inputs: a folder of Databricks rolled hours is one input, found while the walk lists it") {
  fs::path root = fs::temp_directory_path() / "planlint_test_inputs_rolled";
  fs::remove_all(root);
  for (const char* f : {"a.txt", "logs/eventlog", "logs/eventlog-2021-06-15--15-00.gz", "logs/sub/inner.txt",
                        "logs/plan.txt", "more/b.json", "eventlog_v2_app-1/events_1_app-1"})
    planlint::test::write_file(root / f, "x");
  std::vector<std::string> errors;
  bool walked = false;
  auto files = collect_inputs({root.string()}, GlobSet{default_include(), {}}, {}, errors, &walked);
  std::vector<std::string> rel;
  for (const auto& f : files) rel.push_back(fs::path(f).lexically_relative(root).generic_string());
  // Nothing under the rolled folder is walked (not logs/plan.txt, not logs/sub/inner.txt).
  CHECK(rel == std::vector<std::string>{"a.txt", "eventlog_v2_app-1", "logs", "more/b.json"});
  CHECK(walked);
  // Folders taken as one input are not listed as regular files.
  std::vector<bool> listed;
  collect_inputs({root.string()}, GlobSet{default_include(), {}}, {}, errors, nullptr, &listed);
  CHECK(listed == std::vector<bool>{true, false, false, true});
  CHECK(errors.empty());
  // Named as the argument, the rolled folder is one input and nothing was walked.
  files = collect_inputs({(root / "logs").string()}, GlobSet{default_include(), {}}, {}, errors, &walked);
  CHECK(files == std::vector<std::string>{(root / "logs").string()});
  CHECK(!walked);
  // Excluded by name: not an input at all.
  files = collect_inputs({(root / "logs").string()}, GlobSet{default_include(), {}}, {GlobSet{{"logs"}, {}}}, errors,
                         &walked);
  CHECK(files.empty());
  CHECK(errors.empty());
  fs::remove_all(root);
}
