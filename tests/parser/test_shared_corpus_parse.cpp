// Every plan of the shared corpus (../shared/corpus: Spark 3.2 and 4.1 golden EXPLAIN FORMATTED
// plans, the Gluten plan, the Photon explanation) parses without errors, and the number of
// operators equals the number of distinct ids in the outline. Skips when ../shared is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Distinct ` (N)` ids at the end of outline lines (optionally followed by `, Statistics(...)` or
// ` (columnar...)`), counted independently of the parser.
std::set<std::string> outline_ids(const std::string& text) {
  std::set<std::string> ids;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    if (line.empty() || line.front() == '(') continue;
    if (auto s = line.find(", Statistics("); s != std::string_view::npos) line = line.substr(0, s);
    if (auto s = line.find(") (columnar"); s != std::string_view::npos) line = line.substr(0, s + 1);
    if (line.size() < 4 || line.back() != ')') continue;
    std::size_t open = line.rfind(" (");
    if (open == std::string_view::npos) continue;
    std::string_view id = line.substr(open + 2, line.size() - open - 3);
    if (all_digits(id)) ids.emplace(id);
  }
  return ids;
}

std::vector<fs::path> explain_files(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 12 && name.substr(name.size() - 12) == ".explain.txt") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("shared corpus: every Spark / Gluten explain plan parses, one operator per outline id" * doctest::test_suite("shared")) {
  auto shared = planlint::test::require_shared();
  if (!shared) return;
  auto files = explain_files(*shared / "corpus" / "spark");
  auto more = explain_files(*shared / "corpus" / "databricks");
  files.insert(files.end(), more.begin(), more.end());
  MESSAGE("shared explain plans: " << files.size());
  CHECK(files.size() >= 400);
  std::size_t ops = 0;
  for (const auto& f : files) {
    std::string text = planlint::test::read_file(f);
    auto r = planlint::parse_input(text, f.string());
    INFO(f.string());
    CHECK_FALSE(r.has_errors());
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].format == planlint::InputFormat::ExplainFormatted);
    CHECK(r.plans[0].ops.size() == outline_ids(text).size());
    CHECK(r.plans[0].roots.size() == 1);
    ops += r.plans[0].ops.size();
  }
  MESSAGE("operators: " << ops);
}

TEST_CASE("shared corpus: the Photon explanation text" * doctest::test_suite("shared")) {
  auto shared = planlint::test::require_shared();
  if (!shared) return;
  fs::path f = *shared / "corpus" / "databricks" / "photon-explanation-01-spark-perf-hikes.txt";
  if (!fs::exists(f)) {
    planlint::test::shared_missing(f.string() + " is not present");
    return;
  }
  auto r = planlint::parse_input(planlint::test::read_file(f), f.string());
  CHECK_FALSE(r.has_errors());
  REQUIRE(r.plans.size() == 2);
  const auto& a = r.plans[0].photon;
  CHECK(a.present);
  CHECK_FALSE(a.fully_supported);
  REQUIRE(a.reasons.size() == 1);
  CHECK(a.reasons[0].rfind("UDF(name#2964) is not supported:", 0) == 0);
  CHECK(a.reasons[0].find("scalaudf") != std::string::npos);
  REQUIRE(a.reference_nodes.size() == 1);
  CHECK(a.reference_nodes[0] == "Project [UDF(name#2964) AS UDF(name)#2989]");
  CHECK(r.plans[1].photon.present);
  CHECK(r.plans[1].photon.fully_supported);
  CHECK(r.plans[0].format == planlint::InputFormat::PhotonExplanation);
}

TEST_CASE("shared corpus: the Gluten plan keeps Final and Initial sections as one DAG" * doctest::test_suite("shared")) {
  auto shared = planlint::test::require_shared();
  if (!shared) return;
  fs::path f = *shared / "corpus" / "databricks" / "aqe-final-01-gluten-velox-tpch-q3-spark34.explain.txt";
  if (!fs::exists(f)) {
    planlint::test::shared_missing(f.string() + " is not present");
    return;
  }
  auto r = planlint::parse_input(planlint::test::read_file(f), f.string());
  REQUIRE(r.plans.size() == 1);
  const auto& p = r.plans[0];
  CHECK(p.adaptive);
  CHECK(p.is_final_plan == true);
  const auto* root = p.find_id("53");
  REQUIRE(root);
  CHECK(root->kind == planlint::OpKind::AdaptivePlan);
  REQUIRE(root->children.size() == 2);
  CHECK(p.ops[root->children[0]].section == planlint::Section::AqeFinal);
  CHECK(p.ops[root->children[1]].section == planlint::Section::AqeInitial);
  const auto* join = p.find_id("21");
  REQUIRE(join);
  CHECK(join->engine == planlint::Engine::Gluten);
  CHECK(join->join->build == planlint::BuildSide::Right);
  CHECK(join->codegen);
  const auto* stage = p.find_id("27");
  REQUIRE(stage);
  CHECK(stage->stats()->masked);
}
