#include "rules/plan_util.hpp"

#include <cctype>
#include <cstdio>

namespace planlint::rules {

// ---- join sides ----------------------------------------------------------------------------

std::set<std::string> side_names(const Plan& plan, const Operator& join, std::size_t child_pos) {
  std::set<std::string> out;
  const auto& keys = child_pos == 0 ? join.join->left_keys : join.join->right_keys;
  for (const auto& k : keys) {
    if (!k.root) continue;
    for (const Expr* a : attributes_in(*k.root)) {
      std::string_view n = a->name;
      if (auto d = n.rfind('.'); d != std::string_view::npos) out.insert(lower(n.substr(0, d)));
    }
  }
  if (child_pos < join.children.size()) {
    if (const Operator* scan = single_scan_under(plan, join.children[child_pos])) {
      std::string t(scan->table);
      if (t.empty())
        if (const Field* f = scan->field(FieldRole::TableIdentifier)) t = f->value;
      if (!t.empty()) {
        out.insert(lower(t));
        if (auto d = t.rfind('.'); d != std::string::npos) out.insert(lower(t.substr(d + 1)));
      }
    }
  }
  return out;
}

// ---- evidence helpers ------------------------------------------------------------------------

std::string format_ratio(double r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f×" : "%.1f×", r);
  return buf;
}

Evidence ev_bytes(std::string name, double bytes) {
  return Evidence{std::move(name), format_bytes(bytes) + " (" + format_count(bytes) + " bytes)", bytes, "bytes"};
}
Evidence ev_rows(std::string name, double rows) { return Evidence{std::move(name), format_count(rows), rows, "rows"}; }
Evidence ev_ms(std::string name, double ms) { return Evidence{std::move(name), format_millis(ms), ms, "ms"}; }
Evidence ev_ratio(std::string name, double r) { return Evidence{std::move(name), format_ratio(r), r, "ratio"}; }
Evidence ev_percent(std::string name, double share) {
  return Evidence{std::move(name), format_percent(share), share * 100.0, "percent"};
}
Evidence ev_text(std::string name, std::string text) { return Evidence{std::move(name), std::move(text), std::nullopt, ""}; }

}  // namespace planlint::rules
