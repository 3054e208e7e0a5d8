// What every reader must guarantee about the plans it builds, whatever the input: indices that
// rules follow stay inside the plan, positions stay inside the input. Used by the fuzz targets
// (a violation aborts, so libFuzzer reports it with the input) and by the regression test.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint::fuzz {

// Empty when the result is sound, else what is wrong.
inline std::string plan_invariant_violation(const ParseResult& r, std::string_view input) {
  const std::size_t lines = static_cast<std::size_t>(std::count(input.begin(), input.end(), '\n')) + 1;
  auto bad_loc = [&](const SourceRange& loc) { return loc.line > lines || loc.end_line > lines; };
  for (std::size_t p = 0; p < r.plans.size(); ++p) {
    const Plan& plan = r.plans[p];
    const std::size_t n = plan.ops.size();
    const std::string where = "plan " + std::to_string(p) + ": ";
    for (std::size_t root : plan.roots)
      if (root >= n) return where + "root index out of range";
    for (std::size_t root : plan.logical_roots)
      if (root >= n) return where + "logical root index out of range";
    for (std::size_t i = 0; i < n; ++i) {
      const Operator& op = plan.ops[i];
      const std::string at = where + "operator " + std::to_string(i) + ": ";
      if (op.index != i) return at + "index field differs from its position";
      for (std::size_t c : op.children)
        if (c >= n) return at + "child index out of range";
      for (std::size_t c : op.parents)
        if (c >= n) return at + "parent index out of range";
      if (op.reuses && *op.reuses >= n) return at + "reuses index out of range";
      if (op.extra()->stage_parent && *op.extra()->stage_parent >= n) return at + "stage parent index out of range";
      if (bad_loc(op.loc) || bad_loc(op.detail_loc)) return at + "position after the end of the input";
    }
    for (const auto& s : plan.subqueries) {
      if (s.hosting_op && *s.hosting_op >= n) return where + "subquery hosting operator out of range";
      if (s.root && *s.root >= n) return where + "subquery root out of range";
    }
    for (const auto& st : plan.stages)
      for (std::size_t o : st.operators)
        if (o >= n) return where + "stage operator index out of range";
  }
  for (const auto& m : r.messages)
    if (bad_loc(m.loc)) return "message position after the end of the input: " + m.message;
  return {};
}

}  // namespace planlint::fuzz
