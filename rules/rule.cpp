#include "rules/rule.hpp"

#include "model/plan_walk.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace planlint {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: break;
  }
  return "info";
}

std::string_view to_string(RuleFamily f) {
  switch (f) {
    case RuleFamily::Plan: return "plan";
    case RuleFamily::Runtime: return "runtime";
    case RuleFamily::Diff: return "diff";
    case RuleFamily::History: return "history";
    case RuleFamily::Builtin: break;
  }
  return "builtin";
}

std::optional<Severity> severity_from_string(std::string_view s) {
  if (s == "error") return Severity::Error;
  if (s == "warning" || s == "warn") return Severity::Warning;
  if (s == "info") return Severity::Info;
  return std::nullopt;
}

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::Bytes:
    case Unit::BytesExact: return "bytes";
    case Unit::Rows: return "rows";
    case Unit::Files: return "files";
    case Unit::Columns: return "columns";
    case Unit::Count: return "";
    case Unit::Ms: return "ms";
    case Unit::Ratio:
    case Unit::Decimal:
    case Unit::Share: return "ratio";
    case Unit::Percent: break;
  }
  return "percent";
}

namespace {

std::string shown(double v, Unit u, PercentDigits digits) {
  switch (u) {
    case Unit::Bytes: return format_bytes(v);
    case Unit::BytesExact: return format_bytes(v) + " (" + format_count(v) + " bytes)";
    case Unit::Rows:
    case Unit::Files:
    case Unit::Columns:
    case Unit::Count: return format_count(v);
    case Unit::Ms: return format_millis(v);
    case Unit::Ratio: return format_ratio(v);
    case Unit::Decimal: return format_decimal(v);
    case Unit::Share:
    case Unit::Percent: break;
  }
  return format_percent(v, digits);
}

}  // namespace

Evidence::Evidence(std::string name, double number, Unit unit, PercentDigits digits)
    : name(std::move(name)),
      value(shown(number, unit, digits)),
      number(unit == Unit::Percent ? number * 100.0 : number),
      unit(unit_name(unit)) {}

Evidence::Evidence(std::string name, double number, Unit unit, std::string shown)
    : name(std::move(name)),
      value(std::move(shown)),
      number(unit == Unit::Percent ? number * 100.0 : number),
      unit(unit_name(unit)) {}

Evidence::Evidence(std::string name, std::string text) : name(std::move(name)), value(std::move(text)) {}

PlanScope::PlanScope(const Plan& plan) : final_plan_exists(has_final_plan(plan)), plan_(plan) {
  active.reserve(plan.ops.size());  // most operators are active: one allocation
  for (const auto& op : plan.ops)
    if (is_active(op, final_plan_exists)) active.push_back(&op);
}

PlanScope::~PlanScope() = default;

const LogicalJoins& PlanScope::logical_joins() const {
  if (!logical_joins_) logical_joins_ = std::make_unique<LogicalJoins>(plan_);
  return *logical_joins_;
}

const PlanScope& RuleContext::scope() const {
  if (!scope_) {
    own_scope_ = std::make_unique<PlanScope>(plan_);
    scope_ = own_scope_.get();
  }
  return *scope_;
}

const std::vector<const Operator*>& PlanScope::active_of(OpKind kind) const {
  for (const auto& [k, ops] : by_kind_)
    if (k == kind) return ops;
  // Counted first: one block of the exact size (none for a kind the plan lacks) instead of the
  // vector's doublings.
  const auto n = static_cast<std::size_t>(
      std::count_if(active.begin(), active.end(), [kind](const Operator* op) { return op->kind == kind; }));
  std::vector<const Operator*> out;
  out.reserve(n);
  for (const Operator* op : active)
    if (op->kind == kind) out.push_back(op);
  return by_kind_.emplace_back(kind, std::move(out)).second;
}

double RuleContext::threshold(ThresholdKey key) const {
  const Threshold* declared = nullptr;
  for (const auto& t : doc_.thresholds)
    if (t.name == key.name) declared = &t;
  if (!declared)
    throw std::logic_error("rule " + doc_.name + " reads threshold '" + std::string(key.name) +
                           "', which its doc does not declare");
  if (overrides_ && !overrides_->empty()) {  // usually empty: no string built for the look-up
    auto it = overrides_->find(std::string(key.name));
    if (it != overrides_->end()) return it->second;
  }
  return declared->default_value;
}

Diagnostic RuleContext::make(const Operator& op, std::string message) const {
  return make_as(doc_.name, op, std::move(message));
}

Diagnostic RuleContext::make_as(std::string_view name, const Operator& op, std::string message) const {
  Diagnostic d;
  d.rule = std::string(name);
  d.code = doc_.code_of(name);
  d.severity = doc_.severity;
  d.message = std::move(message);
  d.plan_index = plan_index_;
  d.op = op.index;
  d.operator_id = op.id;
  d.operator_name = op.name;
  d.range = op.loc.known() ? op.loc : op.detail_loc;
  return d;
}

Diagnostic RuleContext::make_plan(std::string message, SourceRange range) const {
  Diagnostic d;
  d.rule = doc_.name;
  d.code = doc_.code;
  d.severity = doc_.severity;
  d.message = std::move(message);
  d.plan_index = plan_index_;
  d.range = range.known() ? range : plan_.loc;
  return d;
}

void order_by_impact(std::vector<Diagnostic>& diagnostics) {
  auto rank = [](const Diagnostic& d) {
    if (!d.impact) return 3;
    if (d.impact_unit == "ms") return 0;
    if (d.impact_unit == "bytes") return 1;
    return 2;
  };
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& a, const Diagnostic& b) {
    int ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb;
    if (ra == 3) return false;
    return *a.impact > *b.impact;
  });
}

const Rule* find_rule(std::string_view name_or_code) {
  for (const auto& r : all_rules()) {
    const RuleDoc& d = r->doc();
    if (d.name == name_or_code || d.code == name_or_code) return r.get();
    for (const auto& a : d.also_reports)
      if (a.name == name_or_code || a.code == name_or_code) return r.get();
    for (const auto& a : d.aliases)
      if (a == name_or_code) return r.get();
  }
  return nullptr;
}

void set_impact(Diagnostic& d, double amount, std::string_view unit, std::string_view what, std::string_view prefix) {
  d.impact = amount;
  d.impact_unit = std::string(unit);
  const std::string value = unit == "ms" ? format_millis(amount) : unit == "bytes" ? format_bytes(amount) : format_count(amount);
  d.impact_text = std::string(prefix) + value + std::string(what);
}

}  // namespace planlint
