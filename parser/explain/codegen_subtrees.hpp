// EXPLAIN CODEGEN prints one `== Subtree k / n ==` section per whole-stage-codegen stage, and each
// section prints its stage's whole tree down to the leaves: the lower stages are printed again
// inside every stage above them. The reader reads each section as a plan; this pass keeps one
// copy of each operator: a section whose tree is printed whole inside another section of the
// same input is dropped (it is part of that plan), so the file reads as the plans Spark ran,
// not as n overlapping plans.
#pragma once

#include <cstddef>
#include <vector>

#include "model/plan.hpp"

namespace planlint::explain {

// `subtree_plans`: the indexes in `r.plans` of the plans read from `== Subtree k / n ==`
// sections. Plans named "plan N" are renumbered in order afterwards; a note says which sections
// were read as parts of which.
void fold_codegen_subtrees(ParseResult& r, const std::vector<std::size_t>& subtree_plans);

}  // namespace planlint::explain
