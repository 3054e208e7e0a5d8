// Rule corpus: plans we wrote under corpus/rules/<rule>/, each with an expected diagnostics file
// `<file>.expected` holding the whole of each finding (golden_text below: position, severity,
// rule, operator, message, then the plan label, evidence, impact and fix on indented lines). CMake adds one CTest
// per folder (`ctest -R rule.skew-not-handled`), which sets PLANLINT_RULE_DIR to run that folder
// only; without it every folder runs. For the plan rules (RuleFamily::Plan) only the directory's
// rule runs, so that each expected file changes only with its own rule; for the runtime rules
// (RuleFamily::Runtime, the troubleshooting method) every rule runs, as they are read together.
// Every rule in the catalogue has a directory.
// Files named `trigger-*` must produce at least one finding of the directory's rule, `near-miss-*`
// none, and every directory has both. Regenerate with PLANLINT_UPDATE_GOLDENS=1, then read them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lint/core/report.hpp"
#include "lint/engine/engine.hpp"
#include "rules/rule.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// One line of golden text: line breaks shown as \n, so that every field stays on its line.
std::string one_line(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

// A machine value as JSON prints it (shortest form that reads back the same).
std::string number_text(double v) { return nlohmann::json(v).dump(); }

// The whole finding, as a user and a machine read it: `line:col severity rule operator message`,
// then `  plan label: execution N (description)` (event logs, History Server answers),
// `  evidence: name = value [number unit]`, `  impact: text [number unit]` and `  fix: ...`.
std::string format_diagnostics(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) {
    out += std::to_string(d.range.line) + ":" + std::to_string(d.range.column) + " " + std::string(to_string(d.severity)) + " " +
           d.rule + " " + (d.operator_id.empty() ? "-" : d.operator_id) + " " + one_line(d.message) + "\n";
    if (!d.plan_label.empty()) out += "  plan label: " + one_line(plan_label_text(d.plan_label)) + "\n";
    for (const auto& e : d.evidence) {
      out += "  evidence: " + one_line(e.name) + " = " + one_line(e.value);
      if (e.number) out += " [" + number_text(*e.number) + (e.unit.empty() ? "" : " " + e.unit) + "]";
      out += "\n";
    }
    if (d.impact || !d.impact_text.empty()) {
      out += "  impact: " + one_line(d.impact_text);
      if (d.impact) out += " [" + number_text(*d.impact) + (d.impact_unit.empty() ? "" : " " + d.impact_unit) + "]";
      out += "\n";
    }
    out += "  fix: " + one_line(d.fix) + "\n";
  }
  return out;
}

bool is_input(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".txt" || ext == ".json" || ext == ".eventlog";
}

// The input files of corpus/rules, of the folder PLANLINT_RULE_DIR names when set, sorted.
std::vector<fs::path> rule_corpus_files(const fs::path& root) {
  fs::path dir = root;
  if (const char* only = std::getenv("PLANLINT_RULE_DIR"); only && *only) dir /= only;
  REQUIRE_MESSAGE(fs::is_directory(dir), "no rule folder " << dir.string());
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && is_input(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// How many rule folders the run covers: one with PLANLINT_RULE_DIR, else every folder.
std::size_t rule_folder_count(const fs::path& root) {
  if (const char* only = std::getenv("PLANLINT_RULE_DIR"); only && *only) return 1;
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(root)) n += e.is_directory() ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("corpus/rules: expected diagnostics per plan") {
  fs::path root = test::corpus_dir() / "rules";
  REQUIRE(fs::is_directory(root));
  const std::vector<fs::path> files = rule_corpus_files(root);
  REQUIRE(files.size() >= 2);
  std::size_t checked = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_dir;  // triggers, near misses
  for (const auto& f : files) {
    std::string rel = fs::relative(f, test::source_dir()).string();
    CAPTURE(rel);
    std::string rule_dir = f.parent_path().filename().string();
    const Rule* rule = find_rule(rule_dir);
    REQUIRE_MESSAGE(rule != nullptr, "directory is not a rule name: " << rule_dir);
    const bool mission = rule->doc().family == RuleFamily::Plan;
    Config config;
    if (mission) {
      // By code, each secondary name by its own; filter-not-pushed-down hands truncated lists to PL008.
      config.select.insert(rule->doc().code);
      for (const auto& a : rule->doc().also_reports) config.select.insert(a.code);
      if (rule->doc().name == "filter-not-pushed-down") config.select.insert("truncated-metadata");
    }
    LintResult r = lint_text(test::read_file(f), rel, config);
    CHECK_FALSE(r.parse.has_errors());
    std::string stem = f.filename().string();
    std::size_t of_rule = 0;
    for (const auto& d : r.diagnostics) {
      const Rule* by = find_rule(d.rule);  // the rule that reports this name (its own or a secondary)
      if (d.rule == rule_dir || (rule->doc().name == rule_dir && by == rule)) ++of_rule;
    }
    if (stem.rfind("trigger", 0) == 0) {
      CHECK(of_rule >= 1);
      ++per_dir[rule_dir].first;
    }
    if (stem.rfind("near-miss", 0) == 0) {
      CHECK(of_rule == 0);
      ++per_dir[rule_dir].second;
    }
    for (const auto& d : r.diagnostics) {
      // Every finding names its operator (or the plan section) and gives evidence and a fix.
      CHECK(d.range.known());
      CHECK_FALSE(d.evidence.empty());
      CHECK_FALSE(d.fix.empty());
    }
    ++checked;
    fs::path expected = f;
    expected += ".expected";
    test::check_golden(expected, format_diagnostics(r.diagnostics));
  }
  for (const auto& entry : per_dir) {  // no structured binding: clang < 16 cannot capture it in CAPTURE
    const auto& dir = entry.first;
    const auto& counts = entry.second;
    CAPTURE(dir);
    CHECK(counts.first >= 1);
    CHECK(counts.second >= 1);
  }
  CHECK(per_dir.size() == rule_folder_count(root));  // every folder has trigger and near-miss files
  CHECK(checked == files.size());
  if (rule_folder_count(root) != 1) {  // the whole corpus: every rule in the catalogue has a folder
    for (const auto& r : all_rules()) {
      const std::string name = r->doc().name;
      CAPTURE(name);
      CHECK(per_dir.count(name) == 1);
    }
    CHECK(per_dir.size() == all_rules().size());
  }
}
