// The column-stack tree builder of the explain reader (parser/explain/outline.hpp), given the
// columns of tree lines: parents, roots, AQE sections, operators printed twice, subqueries.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "lint/core/plan_json.hpp"
#include "parser/explain/explain.hpp"
#include "parser/explain/outline.hpp"
#include "parser/common/input_pages.hpp"
#include "tests/support.hpp"
#include "tools/gen/generate.hpp"

using namespace planlint;
using explain::Outline;

namespace {

std::vector<std::size_t> children(const Plan& p, std::size_t op) {
  return {p.ops[op].children.begin(), p.ops[op].children.end()};
}

// One tree line whose node starts at `col`: what the mode handlers do for a new operator.
std::size_t line(Outline& o, Plan& p, std::uint32_t col, bool inner_subquery = false) {
  o.pop(col);
  const Section sec = o.section_for(col);
  const std::size_t op = o.add_op(p);
  p.ops[op].section = sec;
  o.place(p, op, col, inner_subquery);
  return op;
}

}  // namespace

TEST_CASE("outline: a line's parent is the nearest open line left of it") {
  //  A           col 0
  //  +- B        col 3
  //     :- C     col 6
  //     +- D     col 6
  //  +- E        col 3  (a second child of A after B's subtree)
  Plan p;
  Outline o;
  const std::size_t a = line(o, p, 0), b = line(o, p, 3), c = line(o, p, 6), d = line(o, p, 6), e = line(o, p, 3);
  CHECK(p.roots == std::vector<std::size_t>{a});
  CHECK(children(p, a) == std::vector<std::size_t>{b, e});
  CHECK(children(p, b) == std::vector<std::size_t>{c, d});
  CHECK(children(p, c).empty());
  CHECK(o.is_open(e));
  CHECK_FALSE(o.is_open(b));
  CHECK(o.top_column() == 3);
  // A second tree at column 0 is a second root.
  const std::size_t f = line(o, p, 0);
  CHECK(p.roots == std::vector<std::size_t>{a, f});
  CHECK(o.top_column() == 0);
  CHECK(p.ops[f].index == f);
}

TEST_CASE("outline: an operator placed again under the same parent is one edge") {
  // AQE's initial plan prints ids of the final plan again: the reader places the same operator.
  Plan p;
  Outline o;
  const std::size_t a = line(o, p, 0), b = line(o, p, 3);
  o.pop(0);
  o.place(p, a, 0);  // the root again
  o.place(p, b, 3);  // and its child again
  CHECK(p.roots == std::vector<std::size_t>{a});
  CHECK(children(p, a) == std::vector<std::size_t>{b});
  o.place(p, b, 6);  // an operator is never its own child
  CHECK(children(p, b).empty());
}

TEST_CASE("outline: AQE sections hold their lines until a line left of them") {
  Plan p;
  Outline o;
  const std::size_t root = line(o, p, 0);
  explain::open_aqe_section(o, p, explain::AqeTitle::Final, 0);  // `+- == Final Plan ==` at column 0
  CHECK(p.adaptive);
  CHECK(p.is_final_plan);
  const std::size_t f1 = line(o, p, 3), f2 = line(o, p, 6);
  explain::open_aqe_section(o, p, explain::AqeTitle::Initial, 0);
  CHECK(o.top_column() == 0);  // the final plan's lines are closed
  const std::size_t i1 = line(o, p, 3);
  CHECK(p.ops[root].section == Section::Main);
  CHECK(p.ops[f1].section == Section::AqeFinal);
  CHECK(p.ops[f2].section == Section::AqeFinal);
  CHECK(p.ops[i1].section == Section::AqeInitial);
  CHECK(children(p, root) == std::vector<std::size_t>{f1, i1});
  CHECK(children(p, f1) == std::vector<std::size_t>{f2});
  // A line left of the sections is outside them.
  const std::size_t next = line(o, p, 0);
  CHECK(p.ops[next].section == Section::Main);
  CHECK(p.roots == std::vector<std::size_t>{root, next});
}

TEST_CASE("outline: subqueries are entries, not children or roots") {
  Plan p;
  Outline o;
  // Default mode: a subquery printed inline under a Filter is hosted by it.
  const std::size_t filter = line(o, p, 0);
  const std::size_t sub = line(o, p, 6, true);
  const std::size_t below = line(o, p, 9);
  CHECK(children(p, filter).empty());
  REQUIRE(p.subqueries.size() == 1);
  CHECK(p.subqueries[0].number == 1);
  CHECK(p.subqueries[0].hosting_op == filter);
  CHECK(p.subqueries[0].root == sub);
  CHECK(children(p, sub) == std::vector<std::size_t>{below});
  // Formatted mode: after `Subquery:2 ...` the next root line is the entry's root, not a plan root.
  o.clear_stack();
  o.base = Section::Subquery;
  p.subqueries.emplace_back();
  o.entry = p.subqueries.size() - 1;
  const std::size_t entry_root = line(o, p, 0);
  CHECK(p.ops[entry_root].section == Section::Subquery);
  CHECK(p.subqueries[1].root == entry_root);
  CHECK(p.roots == std::vector<std::size_t>{filter});
  // Without an entry, a root line outside the main plan belongs nowhere.
  o.clear_stack();
  o.entry.reset();
  line(o, p, 0);
  CHECK(p.roots == std::vector<std::size_t>{filter});
  // reset() starts a plan: lines are roots of the main plan again.
  Plan q;
  o.reset();
  const std::size_t r = line(o, q, 0);
  CHECK(q.roots == std::vector<std::size_t>{r});
}

TEST_CASE("outline: logical lines build logical roots and children") {
  Plan p;
  Outline o;
  auto logical = [&](std::uint32_t col) {
    o.pop(col);
    const std::size_t op = o.add_op(p);
    o.place_logical(p, op, col);
    return op;
  };
  const std::size_t join = logical(0), left = logical(3), right = logical(3), second = logical(0);
  CHECK(p.logical_roots == std::vector<std::size_t>{join, second});
  CHECK(children(p, join) == std::vector<std::size_t>{left, right});
  CHECK(p.roots.empty());
}

// Giving back: the explain reader gives back a formatted outline's bytes once it has read them (an
// InputPages scope, parser/common/input_pages.hpp): while it reads such an outline its operators copy
// what they keep (ids, labels) instead of viewing the input, so that nothing of the plan views
// those bytes.
// Here every outline of every corpus plan is given back in Overwrite mode (every byte overwritten)
// and the result, as `planlint parse --format json` prints it, must be the one read without a scope:
// a text that still viewed a byte of an outline, or any later read of one, would show.

namespace {


std::string give_back_json(const ParseResult& r) { return dump_json(parse_result_json(r)); }

struct GivenBack {
  std::string normal;       // read without a scope
  std::string given_back;   // read with every outline given back (overwritten)
  std::size_t overwritten;  // bytes of the input that were overwritten
};

GivenBack read_given_back(const std::string& text, std::size_t min_bytes = 0,
                   InputPages::Mode mode = InputPages::Mode::Overwrite) {
  GivenBack g;
  g.normal = give_back_json(parse_explain_text(text, "x.txt", std::make_shared<const std::string>(text)));
  auto input = std::make_shared<std::string>(text);
  {
    const InputPages pages(input->data(), input->size(), min_bytes, mode);
    g.given_back = give_back_json(parse_explain_text(*input, "x.txt", input));
  }
  g.overwritten = 0;
  for (std::size_t i = 0; i < text.size(); ++i) g.overwritten += (*input)[i] != text[i];
  return g;
}

}  // namespace

TEST_CASE("InputPages: a reader gives back only inside the owner's buffer, at least min_bytes") {
  std::string buffer(10000, 'a');
  const InputPages pages(buffer.data(), buffer.size(), 100, InputPages::Mode::Overwrite);
  CHECK(InputPages::current() == &pages);
  const std::string_view all(buffer);
  CHECK(pages.may_release(all.substr(0, 100)));
  CHECK_FALSE(pages.may_release(all.substr(0, 99)));
  const std::string other(200, 'b');
  CHECK_FALSE(pages.may_release(other));
  CHECK(pages.release(other) == 0);
  CHECK(pages.release(all.substr(10, 120)) == 120);
  CHECK(buffer.substr(0, 10) == std::string(10, 'a'));
  CHECK(buffer.substr(10, 120) == std::string(120, '~'));
  CHECK(buffer[130] == 'a');
  {
    // Release mode: the whole pages inside the range read as zeros, the bytes around them stay.
    std::string big(1 << 20, 'c');
    const InputPages inner(big.data(), big.size(), 0);
    CHECK(InputPages::current() == &inner);
    const std::size_t given = inner.release(std::string_view(big).substr(1, big.size() - 2));
    CHECK(given >= big.size() - 2 * 65536);  // pages of at most 64 KiB
    CHECK(big.front() == 'c');
    CHECK(big.back() == 'c');
    std::size_t zeros = 0;
    for (char c : big) zeros += c == '\0';
    CHECK(zeros == given);
  }
  CHECK(InputPages::current() == &pages);
}

TEST_CASE("explain reader: every corpus plan reads the same with its outlines given back") {
  std::vector<std::filesystem::path> roots{test::corpus_dir()};
  if (auto shared = test::shared_dir()) roots.push_back(*shared / "corpus");
  std::size_t files = 0, given_back = 0;
  for (const std::filesystem::path& root : roots) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
      if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
      const std::string text = test::read_file(e.path());
      const std::string name = e.path().string();
      CAPTURE(name);
      const GivenBack g = read_given_back(text);
      CHECK(g.given_back == g.normal);
      ++files;
      given_back += g.overwritten > 0;
    }
  }
  CHECK(files > 100);
  // Most formatted plans have an outline of more than one line: nearly all were given back.
  CHECK(given_back > 50);
}

TEST_CASE("explain reader: what it gives back of generated plans, and what it keeps") {
  const std::string plan = gen::formatted_plan(400);
  const std::size_t outline_end = plan.find("\n\n");
  REQUIRE(outline_end != std::string::npos);
  SUBCASE("one plan: its outline, not its details") {
    const GivenBack g = read_given_back(plan);
    CHECK(g.given_back == g.normal);
    // The outline's lines from the first tree line (after `== Physical Plan ==\n`) to its last.
    const std::size_t first = plan.find('\n') + 1;
    CHECK(g.overwritten > (outline_end - first) * 9 / 10);
    CHECK(g.overwritten <= outline_end - first);
  }
  SUBCASE("many plans in one input: each outline") {
    const std::string many = plan + "\n" + gen::formatted_plan(300, 7) + "\n" + plan;
    const GivenBack g = read_given_back(many);
    CHECK(g.given_back == g.normal);
    CHECK(g.overwritten > 2 * (outline_end / 2));
  }
  SUBCASE("an outline smaller than min_bytes is kept") {
    const GivenBack g = read_given_back(plan, outline_end + 1);
    CHECK(g.given_back == g.normal);
    CHECK(g.overwritten == 0);
  }
  SUBCASE("an outline with a line not understood is kept (its hint reads the line again)") {
    std::string damaged = plan;
    damaged.insert(outline_end / 2 + plan.substr(outline_end / 2).find('\n') + 1, "@@ not a tree line @@\n");
    const GivenBack g = read_given_back(damaged);
    CHECK(g.given_back == g.normal);
    CHECK(g.normal.find("not understood") != std::string::npos);
    CHECK(g.overwritten == 0);
  }
  SUBCASE("an outline ended by a detail block without a blank line") {
    std::string joined = plan;
    joined.erase(outline_end, 1);
    const GivenBack g = read_given_back(joined);
    CHECK(g.given_back == g.normal);
    CHECK(g.overwritten > 0);
    CHECK(g.overwritten < outline_end);
  }
  SUBCASE("a repaired input (lines rewritten) is not given back") {
    std::string tabs = plan;
    for (std::size_t at = tabs.find("\n   "); at != std::string::npos && at < outline_end; at = tabs.find("\n   ", at + 2))
      tabs.replace(at + 1, 3, "\t");
    const GivenBack g = read_given_back(tabs);
    CHECK(g.given_back == g.normal);
  }
  SUBCASE("release mode: the outline's pages read as zeros") {
    const std::string big = gen::formatted_plan(6000);
    const GivenBack g = read_given_back(big, 0, InputPages::Mode::Release);
    CHECK(g.given_back == g.normal);
    CHECK(g.overwritten > big.find("\n\n") / 2);
  }
}
