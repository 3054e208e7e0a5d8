// The indented tree that `planlint parse` prints: each plan's operators as the DAG the user knows
// (`+- ` / `:- ` connectors), one line per operator with its id, kind and key facts. Shared
// operators (AQE sections, reuse) are printed once and referenced afterwards. Iterative, so deep
// plans cannot overflow the stack; indentation is capped so output stays linear in plan size.
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

// One row of the drawn tree: an operator with the guide drawn before it ("   :  +- "), or a section
// heading (`heading` set). `repeated`: the operator was drawn above, its children are not repeated.
struct TreeRow {
  std::size_t op = 0;
  std::size_t depth = 0;
  std::string guide;
  bool repeated = false;
  // A reference to a folded subtree: the operator and its inputs are drawn below, under the heading
  // "continued: <name> (<id>)" (`fold_depth` of plan_tree_rows).
  bool continued = false;
  std::string heading;
};
// Every tree of the plan (logical plans, physical roots, subqueries, detached parts) in the order
// `planlint parse` prints them. Iterative; indentation capped.
// `fold_depth` > 0 folds deep trees instead of indenting them further (`planlint show` keeps every
// operator's name within its width): an operator with inputs below that depth becomes a reference
// row (`continued`), and its subtree is drawn again from the left margin after the tree it hangs
// from, under a heading that names it; such subtrees fold the same way.
std::vector<TreeRow> plan_tree_rows(const Plan& plan, std::size_t fold_depth = 0);

std::string operator_summary(const Plan& plan, const Operator& op);  // "BroadcastHashJoin (8) [join Inner BuildRight]"
std::string plan_tree_text(const Plan& plan);
std::string parse_result_tree_text(const ParseResult& r);

}  // namespace planlint
