// The children a plan's printed tree shows under one operator, in the order Spark's SparkPlanInfo
// (event logs, History Server answers) lists them: the final plan only under an
// AdaptiveSparkPlan, and the subqueries it hosts after its ordinary children. Readers that match
// a metrics tree to the operators parsed from the plan text walk both trees with it.
#pragma once

#include <cstddef>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

inline std::vector<std::size_t> shown_children(const Plan& plan, std::size_t oi) {
  const Operator& op = plan.ops[oi];
  std::vector<std::size_t> kids;
  if (op.kind == OpKind::AdaptivePlan) {
    for (std::size_t c : op.children)
      if (plan.ops[c].section != Section::AqeInitial) {
        kids.push_back(c);
        break;
      }
  } else {
    kids = op.children;
  }
  for (const auto& sq : plan.subqueries)
    if (sq.hosting_op && *sq.hosting_op == oi && sq.root) kids.push_back(*sq.root);
  return kids;
}

}  // namespace planlint
