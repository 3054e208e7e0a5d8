// The column-stack tree builder (outline.hpp) and what every tree line shares: AQE section
// headers and `Statistics(...)` suffixes.
#include "parser/explain/outline.hpp"

#include <string>
#include <utility>

namespace planlint::explain {

void Outline::reset() {
  base = Section::Main;
  entry.reset();
  stack_.clear();
  sections_.clear();
  on_stack_.clear();
  placed_.clear();
}

void Outline::open_section(std::uint32_t label_col, Section s) {
  pop(label_col);
  while (!sections_.empty() && sections_.back().col >= label_col) sections_.pop_back();
  sections_.push_back({label_col, s});
}

void Outline::place(Plan& p, std::size_t op, std::uint32_t col, bool inner_subquery) {
  if (!stack_.empty()) {
    std::size_t parent = stack_.back().op;
    if (inner_subquery) {
      SubqueryEntry e;
      e.number = static_cast<int>(p.subqueries.size()) + 1;
      e.hosting_op = parent;
      e.hosting_expression = p.ops[op].label;
      e.root = op;
      e.loc = p.ops[op].loc;
      p.subqueries.push_back(std::move(e));
    } else if (parent != op && placed_.insert(edge_key(parent, op))) {
      p.ops[parent].children.push_back(op);
    }
  } else if (entry) {
    if (!p.subqueries[*entry].root) p.subqueries[*entry].root = op;
  } else if (base == Section::Main) {
    if (placed_.insert(edge_key(kRootParent, op))) p.roots.push_back(op);
  }
  stack_.push_back({col, op});
  on_stack_[op] = 1;
}

void Outline::place_logical(Plan& p, std::size_t op, std::uint32_t col) {
  if (stack_.empty()) p.logical_roots.push_back(op);
  else p.ops[stack_.back().op].children.push_back(op);
  stack_.push_back({col, op});
  on_stack_[op] = 1;
}

void open_aqe_section(Outline& outline, Plan& p, AqeTitle title, std::uint32_t col) {
  Section s = title == AqeTitle::Final     ? Section::AqeFinal
              : title == AqeTitle::Current ? Section::AqeCurrent
                                           : Section::AqeInitial;
  outline.open_section(col + 3, s);  // the nodes start after `+- `
  p.adaptive = true;
  if (title == AqeTitle::Final) p.is_final_plan = true;
  else if (title == AqeTitle::Current && !p.is_final_plan) p.is_final_plan = false;
}

void set_stats(const Normalized& n, std::size_t i, Operator& o, std::string_view body) {
  StatsValues sv;
  parse_stats_body(body, sv);
  Statistics& st = o.edit_runtime().stats.edit();
  st.size_bytes = sv.size_bytes;
  st.row_count = sv.row_count;
  st.masked = sv.masked;
  st.text = "Statistics(" + std::string(body) + ")";
  // The range covers `Statistics(`, the body and `)`.
  std::size_t b = static_cast<std::size_t>(body.data() - n.text(i).data()) - 11;
  st.loc = n.range(i, b, b + body.size() + 12);
}

}  // namespace planlint::explain
