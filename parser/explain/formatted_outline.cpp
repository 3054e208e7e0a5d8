// The formatted mode's outline: the numbered tree `+- Name (N)` above the detail blocks. A node
// printed again with the same id and label (AQE's initial plan repeats the final plan's ids) is the
// same operator.
#include <string>

#include "parser/explain/explain_ops.hpp"
#include "parser/explain/explain_state.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

void formatted_outline(ExplainState& s, std::size_t i) {
  std::string_view t = s.n.text(i);
  if (t.empty()) {
    s.mode = PhysMode::Details;
    s.block.blank = true;
    return;
  }
  AqeTitle title;
  std::uint32_t col = 0;
  if (match_aqe_header(t, title, col)) {
    open_aqe_section(s.outline, s.plan(), title, col);
    return;
  }
  TreeLine tl;
  LineError err;
  if (match_formatted_tree_line(t, tl, &err)) {
    formatted_node(s, i, tl);
    return;
  }
  BlockHeader bh;
  if (t[0] != ' ' && (match_block_header(t, bh) || t.starts_with("=====") || t.starts_with("Subquery:"))) {
    s.mode = PhysMode::Details;
    s.block.blank = true;
    details(s, i);
    return;
  }
  s.error(i, err.column, err.message);
}

void formatted_node(ExplainState& s, std::size_t i, const TreeLine& tl) {
  Plan& p = s.plan();
  s.outline.pop(tl.column);
  Section sec = s.outline.section_for(tl.column);
  std::string_view label = trim_spaces(tl.label);
  std::size_t op;
  bool merged = false;
  if (tl.id != "unknown") {
    auto known = s.ids.find(tl.id);
    if (known && !s.outline.is_open(*known) && p.ops[*known].label == label) {
      op = *known;
      merged = true;
    }
  }
  if (!merged) {
    op = s.outline.add_op(p);
    Operator& o = p.ops[op];
    if (tl.id != "unknown") {
      o.id = s.keep(tl.id);
      if (!s.ids.add(o.id, op)) {
        s.error(i, tl.label_column, "operator id " + o.id + " is used by two different operators",
                MessageSeverity::Warning);
      }
    }
    describe_operator(p.text_store(), o, label, {});
    o.section = sec;
    o.loc = s.n.range(i, tl.column, s.n.text(i).size());
    if (tl.has_stats) set_stats(s.n, i, o, tl.stats);
    if (o.kind == OpKind::AdaptivePlan) p.adaptive = true;
  }
  Operator& o = p.ops[op];
  if (tl.codegen) o.codegen = true;
  s.outline.place(p, op, tl.column);
}

}  // namespace planlint::explain
