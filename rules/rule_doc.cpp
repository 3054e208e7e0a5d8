#include "rules/rule_doc.hpp"

#include <algorithm>
#include <cstdio>

namespace planlint {

namespace {

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += line.empty() ? "\n" : prefix + line + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

std::string number(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<long long>(v)))
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string format_threshold_default(const Threshold& t) {
  if (t.unit == "bytes") return number(t.default_value) + " bytes (" + format_bytes(t.default_value) + ")";
  if (t.unit == "ms") return number(t.default_value) + " ms (" + format_millis(t.default_value) + ")";
  if (t.unit == "rows") return number(t.default_value) + " rows";
  return number(t.default_value);
}

std::string render_rule_doc(const RuleDoc& d, DocFormat f) {
  const bool md = f == DocFormat::Markdown;
  std::string out;
  auto heading = [&](const std::string& title) {
    out += md ? "\n## " + title + "\n\n" : "\n" + title + "\n" + std::string(title.size(), '-') + "\n";
  };
  auto code = [&](const std::string& text) {
    if (md) out += "```text\n" + text + "\n```\n";
    else out += indent(text, "    ");
  };
  std::string title = d.name + " (" + d.code + ")";
  out += md ? "# " + title + "\n\n" : title + "\n" + std::string(title.size(), '=') + "\n\n";
  out += (md ? "**Severity:** " : "Severity: ") + std::string(to_string(d.severity)) + "\n\n";
  out += d.summary + ".\n";
  heading("What it does");
  out += d.what + "\n";
  heading("Why is this bad?");
  out += d.why + "\n";
  heading("Example");
  code(d.example);
  heading("Use instead");
  code(d.use_instead);
  heading("Evidence");
  out += d.evidence + "\n";
  heading("Options");
  if (d.thresholds.empty()) out += "None.\n";
  for (const auto& t : d.thresholds) {
    if (md) out += "- `" + t.name + "` (default " + format_threshold_default(t) + "): " + t.description + "\n";
    else out += "  " + t.name + " = " + format_threshold_default(t) + "\n" + indent(t.description, "      ");
  }
  if (!d.also_reports.empty()) {
    heading("Also reports");
    for (const auto& a : d.also_reports)
      out += md ? "- `" + a.name + "` (" + a.code + ")\n" : "  " + a.name + " (" + a.code + ")\n";
  }
  if (!d.aliases.empty()) {
    heading("Former names");
    out += md ? "Still accepted in `select`, `ignore`, severities, thresholds and suppressions:\n"
              : "  Still accepted in select, ignore, severities, thresholds and suppressions:\n";
    for (const auto& a : d.aliases) out += md ? "- `" + a + "`\n" : "  " + a + "\n";
  }
  return out;
}

std::string render_rule_list(DocFormat f) {
  std::string out;
  if (f == DocFormat::Markdown) {
    out += "# planlint rules\n\n| code | name | severity | summary |\n|---|---|---|---|\n";
    for (const auto& r : all_rules()) {
      const RuleDoc& d = r->doc();
      const std::string sev(to_string(d.severity));
      out += "| " + d.code + " | [`" + d.name + "`](" + d.name + ".md) | " + sev + " | " + d.summary + " |\n";
      for (const auto& a : d.also_reports)
        out += "| " + a.code + " | `" + a.name + "` (reported by [`" + d.name + "`](" + d.name + ".md)) | " + sev + " | " +
               a.summary + " |\n";
    }
    return out;
  }
  std::size_t w = 4;
  for (const auto& r : all_rules()) w = std::max(w, r->doc().name.size());
  for (const auto& r : all_rules()) {
    const RuleDoc& d = r->doc();
    std::string sev(to_string(d.severity));
    out += d.code + "  " + d.name + std::string(w - d.name.size() + 2, ' ') + sev + std::string(9 - sev.size(), ' ') +
           d.summary + "\n";
    for (const auto& a : d.also_reports)
      out += a.code + "  " + a.name + std::string(w - std::min(w, a.name.size()) + 2, ' ') + sev +
             std::string(9 - sev.size(), ' ') + "(reported by " + d.name + ")\n";
  }
  return out;
}

}  // namespace planlint
