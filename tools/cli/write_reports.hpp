// Writing the reports of check, diff, history and the History Server mode: the one output policy
// of the commands that report findings (their exit status: lint/engine/check_session.hpp
// exit_code).
#pragma once

#include <string>
#include <vector>

#include "lint/core/report.hpp"
#include "lint/output/output.hpp"

namespace planlint::cli {

struct ReportTarget {
  OutputFormat format = OutputFormat::Text;
  std::string output;             // -o FILE; empty: standard output
  std::string color = "auto";     // --color auto|always|never
  bool statistics = false;        // --statistics
  bool reader_messages = false;   // the readers' warnings and notes on stderr for the text formats
  bool quiet = false;             // -q: no summary line after the findings
  std::string sarif_help_uri;     // --sarif-help-uri
};

// --color (check, show, ...): NO_COLOR, FORCE_COLOR and TERM=dumb decide `auto`, then whether
// standard output is a terminal (https://no-color.org, https://force-color.org).
bool use_color(const std::string& mode, bool to_stdout);

// Writes the reports to standard output, or to -o (written atomically, never half a file). False
// after printing the error ("planlint: error: ...", made visible).
bool write_reports(const std::vector<FileReport>& reports, const ReportTarget& target);

// Prints each unreadable input's error ("planlint: error: ...", made visible); true if there was one.
bool print_report_errors(const std::vector<FileReport>& reports);

}  // namespace planlint::cli
