// The hand-written scanning rules of the grammars (one loop or memchr instead of a rule call per
// byte) against the generic PEGTL forms they replace: on every line of the bundled corpus, on
// every suffix of those lines, and on crafted edge cases, both must match the same bytes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <tao/pegtl.hpp>

#include "grammar/explain.hpp"
#include "grammar/expression.hpp"
#include "parser/explain/explain_lines.hpp"
#include "tests/support.hpp"

namespace pegtl = tao::pegtl;
namespace ge = planlint::grammar::explain;
namespace gx = planlint::grammar::expr;

namespace {

// What the rules replaced (grammar/explain.hpp and grammar/expression.hpp before the scans).
struct ref_node_label : pegtl::star<pegtl::not_at<ge::node_tail>, pegtl::any> {};
struct ref_plain_label : pegtl::star<pegtl::not_at<ge::logical_stats_tail>, pegtl::any> {};
struct ref_block_name : pegtl::star<pegtl::not_at<ge::header_tail>, pegtl::any> {};
struct ref_field_key
    : pegtl::seq<pegtl::upper, pegtl::star<pegtl::sor<pegtl::alnum, pegtl::one<'_'>, pegtl::seq<ge::sp, pegtl::at<pegtl::alnum>>>>> {};
struct ref_lead : pegtl::star<pegtl::sor<ge::connector, ge::sp, ge::guide>> {};
struct ref_name_word : pegtl::seq<pegtl::not_at<gx::reserved>, gx::name_chars> {};

// Bytes matched by Rule at the start of s (-1: no match).
template <typename Rule>
long matched(std::string_view s) {
  pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*> in(s.data(), s.data() + s.size(), "t");
  if (!pegtl::parse<Rule>(in)) return -1;
  return static_cast<long>(in.current() - s.data());
}

std::vector<std::string> corpus_lines() {
  std::vector<std::string> lines = {
      "", " ", "(", " (", " (1)", "Scan parquet db.t (12)", "Filter (isnotnull(a#1)) (3)", "A (x) (unknown)",
      "Exchange (5), Statistics(sizeInBytes=8.0 EiB)", "AQEShuffleRead (6), skewed", "X (columnar 1)",
      "HashAggregate [codegen id : 3]", "ReusedExchange [Reuses operator id: 5]", "Name  ", "A [codegen id : x]",
      "Output [2]: [a#1, b#2]", "Left keys [1]: [k#1]", "Location [not included in comparison]/x", "Condition : x",
      "Join condition: None", "A  B: x", "Ab_9 C: y", "   :  +- * Project (4)", ":- :- +- x", ": :", "  :", ":-",
      "+-", "       :x", "        :", "       : ", "  :  :  :  :  :  +- x", "        ::  x", "       :- y",
      "  :  :  :  :  :- :  : x", "Filter (1 = 1) (3)", "A (3), Statistics(x (4)", "X (1) (columnar (5)", "*  (3)",
      " (3)", "* X (0123)", "!X (3)", "^ X (3)", "*(2) X (3)", "*X (3)", "X (u) (3)", "X  (3)", "X (unknown)",
      "(1) X", "(1) X [codegen id : 3]", "(1) X  [codegen id : 3]", "(1) [codegen id : 3]", "(1)  [codegen id : 3]",
      "(1) X [codegen id : 3] ", "(1) X\t", "(1) X [Reuses operator id: 5]", "(1) X [codegen id : 3] [Reuses operator id: 5]",
      "(1) X [codegen id : ]", "(1) X [a] [codegen id : 3]", "(12)X", "(1) ", "(1)  ", "(x) Y", "(1) X [codegen id : 3]]",
      "(1) X [codegen id : 99999999999]", "(1) A B  C", "(1) X[codegen id : 3]", "(1) X [codegen id : 3x]",
      "X (3) (4)", "+- * X (7)", ":- Y (x) (8)", "X ((a)) (9)", "X (3)x (4)", "(3)", "X (3), y (4)", "                +- z", ":  :  :  :  :  :  :  :  :", "AND x#1", "and#1", "ORDER#1", "in.x#2", "a b#3", "DISTINCT#4", "col$1#5", "x-y:z/w@v#6",
      "Project [a#1], Statistics(sizeInBytes=1.0 B)", "Relation t[a#1], Statistics(sizeInBytes=1.0 B, rowCount=1)"};
  for (const auto& entry : std::filesystem::recursive_directory_iterator(planlint::test::corpus_dir())) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension().string();
    if (ext != ".txt" && ext != ".md") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  return lines;
}

template <typename Rule, typename Ref>
void check_same(const std::vector<std::string>& lines, const char* name, bool suffixes) {
  std::size_t tried = 0, differ = 0;
  for (const std::string& line : lines) {
    const std::size_t step = suffixes ? 1 : line.size() + 1;
    for (std::size_t from = 0; from <= line.size(); from += step) {
      const std::string_view s = std::string_view(line).substr(from);
      ++tried;
      if (matched<Rule>(s) != matched<Ref>(s)) {
        ++differ;
        if (differ <= 5) FAIL_CHECK(std::string(name) << " differs on \"" << std::string(s) << "\"");
      }
    }
  }
  INFO(std::string(name) << ": " << tried << " texts");
  CHECK(tried > 1000);
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("grammar scans: each matches exactly what the generic rule it replaces matches") {
  const auto lines = corpus_lines();
  REQUIRE(lines.size() > 1000);
  check_same<ge::node_label, ref_node_label>(lines, "node_label", false);
  check_same<ge::plain_label, ref_plain_label>(lines, "plain_label", false);
  check_same<ge::block_name, ref_block_name>(lines, "block_name", false);
  check_same<ge::field_key, ref_field_key>(lines, "field_key", true);
  check_same<ge::lead, ref_lead>(lines, "lead", true);
  check_same<gx::name_word, ref_name_word>(lines, "name_word", true);
}

TEST_CASE("grammar scans: the lookaheads of primary accept everything their alternatives match") {
  // attr_start is a necessary condition for attribute; subquery_start for subquery_expr.
  const auto lines = corpus_lines();
  std::size_t attributes = 0, subqueries = 0;
  for (const std::string& line : lines)
    for (std::size_t from = 0; from < line.size(); ++from) {
      const std::string_view s = std::string_view(line).substr(from);
      if (matched<gx::attribute>(s) >= 0) {
        ++attributes;
        CHECK_MESSAGE(matched<gx::attr_start>(s) >= 0, "attribute without attr_start: " << std::string(s));
      }
      if (matched<gx::subquery_expr>(s) >= 0) {
        ++subqueries;
        CHECK_MESSAGE(matched<gx::subquery_start>(s) >= 0, "subquery without subquery_start: " << std::string(s));
      }
    }
  CHECK(attributes > 1000);
  CHECK(subqueries > 10);
}

TEST_CASE("outline lines: the hand-read common shape gives what the grammar gives") {
  // match_formatted_tree_line reads `<lead>[* ]<label> (<digits>)` by hand and leaves every other
  // line to the grammar: on every line of the corpus and every suffix of it, the answer and each
  // piece must be the grammar's.
  std::size_t tried = 0, matched_lines = 0, differ = 0;
  for (const std::string& line : corpus_lines())
    for (std::size_t from = 0; from <= line.size(); ++from) {
      const std::string_view s = std::string_view(line).substr(from);
      planlint::explain::TreeLine a, b;
      const bool ma = planlint::explain::match_formatted_tree_line(s, a, nullptr);
      const bool mb = planlint::explain::match_formatted_tree_line_by_grammar(s, b);
      ++tried;
      matched_lines += mb ? 1 : 0;
      const bool same = ma == mb && (!ma || (a.column == b.column && a.label_column == b.label_column &&
                                             a.connector == b.connector && a.codegen == b.codegen &&
                                             a.codegen_stage == b.codegen_stage && a.label == b.label &&
                                             a.label.data() == b.label.data() && a.id == b.id &&
                                             a.stats == b.stats && a.has_stats == b.has_stats &&
                                             a.columnar == b.columnar));
      if (!same && ++differ <= 5) FAIL_CHECK("differs on \"" << std::string(s) << "\"");
    }
  CHECK(matched_lines > 1000);
  CHECK(differ == 0);
  INFO(tried << " texts");
}

TEST_CASE("block headers: the hand-read common shapes give what the grammar gives") {
  // match_block_header reads `(<digits>) <name>[ [codegen id : <digits>]]` by hand and leaves every
  // other line to the grammar: on every line of the corpus and every suffix of it, the answer and
  // each piece must be the grammar's.
  std::size_t matched_lines = 0, differ = 0;
  for (const std::string& line : corpus_lines())
    for (std::size_t from = 0; from <= line.size(); ++from) {
      const std::string_view s = std::string_view(line).substr(from);
      planlint::explain::BlockHeader a, b;
      const bool ma = planlint::explain::match_block_header(s, a);
      const bool mb = planlint::explain::match_block_header_by_grammar(s, b);
      matched_lines += mb ? 1 : 0;
      const bool same = ma == mb && (!ma || (a.id == b.id && a.id.data() == b.id.data() && a.name == b.name &&
                                             a.name.data() == b.name.data() && a.codegen_stage == b.codegen_stage &&
                                             a.reuses == b.reuses && a.has_reuses == b.has_reuses));
      if (!same && ++differ <= 5) FAIL_CHECK("differs on \"" << std::string(s) << "\"");
    }
  CHECK(matched_lines > 500);
  CHECK(differ == 0);
}
