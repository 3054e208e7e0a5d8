// The column-stack tree builder of the explain reader (docs/formats/explain-text.md §2.1): a tree
// line's parent is the nearest line above it whose label starts in a smaller column, so the open
// ancestors are a stack of (column, operator) and each line pops what is not left of it. No
// recursion, linear in the lines. The formatted outline, the default-mode tree and the logical
// plans all place their operators with it. Internal to parser/explain/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "parser/explain/edge_set.hpp"
#include "parser/explain/explain_lines.hpp"
#include "parser/explain/normalize.hpp"

namespace planlint::explain {

class Outline {
 public:
  // Where a line without an open AQE section belongs: the main plan, or (after the formatted
  // mode's markers) its subqueries or optimized-out subplans. Only Main lines are plan roots.
  Section base = Section::Main;
  // The subquery entry (`Subquery:N ...` in the details) whose root is the next root line.
  std::optional<std::size_t> entry;

  // Forget everything: a new plan begins.
  void reset();
  // Room for `n` placed edges (about one per tree line): counted before the plan is read.
  void reserve_edges(std::size_t n) { placed_.reserve(n); }
  // Room for `ops` operators' open marks and an open stack of up to 64 lines, before the plan is
  // read (grown a step at a time they were ~13 allocations a plan: 6,300 for the golden plans).
  void reserve_ops(std::size_t ops) {
    on_stack_.reserve(ops);
    stack_.reserve(ops < 64 ? ops : 64);
  }
  // The plan is finished: its edges (8 bytes a slot, 2 MB for 100,000 operators) are no longer
  // needed, and freeing them before Plan::link lowers the peak of a large plan.
  void release_edges() { placed_.clear(); }

  // Close every open ancestor whose column is `col` or more (a line at `col` is their sibling or
  // lies outside them).
  void pop(std::uint32_t col) {
    while (!stack_.empty() && stack_.back().col >= col) {
      on_stack_[stack_.back().op] = 0;
      stack_.pop_back();
    }
  }
  // A new tree begins (a mode header, a subquery's outline): no ancestors, no AQE section.
  void clear_stack() {
    pop(0);
    sections_.clear();
  }
  // The section of a line whose node starts at `col`: the innermost AQE section still open there.
  Section section_for(std::uint32_t col) {
    while (!sections_.empty() && col < sections_.back().col) sections_.pop_back();
    return sections_.empty() ? base : sections_.back().section;
  }
  // An AQE header (`+- == Final Plan ==`) whose nodes start at `label_col`: it closes the open
  // lines and sections from that column on and opens `s` there.
  void open_section(std::uint32_t label_col, Section s);

  // A new operator at the end of `p.ops` (its index).
  std::size_t add_op(Plan& p) {
    p.ops.emplace_back();
    p.ops.back().index = p.ops.size() - 1;
    on_stack_.push_back(0);
    return p.ops.size() - 1;
  }
  // Attach `op` under the innermost open line (or make it a root, or the root of the pending
  // subquery entry) and open it at `col`. An edge placed before (AQE's initial plan repeats ids)
  // is not added twice. With `inner_subquery`, `op` is a subquery printed inline under the open
  // line (default mode): it becomes a subquery entry hosted by that line, not its child.
  void place(Plan& p, std::size_t op, std::uint32_t col, bool inner_subquery = false);
  // A logical plan's line: under the innermost open line or a logical root; no edge check.
  void place_logical(Plan& p, std::size_t op, std::uint32_t col);

  [[nodiscard]] bool empty() const { return stack_.empty(); }
  [[nodiscard]] std::uint32_t top_column() const { return stack_.back().col; }  // (not empty())
  // Whether `op` is one of the open lines (an id printed again while open is a new operator).
  [[nodiscard]] bool is_open(std::size_t op) const { return on_stack_[op] != 0; }

 private:
  struct Open {
    std::uint32_t col;
    std::size_t op;
  };
  struct OpenSection {
    std::uint32_t col;  // label column of the section's nodes
    Section section;
  };
  // (parent, child) placed by the outline, roots under kRootParent.
  static constexpr std::size_t kRootParent = 0xFFFFFFFFu;
  static std::uint64_t edge_key(std::size_t parent, std::size_t child) {
    return (static_cast<std::uint64_t>(parent) << 32) ^ static_cast<std::uint64_t>(child);
  }

  std::vector<Open> stack_;
  std::vector<OpenSection> sections_;
  std::vector<char> on_stack_;  // per operator of the plan: open now
  EdgeSet placed_;
};

// An AQE section header in a physical tree: opens its section in `outline` and marks the plan
// adaptive (final when the section is the final plan).
void open_aqe_section(Outline& outline, Plan& p, AqeTitle title, std::uint32_t col);

// The `Statistics(<body>)` suffix of tree line `i` (normalised): sizes, row count, text, range.
void set_stats(const Normalized& n, std::size_t i, Operator& o, std::string_view body);

}  // namespace planlint::explain
