// `github`: GitHub Actions workflow commands, one annotation per finding:
// `::warning file=plans/q1.txt,line=12,col=5,title=planlint shuffle-join-could-broadcast (PL002)::message`.
// The readers' warnings and notes come first, titled `planlint reader warning` / `planlint reader note`.
#include <algorithm>
#include <ostream>

#include "lint/output/output.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint {

namespace {

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts (escapeData / escapeProperty)
// Control characters (escape sequences, which the Actions log renders) are shown visibly first
// (lint/core/sanitize.hpp); line breaks stay, as %0A.
std::string escape_data(std::string_view text) {
  std::string out;
  const std::string s = visible(text, true);
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::string_view command(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: break;
  }
  return "notice";
}

}  // namespace

void write_github(std::ostream& out, const std::vector<FileReport>& files) {
  for (const auto& f : files) {
    if (!f.error.empty()) {
      out << "::error file=" << escape_property(f.path) << ",title=planlint::" << escape_data(f.error) << "\n";
      continue;
    }
    // The readers' warnings and notes, as annotations of their own title (not findings).
    for (const auto& m : f.messages) {
      out << "::" << (m.severity == MessageSeverity::Warning ? "warning" : "notice") << " file=" << escape_property(f.path)
          << ",line=" << std::max<std::uint32_t>(1, m.loc.line) << ",col=" << std::max<std::uint32_t>(1, m.loc.column)
          << ",title=" << escape_property("planlint reader " + std::string(to_string(m.severity))) << "::"
          << escape_data(m.message) << "\n";
    }
    for (const auto& d : f.diagnostics) {
      std::string title = "planlint " + d.rule + (d.code.empty() ? "" : " (" + d.code + ")");
      std::string text = labelled_message(d);
      if (!d.fix.empty()) text += "\nfix: " + d.fix;
      out << "::" << command(d.severity) << " file=" << escape_property(f.path)
          << ",line=" << std::max<std::uint32_t>(1, d.range.line)
          << ",col=" << std::max<std::uint32_t>(1, d.range.column);
      if (d.range.end_line == d.range.line && d.range.end_column > d.range.column)
        out << ",endColumn=" << d.range.end_column;
      out << ",title=" << escape_property(title) << "::" << escape_data(text) << "\n";
    }
  }
}

}  // namespace planlint
