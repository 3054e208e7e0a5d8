// The output formats of `planlint check`: small separate emitters (lint/output/output_<format>.cpp)
// over one list of results, as ruff does. None of them decides anything about the findings.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "lint/core/report.hpp"
#include "rules/rule.hpp"

namespace planlint {

enum class OutputFormat { Text, Concise, Json, Sarif, Github, Junit };
std::optional<OutputFormat> output_format_from_string(std::string_view s);
std::string_view to_string(OutputFormat f);

struct OutputOptions {
  bool color = false;         // ANSI colours (text, concise): only on a terminal
  bool statistics = false;    // text/concise/json: a count per rule instead of the findings
  bool quiet = false;         // text/concise: no summary line ("Found 3 findings ...", "No findings")
  std::string sarif_help_uri; // sarif: the helpUri template (write_sarif)
};

void write_text(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt);
void write_concise(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt);
void write_json(std::ostream& out, const std::vector<FileReport>& files);
// The same bytes written a file at a time, as the reports are made (`check` streams them, each
// report released once written): file() for each report in order, then end().
class JsonReportStream {
 public:
  explicit JsonReportStream(std::ostream& out);
  ~JsonReportStream();
  JsonReportStream(const JsonReportStream&) = delete;
  JsonReportStream& operator=(const JsonReportStream&) = delete;
  void file(const FileReport& report);
  void end();  // the closing brackets and the last newline

 private:
  struct State;
  std::unique_ptr<State> s_;
};
void write_json_statistics(std::ostream& out, const std::vector<FileReport>& files);
// `help_uri_template` (--sarif-help-uri): each rule's helpUri, `{name}` / `{code}` replaced (a base
// without either gets `<name>.md`); empty: no helpUri.
void write_sarif(std::ostream& out, const std::vector<FileReport>& files, std::string_view help_uri_template = {});
// Whether a --sarif-help-uri template is an absolute URI, as SARIF requires of helpUri.
bool valid_help_uri_template(std::string_view tmpl);
void write_github(std::ostream& out, const std::vector<FileReport>& files);
void write_junit(std::ostream& out, const std::vector<FileReport>& files);
void write_report(std::ostream& out, OutputFormat format, const std::vector<FileReport>& files,
                  const OutputOptions& opt);

// "path:line:col: warning: message\n" per reader message of each file, as `planlint parse` prints
// them (control characters shown visibly): what `check` writes to standard error for the text
// formats.
void write_messages_text(std::ostream& out, const std::vector<FileReport>& files);

}  // namespace planlint
