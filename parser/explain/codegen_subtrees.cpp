#include "parser/explain/codegen_subtrees.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace planlint::explain {

namespace {

// Two printed operators are the same when their name, codegen stage and arguments are: the
// arguments carry Spark's expression ids (`k#9L`), so two different operators of one plan do not
// print the same.
bool same_op(const Operator& a, const Operator& b) {
  return a.name.view() == b.name.view() && a.codegen_stage == b.codegen_stage &&
         a.arguments.view() == b.arguments.view() && a.label.view() == b.label.view() &&
         a.children.size() == b.children.size();
}

// Whether the tree under `pa` in `p` is printed whole under `qa` in `q` (same operators, same
// shape). Iterative: plans can be thousands of operators deep.
bool same_tree(const Plan& p, std::size_t pa, const Plan& q, std::size_t qa) {
  std::vector<std::pair<std::size_t, std::size_t>> todo{{pa, qa}};
  std::size_t steps = 0;
  while (!todo.empty()) {
    auto [x, y] = todo.back();
    todo.pop_back();
    if (x >= p.ops.size() || y >= q.ops.size()) return false;
    const Operator& a = p.ops[x];
    const Operator& b = q.ops[y];
    if (!same_op(a, b)) return false;
    if (++steps > p.ops.size()) return false;  // a cycle in a damaged plan: not a copy
    for (std::size_t k = 0; k < a.children.size(); ++k) todo.emplace_back(a.children[k], b.children[k]);
  }
  return true;
}

std::size_t op_hash(const Operator& op) {
  const std::hash<std::string_view> h;
  std::size_t x = h(op.name.view());
  x = x * 31 + h(op.arguments.view());
  x = x * 31 + h(op.label.view());
  return x * 31 + static_cast<std::size_t>(op.codegen_stage ? *op.codegen_stage + 1 : 0);
}

bool numbered_name(std::string_view name) {
  if (!name.starts_with("plan ") || name.size() == 5) return false;
  return std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void fold_codegen_subtrees(ParseResult& r, const std::vector<std::size_t>& subtree_plans) {
  if (subtree_plans.size() < 2) return;
  // Every operator of every section, by its printed signature: each section's root is looked up
  // once (linear in the operators, however many sections there are).
  std::unordered_multimap<std::size_t, std::pair<std::size_t, std::size_t>> by_sig;
  for (std::size_t b : subtree_plans) {
    if (b >= r.plans.size()) continue;
    for (const Operator& op : r.plans[b].ops)
      if (op.codegen_stage) by_sig.emplace(op_hash(op), std::pair{b, op.index});
  }
  std::vector<bool> drop(r.plans.size(), false);
  std::size_t dropped = 0;
  for (std::size_t a : subtree_plans) {
    if (a >= r.plans.size()) continue;
    const Plan& p = r.plans[a];
    if (p.roots.size() != 1) continue;
    const Operator& root = p.ops[p.roots.front()];
    if (!root.codegen_stage) continue;
    auto [lo, hi] = by_sig.equal_range(op_hash(root));
    for (auto it = lo; it != hi; ++it) {
      const auto [b, at] = it->second;
      const Plan& q = r.plans[b];
      // A larger section that prints this one's tree whole under one of its operators.
      if (b == a || q.ops.size() <= p.ops.size()) continue;
      if (same_op(q.ops[at], root) && same_tree(p, root.index, q, at)) {
        drop[a] = true;
        ++dropped;
        break;
      }
    }
  }
  if (dropped == 0) return;
  const std::size_t n = subtree_plans.size(), kept_n = n - dropped;
  std::string note = "EXPLAIN CODEGEN prints each stage's whole tree: " + std::to_string(dropped) + " of the " +
                     std::to_string(n) + " '== Subtree ==' sections " + (dropped == 1 ? "is" : "are") +
                     " printed again inside another and " + (dropped == 1 ? "was" : "were") +
                     " read once, as part of it (" + std::to_string(kept_n) + (kept_n == 1 ? " plan)" : " plans)");
  SourceRange at = r.plans[subtree_plans.front()].loc;
  std::vector<Plan> kept;
  kept.reserve(r.plans.size() - dropped);
  for (std::size_t i = 0; i < r.plans.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(r.plans[i]));
  r.plans = std::move(kept);
  std::size_t k = r.handed_over_plans;  // plans handed over before the sections (ReadOptions::each_plan)
  for (Plan& p : r.plans) {
    ++k;
    if (numbered_name(p.name)) p.name = "plan " + std::to_string(k);
  }
  r.messages.push_back({MessageSeverity::Note, at, std::move(note)});
}

}  // namespace planlint::explain
