// Helpers shared by the troubleshooting-method rules (PL101-PL109) and lint/summary: metric
// look-ups that accept every spelling the readers produce, the query's phase breakdown, and a
// few walks over the operator DAG. Model only: nothing here reads raw input text.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/plan.hpp"
#include "rules/rule.hpp"

namespace planlint::method {

// Case-insensitive equality of two labels ("Files read" == "files read").
bool label_equals(std::string_view a, std::string_view b);

// First of `labels` present on the operator with a value (case-insensitive label match).
std::optional<double> op_metric(const Operator& op, std::initializer_list<std::string_view> labels);
// The same over the query-level metrics.
std::optional<double> query_metric(const Plan& plan, std::initializer_list<std::string_view> labels);

// An operator of the plan that actually runs: physical, not the AQE initial plan when a final or
// current plan is printed, not an optimized-out subquery.
bool is_effective(const Plan& plan, const Operator& op);

// "Scan parquet db.t (3)": name plus printed id, for messages.
std::string describe(const Operator& op);

// The operator to anchor a plan-level finding on: the first effective root, else the first
// effective operator; nullptr when the plan has none.
const Operator* plan_anchor(const Plan& plan);

// False for the tiny extra graph a Databricks profile carries for a write statement (one command
// node, e.g. AtomicReplaceTableAsSelect): the query-level metrics are reported with the main graph.
bool owns_query_metrics(const Plan& plan);

// A diagnostic not tied to an operator (a profile without graphs): location = SQL text or plan.
Diagnostic make_plan_diagnostic(const RuleContext& ctx, std::string message);

// Where the wall-clock time of one query went (Databricks Query Profile / query history).
struct Phase {
  std::string name;     // "waiting-for-compute", "queueing", "compilation", "execution", "result-fetch"
  std::string title;    // "waiting for compute", ...
  double ms = 0;
};
struct PhaseBreakdown {
  bool known = false;                  // the plan carries phase timings
  bool from_result_cache = false;
  std::optional<double> total_ms;      // totalTimeMs (else the sum of the phases)
  std::vector<Phase> phases;           // only the phases the source reported
  std::optional<std::size_t> dominant; // index into phases
  std::optional<double> task_ms;       // taskTotalTimeMs
  std::optional<double> parallelism;   // task time / execution time
  [[nodiscard]] double share(std::size_t i) const;  // phases[i].ms / total
};
PhaseBreakdown phase_breakdown(const Plan& plan);

// Kinds that pass their input rows through unchanged (a walk up from a scan may cross them).
bool is_pass_through(const Operator& op);

// Expression text of a field: its parsed expression texts, else its items, else its value.
std::vector<std::string> field_texts(const Field& f);

}  // namespace planlint::method
