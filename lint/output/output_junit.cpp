// `junit`: JUnit XML for CI systems that show test reports (GitLab, Jenkins, Azure). One test suite
// per file, one failed test case per finding; a file without findings is one passing test case.
// The readers' warnings and notes go to the suite's <system-err>, one `path:line:col: warning: ...`
// line each.
#include <ostream>

#include "lint/output/output.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint {

namespace {

// XML 1.0 character rules (lint/core/sanitize.hpp): the file is well-formed whatever the input held.
std::string xml_escape(std::string_view s) { return xml_text(s); }

}  // namespace

void write_junit(std::ostream& out, const std::vector<FileReport>& files) {
  Totals t = count_totals(files);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::size_t tests = 0;
  for (const auto& f : files) tests += f.diagnostics.empty() ? 1 : f.diagnostics.size();
  out << "<testsuites name=\"planlint\" tests=\"" << tests << "\" failures=\"" << t.findings() << "\" errors=\""
      << t.unreadable << "\">\n";
  for (const auto& f : files) {
    std::string path = xml_escape(f.path);
    std::size_t n = f.diagnostics.empty() ? 1 : f.diagnostics.size();
    out << "  <testsuite name=\"" << path << "\" tests=\"" << n << "\" failures=\"" << f.diagnostics.size()
        << "\" errors=\"" << (f.error.empty() ? 0 : 1) << "\">\n";
    if (!f.error.empty()) {
      out << "    <testcase name=\"read\" classname=\"" << path << "\">\n"
          << "      <error message=\"" << xml_escape(f.error) << "\"/>\n"
          << "    </testcase>\n";
    } else if (f.diagnostics.empty()) {
      out << "    <testcase name=\"planlint\" classname=\"" << path << "\"/>\n";
    }
    for (const auto& d : f.diagnostics) {
      std::string where = "line " + std::to_string(d.range.line) + ", col " + std::to_string(d.range.column);
      out << "    <testcase name=\"" << xml_escape(d.rule) << " at " << where << "\" classname=\"" << path
          << "\" file=\"" << path << "\" line=\"" << d.range.line << "\">\n";
      const std::string message = labelled_message(d);
      std::string body = where + ", " + std::string(to_string(d.severity)) + ": " + message;
      if (!d.operator_name.empty()) body += "\noperator: " + d.operator_name + (d.operator_id.empty() ? "" : " (" + d.operator_id + ")");
      for (const auto& e : d.evidence) body += "\nevidence: " + e.name + ": " + evidence_value(e);
      if (!d.fix.empty()) body += "\nfix: " + d.fix;
      out << "      <failure message=\"" << xml_escape(message) << "\" type=\"" << xml_escape(d.rule) << "\">"
          << xml_escape(body) << "</failure>\n"
          << "    </testcase>\n";
    }
    // The readers' warnings and notes: not failures, but in the suite's standard error.
    if (!f.messages.empty()) {
      std::string err;
      for (const auto& m : f.messages)
        err += f.path + ":" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " +
               std::string(to_string(m.severity)) + ": " + m.message + "\n";
      out << "    <system-err>" << xml_escape(err) << "</system-err>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace planlint
