#include "lint/engine/summary.hpp"

#include <cstdio>

#include "model/phases.hpp"

namespace planlint {

std::vector<PlanSummary> summarize(const LintResult& result, std::size_t top_n) {
  std::vector<PlanSummary> out;
  for (std::size_t p = 0; p < result.parse.plans.size(); ++p) {
    const Plan& plan = result.parse.plans[p];
    PlanSummary s;
    s.plan_index = p;
    PhaseBreakdown b = phase_breakdown(plan);
    if (b.from_result_cache) {
      s.phase = "result-cache";
      s.total_ms = b.total_ms;
      s.verdict = "served from the result cache (no execution to judge)";
    } else if (b.known && b.dominant) {
      const Phase& ph = b.phases[*b.dominant];
      double total = b.total_ms.value_or(0);
      if (total <= 0)
        for (const auto& q : b.phases) total += q.ms;
      s.phase = ph.name;
      s.phase_ms = ph.ms;
      s.total_ms = total;
      s.parallelism = b.parallelism;
      s.verdict = ph.name + "-bound: " + ph.title + " " + format_millis(ph.ms) + " of " + format_millis(total) +
                  " (" + format_percent(b.share(*b.dominant)) + ")";
      if (ph.name == "execution" && b.parallelism)
        s.verdict += ", effective parallelism " + format_decimal(*b.parallelism);
    } else {
      s.verdict = "no phase timings in this input";
    }

    for (const Diagnostic& d : result.diagnostics)
      if (d.plan_index == p && d.rule != "slow-phase") s.top.push_back(d);
    order_by_impact(s.top);
    if (s.top.size() > top_n) s.top.resize(top_n);

    std::string name = plan.name.empty() ? "plan " + std::to_string(p + 1) : plan.name;
    s.line = name + ": " + s.verdict + "; ";
    if (s.top.empty()) {
      s.line += "no findings";
    } else {
      s.line += "top findings: ";
      for (std::size_t k = 0; k < s.top.size(); ++k) {
        const Diagnostic& d = s.top[k];
        if (k) s.line += "; ";
        s.line += std::to_string(k + 1) + ". " + d.rule;
        if (!d.operator_name.empty())
          s.line += " at " + d.operator_name + (d.operator_id.empty() ? "" : " (" + d.operator_id + ")");
        if (!d.impact_text.empty()) s.line += " (" + d.impact_text + ")";
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace planlint
