// The hand-written scanning rules of the grammars (one loop or memchr instead of a rule call per
// byte) against the generic PEGTL forms they replace: on every line of the bundled corpus, on
// every suffix of those lines, and on crafted edge cases, both must match the same bytes.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
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

namespace {

// Both readers of an outline line on `s`: the same answer and the same pieces.
bool same_outline_reading(std::string_view s) {
  planlint::explain::TreeLine a, b;
  const bool ma = planlint::explain::match_formatted_tree_line(s, a, nullptr);
  const bool mb = planlint::explain::match_formatted_tree_line_by_grammar(s, b);
  return ma == mb && (!ma || (a.column == b.column && a.label_column == b.label_column && a.connector == b.connector &&
                              a.codegen == b.codegen && a.codegen_stage == b.codegen_stage && a.label == b.label &&
                              a.label.data() == b.label.data() && a.id == b.id && a.stats == b.stats &&
                              a.has_stats == b.has_stats && a.columnar == b.columnar));
}

}  // namespace

TEST_CASE("outline lines: the lead read 32 bytes at a time ends where the grammar's does") {
  // match_formatted_tree_line finds the end of a line's lead 32 bytes at a time (AVX2, lead_wide)
  // on a line of 32 bytes or more. Random leads of blanks, connectors, guides and their broken
  // forms ("+-x", ":-", "-", "+ ", ":" at the end), of every length around the blocks (the first
  // decides 30 bytes, the next starts one byte back, the last ends at the line's end), before a
  // label and an id, and lines that are all lead up to the id: the same reading as the grammar's,
  // with and without lead_wide.
  const bool has_wide = planlint::explain::lead_wide;
  std::mt19937 rng(47);
  const std::vector<std::string> parts{" ", "   ", "      ", "+- ", ":- ", ": ", ":  ", "+-", ":-", "-", "+", ":",
                                       "+ ", "- ", "--", "+-x", "*", "x", "(", "\t"};
  const std::vector<std::string> labels{"Project", "* Filter", "*(2) Sort", "^ Scan", "!Exchange", "", " ", "-", ":", "+- "};
  std::size_t lines = 0, wide_lines = 0;
  for (int round = 0; round < 30000; ++round) {
    std::string s;
    const std::size_t want = static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 120)(rng));
    // Mostly well-formed parts, so that long leads are common.
    while (s.size() < want) {
      const bool broken = std::uniform_int_distribution<int>(0, 30)(rng) == 0;
      s += broken ? parts[std::uniform_int_distribution<std::size_t>(7, parts.size() - 1)(rng)]
                  : parts[std::uniform_int_distribution<std::size_t>(0, 6)(rng)];
    }
    s += labels[std::uniform_int_distribution<std::size_t>(0, labels.size() - 1)(rng)];
    s += " (" + std::to_string(round % 100) + ")";
    for (const bool wide : {false, true}) {
      if (wide && !has_wide) continue;
      const planlint::test::SetForScope<bool> reading(planlint::explain::lead_wide, wide);
      INFO("line [" << s << "] wide " << wide);
      REQUIRE(same_outline_reading(s));
      ++lines;
      wide_lines += wide && s.size() >= 32 ? 1 : 0;
    }
  }
  CHECK(lines >= 30000);
  if (has_wide) CHECK(wide_lines > 10000);
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

namespace {

// Both readers of a field line on `s`: the same answer and, when it matches, the same pieces (the
// key and the value as the same views into `s`, the value's column, the count).
bool same_field_line(std::string_view s) {
  planlint::explain::FieldLine a, b;
  const bool ma = planlint::explain::match_field_line(s, a);
  const bool mb = planlint::explain::match_field_line_by_grammar(s, b);
  return ma == mb && (!ma || (a.key == b.key && a.key.data() == b.key.data() && a.value == b.value &&
                              a.value.data() == b.value.data() && a.value_column == b.value_column && a.count == b.count));
}

}  // namespace

TEST_CASE("field lines: the hand reader gives what the grammar gives") {
  // match_field_line reads `Key: value`, `Key [N]: value`, `Key [not included in comparison]...`
  // and `Condition : value` by hand: on every line of the bundled corpus and every suffix of it,
  // on every line of ../shared/corpus, on crafted lines and on 200,000 random edits of corpus
  // lines, the answer and each piece must be the grammar's.
  std::vector<std::string> lines = corpus_lines();
  for (const char* s : {"Output [2]: [a#1, b#2]", "Output [2]:[a#1]", "Output [2]:", "Output [2]", "Output [", "Output [x]: y",
                        "Output [99999999999999999999999]: [a]", "Output []: x", "Output [2] : x", "Output  [2]: x", "Key:",
                        "Key: ", "Key:x", "Key :x", "Key : x", "Condition :", "Condition : ", "Condition :x", "Condition  : x",
                        "Condition [1]: x", "Condition: x", "ConditionX : y", "Condition", "Condition ", "A", "A ", "A B",
                        "A B:", "A  B: x", "A_b 9: x", "A b_: x", "A _b: x", "Location [not included in comparison]",
                        "Location [not included in comparison", "Location [not included", "Location [n", "X [1]x: y",
                        "PushedFilters: [IsNotNull(a), EqualTo(b,1)]", "Join condition: None", "Arguments: 1, 2, [a]"})
    lines.emplace_back(s);
  std::size_t tried = 0, matched_lines = 0, differ = 0;
  auto check = [&](std::string_view s) {
    ++tried;
    planlint::explain::FieldLine b;
    matched_lines += planlint::explain::match_field_line_by_grammar(s, b) ? 1 : 0;
    if (!same_field_line(s) && ++differ <= 5) FAIL_CHECK("differs on \"" << std::string(s) << "\"");
  };
  for (const std::string& line : lines)
    for (std::size_t from = 0; from <= line.size(); ++from) check(std::string_view(line).substr(from));
  CHECK(matched_lines > 1000);
  // ../shared/corpus: every line (not every suffix: 11 MB of text).
  std::vector<std::string> shared_lines;
  if (auto shared = planlint::test::shared_dir(); shared && std::filesystem::is_directory(*shared / "corpus")) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(*shared / "corpus")) {
      if (!entry.is_regular_file() || entry.file_size() > 20'000'000) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::string line;
      while (std::getline(in, line)) shared_lines.push_back(std::move(line));
    }
    for (const std::string& line : shared_lines) check(line);
  } else {
    planlint::test::without_shared("the field lines of ../shared/corpus are not compared");
  }
  // Random edits of the lines that start like a field (one to three bytes inserted, dropped or
  // changed), the bytes the rules turn on most likely.
  std::vector<std::string> fields;
  for (const std::string& line : lines)
    if (!line.empty() && line[0] >= 'A' && line[0] <= 'Z') fields.push_back(line);
  REQUIRE(!fields.empty());
  std::mt19937 rng(37);
  static const std::string bytes = " []:0123456789_aZCn\t";
  for (int k = 0; k < 200'000; ++k) {
    std::string s = fields[rng() % fields.size()].substr(0, 48);
    for (int e = 0, edits = 1 + static_cast<int>(rng() % 3); e < edits; ++e) {
      const std::size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
      const char c = bytes[rng() % bytes.size()];
      switch (rng() % 3) {
        case 0:
          s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        case 1:
          if (at < s.size()) s.erase(at, 1);
          break;
        default:
          if (at < s.size()) s[at] = c;
      }
    }
    check(s);
  }
  INFO(tried << " texts, " << matched_lines << " field lines");
  CHECK(differ == 0);
}
