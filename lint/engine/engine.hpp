// The lint engine: read one input with the reader the registry picks (parser/registry/reader.hpp),
// run every enabled rule over every plan, add parse errors and apply suppression directives, order
// the findings. lint_input() is the one entry point: `check`, `show`, `report`, the LSP and
// event-log streaming all go through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/source_file.hpp"
#include "lint/core/suppress.hpp"
#include "parser/registry/parse.hpp"
#include "rules/rule.hpp"

namespace planlint {

struct LintResult {
  ParseResult parse;
  std::vector<Diagnostic> diagnostics;   // in reading order (plan, line, column)
};

// What the caller needs of an input's bytes once it is linted (LintRequest::keep).
enum class KeepInput {
  Whole,    // its bytes (Linted::input): `check --against`, editors, `show`
  Lines,    // the lines its findings show (the text output): a large regular file (read in pieces,
            // or read whole and unchanged while read) keeps only its name and identity
            // (Linted::source), and the lines are fetched from it when shown
  Nothing,  // nothing (json, sarif, ...): Linted::input may stay null
};

// One input to lint.
struct LintRequest {
  std::string path;                      // a file, a rolling event-log directory, or "-" (standard input)
  std::string display;                   // how results name the input (default: `path`)
  std::optional<std::string_view> text;  // its bytes when the caller has them (an editor buffer); else `path` is read
  bool listed_regular = false;           // `path` was collected as a regular file: opened, then fstat'ed
  // Lines or Nothing: the caller needs at most the lines findings show once linted (Linted::input
  // may stay null): with LintOptions::lint_each_plan, a regular file of at least kPiecesMinBytes
  // whose reader reads files in pieces (Reader::parse_file: a Query Profile) is never held whole.
  // Of an input read whole into the engine's buffer, a reader may also give back the pages it has
  // read and copied what it keeps of (at least kGiveBackMinBytes at once: a large formatted plan's
  // outline; parser/common/input_pages.hpp): with Nothing, Linted::input then holds the input with
  // those bytes gone; with Lines (a regular file of kGiveBackMinBytes or more, unchanged while it
  // was read), Linted::input is null and Linted::source names the file.
  KeepInput keep = KeepInput::Whole;
};

// The smallest file read in pieces (LintRequest::keep): below it, reading it whole costs no
// more memory worth saving than the piece itself.
inline constexpr std::uint64_t kPiecesMinBytes = std::uint64_t{1} << 20;
// The smallest part of an input a reader gives back (KeepInput Lines or Nothing): below it, the copies
// of what the plans keep of it cost more than the pages save.
inline constexpr std::size_t kGiveBackMinBytes = std::size_t{1} << 20;

// `planlint check --why RULE`: run one rule over every plan with its explanations on. `notes`
// gets, per plan, the candidates the rule let go and why; the findings are returned.
struct WhyPlanNotes {
  std::size_t plan_index = 0;
  std::vector<RuleContext::WhyNote> notes;
};
std::vector<Diagnostic> run_rule_why(const ParseResult& parsed, const Config& config, const Rule& rule,
                                     std::vector<WhyPlanNotes>& notes);

struct LintOptions {
  // Add parse errors as findings (rule `parse-error`, unless ignored), apply the input's
  // `planlint: disable=` directives (reporting unused ones) and put the findings in reading order.
  bool finish = true;
  // False: a format that streams (event logs) is read plan by plan and only the findings are kept,
  // each naming its execution (Diagnostic::plan_label); memory stays flat.
  bool keep_plans = true;
  // With keep_plans false, an input read whole is linted plan by plan too: each plan as soon as the
  // reader has finished it (explain text; ReadOptions::each_plan) or, for a reader that keeps its
  // plans, once read; every plan is dropped once its findings are made (result.parse.plans stays
  // empty, ParseResult::handed_over_plans counts them), so memory is bounded by the largest plan,
  // not by the file. Only for front ends that need nothing of the plans but their findings.
  bool lint_each_plan = false;
  // The CLI's front ends: an input that is no plan at all (not_a_plan), or an event log without the
  // `--execution` asked for, is an error (`Linted::error`, exit 2) instead of an empty result.
  bool refuse_non_plans = false;
};

// The front ends' uses of lint_input, named by purpose instead of three booleans:
//   Check    `planlint check` on a file: finish, stream event logs and lint other inputs plan by
//            plan (findings only), refuse non-plans.
//   Editor   a buffer in hand (the LSP, check_text): finish, keep the plans, accept anything.
//   Show     `show`, `report`, the MCP server: finish, keep the plans, refuse non-plans.
//   Inspect  `check --why`: the plans as read, no finishing steps, refuse non-plans.
//   Test     tests and benchmarks (lint_text): the plans and the rules' findings only.
enum class LintMode { Check, Editor, Show, Inspect, Test };
LintOptions lint_options(LintMode mode);

struct Linted {
  std::string path;          // as shown to the user
  // The input as read (null when streamed, or given in the request). Shared and const: the plans
  // of `result` view its bytes instead of copying them.
  std::shared_ptr<const std::string> input;
  [[nodiscard]] std::string_view text() const { return shared_text(input); }
  // KeepInput::Lines, a large regular file not kept (read in pieces, or read whole and given back):
  // where its lines are fetched from when shown (null when the file changed while it was read).
  std::shared_ptr<SourceFile> source;
  LintResult result;         // result.parse.format: what the reader found
  std::size_t suppressed = 0;  // findings removed by directives
  std::string error;         // non-empty: the input could not be read (nothing else is set)
};

// Lint one input.
Linted lint_input(const LintRequest& request, const Config& config, const LintOptions& options = {});

// lint_input on a buffer, without `finish`: the parse and the rules' findings (tests, benchmarks).
LintResult lint_text(std::string_view text, const std::string& path, const Config& config);
// The same on a shared input: the plans view its bytes instead of copying them (as lint_input does
// for a file it reads).
LintResult lint_text(std::shared_ptr<const std::string> input, const std::string& path, const Config& config);

// The steps of LintOptions::finish, for a result already in hand: adds the `parse-error` findings,
// applies the directives in `text` and puts `lint.diagnostics` in reading order. Returns how many
// findings the directives removed.
std::size_t finish_diagnostics(LintResult& lint, std::string_view text, const Config& config);
// The same with the directives already found (find_suppressions: before a reader gave back bytes
// of the input, LintRequest::keep).
std::size_t finish_diagnostics(LintResult& lint, const std::vector<Suppression>& found, const Config& config);

// Why `text` is not a plan at all, or "" when it is (or may be) one: an empty input, binary data,
// JSON that is no Query Profile / event log (the reader's kNotAPlan message). Front ends report
// such an input as unreadable (exit 2) instead of listing findings; the message never echoes the
// input's bytes.
std::string not_a_plan(std::string_view text, const ParseResult& parse);

// Run the enabled rules over already-parsed plans (the step of lint_input after reading).
std::vector<Diagnostic> run_rules(const ParseResult& parsed, const Config& config);

// The rules a configuration enables, with their thresholds, worked out once and run over one plan
// at a time (run_rules, and `check`, which lints each plan as the reader finishes it).
class RuleRunner {
 public:
  explicit RuleRunner(const Config& config);  // `config` must outlive the runner
  // Appends the findings of `plan`, the `index`-th plan of its input, to `out` in reading order.
  void run(const Plan& plan, std::size_t index, std::vector<Diagnostic>& out) const;

 private:
  struct Enabled {
    const Rule* rule;
    std::map<std::string, double> overrides;
  };
  const Config& config_;
  // Shared by the runners of configurations that select, ignore and set thresholds alike (each
  // thread remembers the last one: a folder's files have equal configurations).
  std::shared_ptr<const std::vector<Enabled>> enabled_;
};

// How a finding names its plan when the reader's plans are SQL executions (InputTraits::executions):
// the execution id and its description on one line, cut at 80 bytes; an empty label otherwise. The
// engine sets it on every rule finding (Diagnostic::plan_label); lint/core/report.hpp renders it
// ("execution 3 (save at etl.py:41)").
PlanLabel plan_label(const Plan& plan, const InputTraits& traits);

}  // namespace planlint
