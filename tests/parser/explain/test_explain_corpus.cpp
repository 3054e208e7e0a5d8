// Goldens: `planlint parse --format json corpus/parse/<case>` must equal corpus/parse/<case>.parse.json
// (plans we wrote by hand for every explain mode and for damaged pastes). Regenerate with
// PLANLINT_UPDATE_GOLDENS=1, then READ the diff before committing. Warnings about expressions
// the expression grammar does not understand are left out of the comparison: they belong to
// that grammar's tests, and these goldens must not change whenever it learns a new form.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "lint/core/plan_json.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  fs::path dir = planlint::test::corpus_dir() / "parse";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 4 && name.substr(name.size() - 4) == ".txt") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string without_expression_warnings(const std::string& out) {
  auto j = nlohmann::ordered_json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("diagnostics")) return out;
  auto kept = nlohmann::ordered_json::array();
  for (auto& d : j["diagnostics"])
    if (d.value("message", "").rfind("could not parse expression", 0) != 0) kept.push_back(d);
  j["diagnostics"] = std::move(kept);
  return planlint::dump_json(j);
}

}  // namespace

TEST_CASE("corpus/parse: planlint parse --format json matches the goldens") {
  auto files = cases();
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    std::string rel = "corpus/parse/" + f.filename().string();
    INFO(rel);
    auto r = planlint::test::run_planlint("parse --format json '" + rel + "'");
    fs::path golden = f;
    golden.replace_extension();  // drop .txt
    golden.replace_extension(".parse.json");
    planlint::test::check_golden(golden, without_expression_warnings(r.out));
    // Exit 1 exactly when the output reports a syntax error.
    bool has_error = r.out.find("\"severity\": \"error\"") != std::string::npos;
    CHECK(r.exit_code == (has_error ? 1 : 0));
  }
}

TEST_CASE("corpus/parse: text output names every operator once per tree") {
  auto r = planlint::test::run_planlint("parse corpus/parse/subqueries-dpp-reused.explain.txt");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("plan 1 (explain-formatted, 15 operators)") != std::string::npos);
  CHECK(r.out.find("   :     +- Scan parquet spark_catalog.dw.sales (1) [scan spark_catalog.dw.sales]") != std::string::npos);
  CHECK(r.out.find("-- subquery 2 in Filter (3)") != std::string::npos);
  CHECK(r.out.find("(reused)") != std::string::npos);
  CHECK(r.out.find("ReusedExchange (15) [reused-exchange reuses BroadcastExchange (7) subquery]") != std::string::npos);
}

TEST_CASE("planlint parse: exit codes and error format") {
  auto bad = planlint::test::run_planlint("parse corpus/parse/damage-truncated-outline.explain.txt", true);
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("corpus/parse/damage-truncated-outline.explain.txt:5:15: error: expected ' (<operator id>)' at the end "
                     "of the tree line\n  |          +- In\n  |               ^\n") != std::string::npos);
  auto missing = planlint::test::run_planlint("parse corpus/parse/no-such-file.txt", true);
  CHECK(missing.exit_code == 2);
  auto usage = planlint::test::run_planlint("parse --format xml corpus/parse/default-mode.explain.txt", true);
  CHECK(usage.exit_code == 2);
  auto stdin_run = planlint::test::run_planlint("parse - < corpus/parse/default-mode.explain.txt");
  CHECK(stdin_run.exit_code == 0);
  CHECK(stdin_run.out.find("plan 1 (explain-default, 17 operators, AQE)") != std::string::npos);
}
