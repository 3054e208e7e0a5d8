// Writing the reports of check, diff, history and the History Server mode: the one output policy
// of the commands that report findings (their exit status: lint/engine/check_session.hpp
// exit_code).
#pragma once

#include <memory>
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

// `check --format json` written as the reports are made (JsonReportStream, the bytes write_reports
// writes), so that each report is released once written: open() the target (-o FILE as
// write_reports opens it, or standard output), report() each report in input order, then
// finish(). open() false: -o cannot be opened; nothing is printed (write_reports, called instead
// once the run is over, says why, as before). finish() false with `error` set ("planlint: error:
// ..." to print) when the report could not be written.
class StreamedJsonReport {
 public:
  StreamedJsonReport();
  ~StreamedJsonReport();
  StreamedJsonReport(const StreamedJsonReport&) = delete;
  StreamedJsonReport& operator=(const StreamedJsonReport&) = delete;
  bool open(const ReportTarget& target);
  void report(const FileReport& report);
  bool finish(std::string& error);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Prints each unreadable input's error ("planlint: error: ...", made visible); true if there was one.
bool print_report_errors(const std::vector<FileReport>& reports);

}  // namespace planlint::cli
