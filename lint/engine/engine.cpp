#include "lint/engine/engine.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>

namespace planlint {

RuleRunner::RuleRunner(const Config& config) : config_(config) {
  // Which rules run and with which thresholds depends on these parts of the configuration only:
  // worked out once per thread for each run of inputs whose configurations agree on them.
  struct Last {
    std::set<std::string> select, ignore;
    std::map<std::string, std::map<std::string, double>> thresholds;
    std::map<std::string, double> global_thresholds;
    std::shared_ptr<const std::vector<Enabled>> enabled;
  };
  thread_local Last last;
  if (last.enabled && last.select == config.select && last.ignore == config.ignore &&
      last.thresholds == config.thresholds && last.global_thresholds == config.global_thresholds) {
    enabled_ = last.enabled;
    return;
  }
  auto enabled = std::make_shared<std::vector<Enabled>>();
  for (const auto& rule : all_rules()) {
    const RuleDoc& doc = rule->doc();
    bool any = config.enabled(doc, doc.name);
    for (const auto& extra : doc.also_reports) any = any || config.enabled(doc, extra.name);
    if (!any) continue;
    std::map<std::string, double> overrides = config.global_thresholds;
    if (auto it = config.thresholds.find(doc.name); it != config.thresholds.end())
      for (const auto& [k, v] : it->second) overrides[k] = v;
    enabled->push_back({rule.get(), std::move(overrides)});
  }
  enabled_ = enabled;
  last = Last{config.select, config.ignore, config.thresholds, config.global_thresholds, std::move(enabled)};
}

void RuleRunner::run(const Plan& plan, std::size_t index, std::vector<Diagnostic>& out) const {
  const std::size_t first = out.size();
  const PlanScope scope(plan);
  for (const Enabled& e : *enabled_) {
    const RuleDoc& doc = e.rule->doc();
    // The rule appends to `out` itself (no list of its own to move each finding out of); what it
    // added is then filtered in place: a name the configuration does not enable (a secondary
    // name, RuleDoc::also_reports) is dropped, a configured severity applied.
    const std::size_t from = out.size();
    RuleContext ctx(plan, index, doc, &e.overrides, out);
    ctx.share_scope(&scope);
    e.rule->check(ctx);
    std::size_t kept = from;
    for (std::size_t i = from; i < out.size(); ++i) {
      Diagnostic& d = out[i];
      if (!config_.enabled(doc, d.rule)) continue;
      if (auto s = config_.severity.find(d.rule); s != config_.severity.end()) d.severity = s->second;
      if (kept != i) out[kept] = std::move(d);
      ++kept;
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(kept), out.end());
  }
  const auto before = [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.line, a.range.column) < std::tie(b.range.line, b.range.column);
  };
  // Most plans have a finding or two, already in order: no sort (and no buffer for a stable one).
  const auto from = out.begin() + static_cast<std::ptrdiff_t>(first);
  if (!std::is_sorted(from, out.end(), before)) std::stable_sort(from, out.end(), before);
}

std::vector<Diagnostic> run_rules(const ParseResult& parsed, const Config& config) {
  // Plan by plan, each plan's findings in reading order: the order of (plan, line, column).
  std::vector<Diagnostic> out;
  const RuleRunner rules(config);
  for (std::size_t p = 0; p < parsed.plans.size(); ++p) rules.run(parsed.plans[p], p, out);
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
