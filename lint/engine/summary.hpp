// The per-plan summary of the troubleshooting method: which phase owns the query's wall-clock
// time (the verdict), and the findings that cost the most. Used by `planlint check` and reports.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"

namespace planlint {

struct PlanSummary {
  std::size_t plan_index = 0;
  // Dominant phase: "waiting-for-compute", "queueing", "compilation", "execution", "result-fetch",
  // "result-cache" (served from the result cache), or "unknown" (no timings, e.g. explain text).
  std::string phase = "unknown";
  std::string verdict;                  // "execution-bound: execution 21.5 s of 22.1 s (97%), ..."
  std::optional<double> phase_ms;       // time of the dominant phase
  std::optional<double> total_ms;       // the query's wall-clock time
  std::optional<double> parallelism;    // task time / execution time
  std::vector<Diagnostic> top;          // the costliest findings of this plan, costliest first
  std::string line;                     // one line: "<plan>: <verdict>; top: 1. ..., 2. ..."
};

// One summary per plan of `result.parse.plans`, in plan order. `top_n` findings by estimated cost,
// in order_by_impact's order (rules/rule.hpp: time, then bytes, then other units, larger first,
// then findings without an estimate in reading order); slow-phase is the verdict itself and never
// listed among them.
std::vector<PlanSummary> summarize(const LintResult& result, std::size_t top_n = 3);

}  // namespace planlint
