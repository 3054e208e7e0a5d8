// Cut pastes (issue 35, item 3): a formatted plan whose details section stops early (`head -60`, a
// chat's length limit) says where it ends, and gives no finding that the whole plan does not give:
// a missing detail block is unknown, never "no condition", "no columns" or "no filter".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {

std::vector<fs::path> formatted_plans() {
  std::vector<fs::path> roots{test::corpus_dir()};
  if (auto shared = test::shared_dir()) roots.push_back(*shared / "corpus" / "spark");
  std::vector<fs::path> out;
  for (const auto& root : roots)
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string name = e.path().filename().string();
      if (!e.is_regular_file() || name.size() < 12 || name.substr(name.size() - 12) != ".explain.txt") continue;
      if (e.path().string().find("/fuzz_regressions/") != std::string::npos) continue;
      out.push_back(e.path());
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::set<std::pair<std::string, std::string>> findings(const LintResult& r) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& d : r.diagnostics)
    if (d.rule != "parse-error") out.emplace(d.rule, d.operator_id);
  return out;
}

}  // namespace

TEST_CASE("cut pastes: the end of the text is named, and no finding depends on the missing part") {
  // q90's BroadcastNestedLoopJoin has its condition in the details section only.
  const std::string q90 =
      "== Physical Plan ==\n"
      "* Project (4)\n"
      "+- * BroadcastNestedLoopJoin Inner BuildRight (3)\n"
      "   :- * LocalTableScan (1)\n"
      "   +- BroadcastExchange (2)\n"
      "\n"
      "\n"
      "(1) LocalTableScan [codegen id : 2]\n"
      "Output [1]: [a#1]\n";
  LintResult cut = lint_text(q90, "cut.txt", Config{});
  bool told = false;
  for (const auto& m : cut.parse.messages)
    if (m.severity == MessageSeverity::Warning && m.message.find("details section stops early") != std::string::npos) {
      told = true;
      CHECK(m.loc.line == 9);  // the last line of the text
      CHECK(m.message.find("3 of 4 operators") != std::string::npos);
    }
  CHECK(told);
  REQUIRE_FALSE(cut.parse.plans.empty());
  for (const auto& op : cut.parse.plans[0].ops) {
    INFO(op.id);
    // The last block read may be cut as well: it counts as missing too.
    CHECK(op.details_missing);
  }
  for (const auto& d : cut.diagnostics) CHECK(d.rule != "cartesian-product");

  // A whole plan: no warning, nothing marked.
  std::string whole = q90 +
                      "\n(2) BroadcastExchange\nInput [1]: [b#2]\n\n(3) BroadcastNestedLoopJoin [codegen id : 2]\n"
                      "Join type: Inner\nJoin condition: (a#1 > b#2)\n\n(4) Project [codegen id : 2]\nOutput [1]: [a#1]\n";
  LintResult full = lint_text(whole, "whole.txt", Config{});
  for (const auto& m : full.parse.messages) CHECK(m.message.find("details section") == std::string::npos);
  for (const auto& op : full.parse.plans.at(0).ops) CHECK_FALSE(op.details_missing);
}

TEST_CASE("cut pastes: every formatted plan cut at a quarter, half and three quarters finds nothing the whole plan does not" * doctest::test_suite("shared")) {
  auto files = formatted_plans();
  REQUIRE(files.size() >= 5);
  if (!test::shared_dir()) test::without_shared("corpus/ plans only");
  std::size_t cuts = 0, told = 0;
  for (const auto& path : files) {
    const std::string text = test::read_file(path);
    std::vector<std::size_t> ends;  // offsets just after each line
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') ends.push_back(i + 1);
    if (ends.size() < 12) continue;
    const auto whole = findings(lint_text(text, path.string(), Config{}));
    for (std::size_t k : {ends.size() / 4, ends.size() / 2, 3 * ends.size() / 4}) {
      const std::string part = text.substr(0, ends[k - 1]);
      LintResult r = lint_text(part, path.string(), Config{});
      ++cuts;
      for (const auto& m : r.parse.messages)
        if (m.message.find("details section") != std::string::npos) ++told;
      for (const auto& f : findings(r)) {
        INFO(path.string() << " cut after line " << k << ": " << f.first << " on operator " << f.second);
        CHECK(whole.count(f) == 1);
      }
    }
  }
  MESSAGE(files.size() << " plans, " << cuts << " cuts, " << told << " of them named as cut");
  CHECK(told > 0);
}
