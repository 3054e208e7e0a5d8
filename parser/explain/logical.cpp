// The logical plans of the extended and cost modes (`== Parsed / Analyzed / Optimized Logical
// Plan ==`): a tree per section, read until its first blank line, and the hints they carry.
#include <string>

#include "parser/explain/explain_ops.hpp"
#include "parser/explain/explain_state.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

void logical_line(ExplainState& s, std::size_t i) {
  std::string_view t = s.n.text(i);
  LogicalState& ls = s.logical;
  if (t.empty()) {
    if (!s.outline.empty() || !s.plan().logical_roots.empty()) ls.done = true;
    return;
  }
  if (ls.done) return;
  if (ls.expect_schema) {
    ls.expect_schema = false;
    std::string_view next = i + 1 < s.n.line_count() ? s.n.text(i + 1) : std::string_view{};
    bool next_child = next.starts_with("+- ") || next.starts_with(":- ");
    bool has_attr = t.find('#') != std::string_view::npos;
    if (!has_attr && !next_child) return;  // `a: int, b: string` schema line
  }
  TreeLine tl;
  if (!match_plain_tree_line(t, tl) || trim_spaces(tl.label).empty()) {
    s.error(i, 0, "expected a logical plan tree line");
    return;
  }
  Plan& p = s.plan();
  s.outline.pop(tl.column);
  std::size_t op = s.outline.add_op(p);
  Operator& o = p.ops[op];
  o.section = ls.section;
  o.loc = s.n.range(i, tl.column, t.size());
  std::string_view label = tl.label;
  if (tl.codegen) {
    // A logical label can start with '*' only as part of the text; put it back.
    label = std::string_view(t).substr(tl.column);
    if (tl.has_stats) label = label.substr(0, label.size() - tl.stats.size() - 13);
  }
  describe_logical_node(p.text_store(), o, label, o.loc);
  if (tl.has_stats) set_stats(s.n, i, o, tl.stats);
  s.outline.place_logical(p, op, tl.column);
}

// A ResolvedHint under a logical Join also marks the join side it applies to.
void link_logical_hints(Plan& p) {
  for (auto& o : p.ops) {
    if (!o.logical || o.name != "Join") continue;
    for (std::size_t k = 0; k < o.children.size() && k < 2; ++k) {
      const Operator& c = p.ops[o.children[k]];
      if (c.name != "ResolvedHint" && c.name != "UnresolvedHint") continue;
      for (const Hint& h : *c.hints()) {
        Hint h2 = h;
        h2.side = k == 0 ? BuildSide::Left : BuildSide::Right;
        o.edit_runtime().hints.edit().push_back(std::move(h2));
      }
    }
  }
}

}  // namespace planlint::explain
