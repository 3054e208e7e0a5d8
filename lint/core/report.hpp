// What a check learned about each input (FileReport), the totals over a run, the JSON shape of one
// finding and how a finding's plan label reads: the product of the engine that every front end
// (output formats, LSP, MCP, diff, history) reads. Decides nothing.
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "rules/rule.hpp"

namespace planlint {

class SourceFile;  // lint/core/source_file.hpp

// What `planlint check` learned about one input.
struct FileReport {
  std::string path;                     // as shown to the user ("-" for stdin)
  InputFormat format = InputFormat::Unknown;
  InputTraits traits;                   // what the reader says about the input (its display name, ...)
  std::shared_ptr<const std::string> input;  // the input, for the plan line under a finding (may be null)
  [[nodiscard]] std::string_view text() const { return shared_text(input); }
  // Without `input`: the file to fetch those lines from when they are shown (a large file the text
  // output did not keep: read in pieces, or read whole and given back; may be null).
  std::shared_ptr<SourceFile> source;
  std::vector<Diagnostic> diagnostics;  // rule findings and `parse-error`s, in reading order
  // The readers' warnings and notes ("more than 1000 SQL executions ...", "metrics of N of M graph
  // nodes could not be matched"): not findings (they do not fail a run), but shown with them.
  // The readers' errors are `parse-error` findings instead.
  std::vector<ParseMessage> messages;
  std::string error;                    // non-empty: the input could not be read (exit 2)
  std::size_t suppressed = 0;           // findings removed by directives or config
  std::size_t baselined = 0;            // findings removed because the baseline has them
};

// Shared by the emitters, the NDJSON runner, the LSP and MCP servers.
struct Totals {
  std::size_t files = 0, errors = 0, warnings = 0, infos = 0, suppressed = 0, baselined = 0, unreadable = 0;
  [[nodiscard]] std::size_t findings() const { return errors + warnings + infos; }
};
Totals count_totals(const std::vector<FileReport>& files);
// "Found 3 findings (1 error, 2 warnings) in 2 files." / "No findings in 2 files."
std::string summary_line(const Totals& t);
// "execution 3 (save at etl.py:41)", "execution 3" without a description; "" for no label.
std::string plan_label_text(const PlanLabel& label);
// The message as the text outputs show it (text, concise, SARIF, GitHub, JUnit, LSP, MCP text) and
// as fingerprints and baselines read it: "execution 3 (save at etl.py:41): <message>" when the
// finding has a plan label, else the message.
std::string labelled_message(const Diagnostic& d);
// "PL002 shuffle-join-could-broadcast": the code next to the name, as ruff prints codes (a finding
// without a code, the name alone); printable (sanitize.hpp's `visible`). Text output and `show`.
std::string rule_label(const Diagnostic& d);
// The label as JSON: {"id": 3, "description": "save at etl.py:41"}.
nlohmann::ordered_json plan_label_json(const PlanLabel& label);
// One finding as the `json` format writes it: rule, code, severity, message (without the plan
// label), execution? ({id, description}, when the plan is an SQL execution), line, column,
// operator_id, operator, evidence [{name, value, number?, unit?}], fix.
nlohmann::ordered_json diagnostic_to_json(const Diagnostic& d);
// One reader warning or note as the `json` format writes it: severity ("warning" or "note"),
// message, line, column.
nlohmann::ordered_json message_to_json(const ParseMessage& m);
std::string_view to_string(MessageSeverity s);
// The value of one evidence item as printed: its text, else the number with its unit.
std::string evidence_value(const Evidence& e);

}  // namespace planlint
