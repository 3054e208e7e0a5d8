#include "lint/output/output.hpp"

#include <cstdio>
#include <ostream>

namespace planlint {

std::optional<OutputFormat> output_format_from_string(std::string_view s) {
  if (s == "text" || s == "full") return OutputFormat::Text;
  if (s == "concise") return OutputFormat::Concise;
  if (s == "json") return OutputFormat::Json;
  if (s == "sarif") return OutputFormat::Sarif;
  if (s == "github") return OutputFormat::Github;
  if (s == "junit") return OutputFormat::Junit;
  return std::nullopt;
}

std::string_view to_string(OutputFormat f) {
  switch (f) {
    case OutputFormat::Concise: return "concise";
    case OutputFormat::Json: return "json";
    case OutputFormat::Sarif: return "sarif";
    case OutputFormat::Github: return "github";
    case OutputFormat::Junit: return "junit";
    case OutputFormat::Text: break;
  }
  return "text";
}

void write_report(std::ostream& out, OutputFormat format, const std::vector<FileReport>& files,
                  const OutputOptions& opt) {
  switch (format) {
    case OutputFormat::Text: write_text(out, files, opt); break;
    case OutputFormat::Concise: write_concise(out, files, opt); break;
    case OutputFormat::Json: opt.statistics ? write_json_statistics(out, files) : write_json(out, files); break;
    case OutputFormat::Sarif: write_sarif(out, files); break;
    case OutputFormat::Github: write_github(out, files); break;
    case OutputFormat::Junit: write_junit(out, files); break;
  }
}

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

}  // namespace planlint
