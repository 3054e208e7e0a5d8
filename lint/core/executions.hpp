// Inputs that hold several SQL executions (event logs, History Server answers): which of them are
// worth a look. `show`, `report` and `parse` list the executions by time, fold the trivial ones
// (driver-only commands, executions without metrics, or under 1% of the longest one; never one
// whose jobs failed) into one line,
// and show only the others' plans; `--execution ID` picks one instead (the readers' own filter).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "rules/rule.hpp"

namespace planlint {

struct ExecutionRow {
  std::size_t plan = 0;                  // index into ParseResult::plans
  std::string id;                        // QueryInfo::statement_id
  std::string description;
  std::optional<double> duration_ms;     // the execution's wall-clock time (totalTimeMs)
  std::optional<double> task_ms;         // all its tasks' time (taskTotalTimeMs)
  std::size_t findings = 0;
  std::vector<std::string> failed_jobs;  // ids of its jobs that failed (JobInfo): its task time is partial
  // Empty: a main execution. Else why it is folded: "driver-only command", "no metrics",
  // "under 1% of the longest".
  std::string trivial;
};

struct ExecutionList {
  // By duration, longest first (then task time, then reading order); empty when the input is not
  // one of SQL executions or holds fewer than two.
  std::vector<ExecutionRow> rows;
  // The plans to show, in reading order: the main executions; every plan when none is main or the
  // input is no list of executions.
  std::vector<std::size_t> shown;
  [[nodiscard]] bool folds() const { return !rows.empty(); }
  [[nodiscard]] std::size_t folded() const;
};

// An execution is trivial (folded) when it has no finding and its plan is only commands and local
// data (the driver ran it), or no operator and no stage carries a metric, or it took under 1% of
// the longest execution's duration.
ExecutionList list_executions(const ParseResult& parse, const std::vector<Diagnostic>& diagnostics);

// The listing for a terminal: a heading, one line per main execution (id, duration, task time,
// description; an execution with failed jobs says so before its description: "failed (job 32): "),
// then one line naming how many were folded and their ids. Lines fit in `width`.
std::string executions_text(const ExecutionList& list, std::size_t width);

// "failed (job 32): " / "failed (jobs 33-36): " before a description; "" when no job failed.
std::string failed_text(const std::vector<std::string>& failed_jobs);

// Keeps only the plans of `list.shown` in `parse` (and the findings on them, their plan_index
// renumbered). Does nothing when the list folds nothing away.
void keep_shown_executions(const ExecutionList& list, ParseResult& parse, std::vector<Diagnostic>& diagnostics);

}  // namespace planlint
