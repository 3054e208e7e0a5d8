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
#include "rules/rule.hpp"

namespace planlint {

// What `planlint check` learned about one input.
struct FileReport {
  std::string path;                     // as shown to the user ("-" for stdin)
  InputFormat format = InputFormat::Unknown;
  std::shared_ptr<const std::string> input;  // the input, for the plan line under a finding (may be null)
  [[nodiscard]] std::string_view text() const { return shared_text(input); }
  std::vector<Diagnostic> diagnostics;  // rule findings and `parse-error`s, in reading order
  // The readers' warnings and notes ("more than 1000 SQL executions ...", "metrics of N of M graph
  // nodes could not be matched"): not findings (they do not fail a run), but shown with them.
  // The readers' errors are `parse-error` findings instead.
  std::vector<ParseMessage> messages;
  std::string error;                    // non-empty: the input could not be read (exit 2)
  std::size_t suppressed = 0;           // findings removed by directives or config
  std::size_t baselined = 0;            // findings removed because the baseline has them
};

enum class OutputFormat { Text, Concise, Json, Sarif, Github, Junit };
std::optional<OutputFormat> output_format_from_string(std::string_view s);
std::string_view to_string(OutputFormat f);

struct OutputOptions {
  bool color = false;         // ANSI colours (text, concise): only on a terminal
  bool statistics = false;    // text/concise/json: a count per rule instead of the findings
};

void write_text(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt);
void write_concise(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt);
void write_json(std::ostream& out, const std::vector<FileReport>& files);
void write_json_statistics(std::ostream& out, const std::vector<FileReport>& files);
void write_sarif(std::ostream& out, const std::vector<FileReport>& files);
void write_github(std::ostream& out, const std::vector<FileReport>& files);
void write_junit(std::ostream& out, const std::vector<FileReport>& files);
void write_report(std::ostream& out, OutputFormat format, const std::vector<FileReport>& files,
                  const OutputOptions& opt);

// Shared by the emitters.
struct Totals {
  std::size_t files = 0, errors = 0, warnings = 0, infos = 0, suppressed = 0, baselined = 0, unreadable = 0;
  [[nodiscard]] std::size_t findings() const { return errors + warnings + infos; }
};
Totals count_totals(const std::vector<FileReport>& files);
// "Found 3 findings (1 error, 2 warnings) in 2 files." / "No findings in 2 files."
std::string summary_line(const Totals& t);
// One finding as the `json` format writes it: rule, code, severity, message, line, column,
// operator_id, operator, evidence [{name, value, number?, unit?}], fix.
nlohmann::ordered_json diagnostic_to_json(const Diagnostic& d);
// One reader warning or note as the `json` format writes it: severity ("warning" or "note"),
// message, line, column.
nlohmann::ordered_json message_to_json(const ParseMessage& m);
// "path:line:col: warning: message\n" per reader message of each file, as `planlint parse` prints
// them (control characters shown visibly): what `check` writes to standard error for the text
// formats.
void write_messages_text(std::ostream& out, const std::vector<FileReport>& files);
std::string_view to_string(MessageSeverity s);
// The value of one evidence item as printed: its text, else the number with its unit.
std::string evidence_value(const Evidence& e);

}  // namespace planlint
