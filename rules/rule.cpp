#include "rules/rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace planlint {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: break;
  }
  return "info";
}

std::optional<Severity> severity_from_string(std::string_view s) {
  if (s == "error") return Severity::Error;
  if (s == "warning" || s == "warn") return Severity::Warning;
  if (s == "info") return Severity::Info;
  return std::nullopt;
}

double RuleContext::threshold(std::string_view name) const {
  if (overrides_) {
    auto it = overrides_->find(std::string(name));
    if (it != overrides_->end()) return it->second;
  }
  for (const auto& t : doc_.thresholds)
    if (t.name == name) return t.default_value;
  return 0;
}

Diagnostic RuleContext::make(const Operator& op, std::string message) const {
  return make_as(doc_.name, op, std::move(message));
}

Diagnostic RuleContext::make_as(std::string_view name, const Operator& op, std::string message) const {
  Diagnostic d;
  d.rule = std::string(name);
  d.code = doc_.code;
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
      if (a == name_or_code) return r.get();
  }
  return nullptr;
}

namespace {
// NaN and infinities (a metric overflowed, or a hostile input): said in words, never "inf EiB".
std::string non_finite(double v) { return std::isnan(v) ? "not a number" : v < 0 ? "-infinity" : "infinity"; }
}  // namespace

std::string format_bytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (!std::isfinite(bytes)) return non_finite(bytes);
  int u = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", v);
  else if (std::fabs(v) >= 10000)  // beyond 10,000 EiB: a short exponent, not 300 digits
    std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string format_count(double n) {
  if (!std::isfinite(n)) return non_finite(n);
  char buf[64];
  if (std::fabs(n) >= 1e15) {  // 1,000 trillion and above: "1.8e+308", not 309 digits
    std::snprintf(buf, sizeof buf, "%.3g", n);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.0f", n);
  std::string s = buf;
  std::string out;
  std::size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
  std::size_t digits = s.size() - start;
  out = s.substr(0, start);
  for (std::size_t i = 0; i < digits; ++i) {
    if (i != 0 && (digits - i) % 3 == 0) out += ',';
    out += s[start + i];
  }
  return out;
}

void set_impact(Diagnostic& d, double amount, std::string_view unit, std::string_view what, std::string_view prefix) {
  d.impact = amount;
  d.impact_unit = std::string(unit);
  const std::string value = unit == "ms" ? format_millis(amount) : unit == "bytes" ? format_bytes(amount) : format_count(amount);
  d.impact_text = std::string(prefix) + value + std::string(what);
}

std::string format_percent(double share) {
  if (!std::isfinite(share)) return non_finite(share);
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(share) >= 1e6 ? "%.3g%%" : "%.0f%%", share * 100);
  return buf;
}

std::string format_decimal(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1e15 ? "%.3g" : "%.1f", v);
  return buf;
}

std::string format_millis(double ms) {
  if (!std::isfinite(ms)) return non_finite(ms);
  char buf[64];
  if (std::fabs(ms) >= 3.6e15)  // a million hours and more (or a negative giant): a short exponent
    std::snprintf(buf, sizeof buf, "%.3g h", ms / 3'600'000);
  else if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else if (ms < 60'000)
    std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  else if (ms < 3'600'000)
    std::snprintf(buf, sizeof buf, "%.0f min %.0f s", std::floor(ms / 60'000), std::fmod(ms / 1000, 60));
  else
    std::snprintf(buf, sizeof buf, "%.0f h %.0f min", std::floor(ms / 3'600'000), std::fmod(ms / 60'000, 60));
  return buf;
}

}  // namespace planlint
