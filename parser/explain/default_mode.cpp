// The default mode's physical tree (`df.explain()`, and the physical part of the extended, cost
// and codegen modes): one operator per line, `*(n) ` marking a codegen stage, the arguments on the
// same line (turned into the fields the formatted mode prints: explain_ops.hpp), subqueries printed
// inline as inner children, ReusedExchange naming its target by label.
#include <string>

#include "parser/explain/explain_ops.hpp"
#include "parser/explain/explain_state.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

void default_line(ExplainState& s, std::size_t i) {
  std::string_view t = s.n.text(i);
  if (t.empty()) {
    s.mode = PhysMode::Details;  // after the tree: nothing else belongs to a default plan
    return;
  }
  AqeTitle title;
  std::uint32_t col = 0;
  if (match_aqe_header(t, title, col)) {
    open_aqe_section(s.outline, s.plan(), title, col);
    return;
  }
  TreeLine tl;
  if (!match_plain_tree_line(t, tl) || trim_spaces(tl.label).empty()) {
    s.error(i, 0, "expected a plan tree line");
    return;
  }
  Plan& p = s.plan();
  s.outline.pop(tl.column);
  Section sec = s.outline.section_for(tl.column);
  std::size_t op = s.outline.add_op(p);
  Operator& o = p.ops[op];
  o.section = sec;
  o.loc = s.n.range(i, tl.column, t.size());
  o.codegen = tl.codegen;
  o.codegen_stage = tl.codegen_stage;
  describe_default_node(p.text_store(), o, tl.label, LineLocator{&s.n, i, t}, s.r.messages);
  if (tl.has_stats) set_stats(s.n, i, o, tl.stats);
  if (o.kind == OpKind::AdaptivePlan && s.outline.empty() && s.outline.base == Section::Main) {
    p.adaptive = true;
    if (o.arguments.find("isFinalPlan=true") != std::string::npos) p.is_final_plan = true;
    else if (o.arguments.find("isFinalPlan=false") != std::string::npos) p.is_final_plan = false;
  }
  // Subqueries are printed inline as inner children (+6 columns): keep them out of children.
  bool inner = false;
  if ((o.kind == OpKind::Subquery || o.kind == OpKind::ReusedSubquery) && !s.outline.empty() &&
      tl.column >= s.outline.top_column() + 6)
    inner = true;
  if (o.kind == OpKind::ReusedExchange) {
    auto items = split_top_level(o.arguments);
    if (items.size() >= 2) {
      std::string_view target = o.arguments;
      target.remove_prefix(static_cast<std::size_t>(items[1].data() - o.arguments.data()));
      s.reuses.push_back({op, std::string(target), o.loc});
    }
  }
  s.outline.place(p, op, tl.column, inner);
}

}  // namespace planlint::explain
