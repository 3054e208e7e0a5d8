#include "lint/core/report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "lint/core/sanitize.hpp"

namespace planlint {

Totals count_totals(const std::vector<FileReport>& files) {
  Totals t;
  for (const auto& f : files) {
    ++t.files;
    if (!f.error.empty()) ++t.unreadable;
    t.suppressed += f.suppressed;
    t.baselined += f.baselined;
    for (const auto& d : f.diagnostics) {
      switch (d.severity) {
        case Severity::Error: ++t.errors; break;
        case Severity::Warning: ++t.warnings; break;
        case Severity::Info: ++t.infos; break;
      }
    }
  }
  return t;
}

namespace {
std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}
}  // namespace

std::string summary_line(const Totals& t) {
  std::string s;
  std::string files = plural(t.files, "file", "files");
  if (t.findings() == 0 && t.files > 0 && t.unreadable == t.files) {
    return "Nothing was checked: " + plural(t.unreadable, "file", "files") + " could not be read.";
  } else if (t.findings() == 0) {
    s = "No findings in " + files + ".";
  } else {
    std::string parts;
    auto add = [&](std::size_t n, std::string_view one, std::string_view many) {
      if (n == 0) return;
      if (!parts.empty()) parts += ", ";
      parts += plural(n, one, many);
    };
    add(t.errors, "error", "errors");
    add(t.warnings, "warning", "warnings");
    add(t.infos, "info", "infos");
    s = "Found " + plural(t.findings(), "finding", "findings") + " (" + parts + ") in " + files + ".";
  }
  std::string extra;
  if (t.suppressed) extra += plural(t.suppressed, "suppressed", "suppressed");
  if (t.baselined) extra += (extra.empty() ? "" : ", ") + std::to_string(t.baselined) + " in the baseline";
  if (t.unreadable) extra += (extra.empty() ? "" : ", ") + plural(t.unreadable, "file unreadable", "files unreadable");
  if (!extra.empty()) s.insert(s.size() - 1, " (" + extra + ")");
  return s;
}

std::string evidence_value(const Evidence& e) {
  if (!e.value.empty()) return e.value;
  if (!e.number) return "";
  if (e.unit == "bytes") return format_bytes(*e.number);
  if (e.unit == "ms") return format_millis(*e.number);
  if (e.unit == "rows") return format_count(*e.number) + " rows";
  if (e.unit == "percent") return format_percent(*e.number / 100.0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", *e.number);
  std::string v = buf;
  if (!e.unit.empty() && e.unit != "ratio") v += " " + e.unit;
  return v;
}

namespace {
using ordered_json = nlohmann::ordered_json;

ordered_json evidence_json(const Evidence& e) {
  ordered_json j;
  j["name"] = e.name;
  j["value"] = evidence_value(e);
  if (e.number) j["number"] = *e.number;
  if (!e.unit.empty()) j["unit"] = e.unit;
  return j;
}
}  // namespace

std::string_view to_string(MessageSeverity s) {
  switch (s) {
    case MessageSeverity::Warning: return "warning";
    case MessageSeverity::Note: return "note";
    case MessageSeverity::Error: break;
  }
  return "error";
}

ordered_json message_to_json(const ParseMessage& m) {
  ordered_json j;
  j["severity"] = std::string(to_string(m.severity));
  j["message"] = m.message;
  j["line"] = m.loc.line;
  j["column"] = m.loc.column;
  return j;
}

std::string plan_label_text(const PlanLabel& label) {
  if (label.empty()) return "";
  std::string text = "execution " + std::to_string(*label.execution);
  if (!label.description.empty()) text += " (" + label.description + ")";
  return text;
}

std::string rule_label(const Diagnostic& d) {
  return d.code.empty() ? visible(d.rule) : visible(d.code) + " " + visible(d.rule);
}

std::string labelled_message(const Diagnostic& d) {
  if (d.plan_label.empty()) return d.message;
  return plan_label_text(d.plan_label) + ": " + d.message;
}

ordered_json plan_label_json(const PlanLabel& label) {
  ordered_json j;
  if (label.execution) j["id"] = *label.execution;
  j["description"] = label.description;
  return j;
}

ordered_json diagnostic_to_json(const Diagnostic& d) {
  ordered_json jd;
  jd["rule"] = d.rule;
  jd["code"] = d.code;
  jd["severity"] = std::string(to_string(d.severity));
  jd["message"] = d.message;
  if (!d.plan_label.empty()) jd["execution"] = plan_label_json(d.plan_label);
  jd["line"] = d.range.line;
  jd["column"] = d.range.column;
  jd["operator_id"] = d.operator_id;
  jd["operator"] = d.operator_name;
  jd["evidence"] = ordered_json::array();
  for (const auto& e : d.evidence) jd["evidence"].push_back(evidence_json(e));
  jd["fix"] = d.fix;
  return jd;
}

}  // namespace planlint
