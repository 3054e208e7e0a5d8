// The column-stack tree builder of the explain reader (parser/explain/outline.hpp), given the
// columns of tree lines: parents, roots, AQE sections, operators printed twice, subqueries.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "parser/explain/outline.hpp"

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
