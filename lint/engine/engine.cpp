#include "lint/engine/engine.hpp"

#include <algorithm>
#include <tuple>

namespace planlint {

std::vector<Diagnostic> run_rules(const ParseResult& parsed, const Config& config) {
  std::vector<Diagnostic> out;
  // Which rules run and with which thresholds depends on the configuration only: once per call.
  struct Enabled {
    const Rule* rule;
    std::map<std::string, double> overrides;
  };
  std::vector<Enabled> enabled;
  for (const auto& rule : all_rules()) {
    const RuleDoc& doc = rule->doc();
    bool any = config.enabled(doc, doc.name);
    for (const auto& extra : doc.also_reports) any = any || config.enabled(doc, extra.name);
    if (!any) continue;
    std::map<std::string, double> overrides = config.global_thresholds;
    if (auto it = config.thresholds.find(doc.name); it != config.thresholds.end())
      for (const auto& [k, v] : it->second) overrides[k] = v;
    enabled.push_back({rule.get(), std::move(overrides)});
  }
  std::vector<Diagnostic> found;
  for (std::size_t p = 0; p < parsed.plans.size(); ++p) {
    const Plan& plan = parsed.plans[p];
    const PlanScope scope(plan);
    for (const Enabled& e : enabled) {
      const RuleDoc& doc = e.rule->doc();
      found.clear();
      RuleContext ctx(plan, p, doc, &e.overrides, found);
      ctx.share_scope(&scope);
      e.rule->check(ctx);
      for (auto& d : found) {
        if (!config.enabled(doc, d.rule)) continue;
        if (auto s = config.severity.find(d.rule); s != config.severity.end()) d.severity = s->second;
        out.push_back(std::move(d));
      }
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.plan_index, a.range.line, a.range.column) <
           std::tie(b.plan_index, b.range.line, b.range.column);
  });
  return out;
}

std::vector<Diagnostic> run_rule_why(const ParseResult& parsed, const Config& config, const Rule& rule,
                                     std::vector<WhyPlanNotes>& notes) {
  std::vector<Diagnostic> out;
  const RuleDoc& doc = rule.doc();
  std::map<std::string, double> overrides = config.global_thresholds;
  if (auto it = config.thresholds.find(doc.name); it != config.thresholds.end())
    for (const auto& [k, v] : it->second) overrides[k] = v;
  for (std::size_t p = 0; p < parsed.plans.size(); ++p) {
    WhyPlanNotes plan_notes;
    plan_notes.plan_index = p;
    RuleContext ctx(parsed.plans[p], p, doc, &overrides, out);
    ctx.set_why(&plan_notes.notes);
    rule.check(ctx);
    notes.push_back(std::move(plan_notes));
  }
  return out;
}

}  // namespace planlint
