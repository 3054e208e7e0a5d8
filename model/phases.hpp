// Plan-level questions in the model: the query's phase breakdown (where its wall-clock time
// went), query-level metric look-ups, the operator a plan-level finding is anchored on, and the
// texts of a field. Operator-level walkers (is_active, op_ref, first_metric, ...) are in
// model/plan_walk.hpp. Model only: nothing here reads raw input text.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

// First of `ids` present among the query-level metrics with a value.
std::optional<double> query_metric(const Plan& plan, std::initializer_list<Metric::Id> ids);

// The operator to anchor a plan-level finding on: the first effective root, else the first
// effective operator; nullptr when the plan has none.
const Operator* plan_anchor(const Plan& plan);

// False for the tiny extra graph a Databricks profile carries for a write statement (one command
// node, e.g. AtomicReplaceTableAsSelect): the query-level metrics are reported with the main graph.
bool owns_query_metrics(const Plan& plan);

// op_ref plus the table for scans whose printed name does not carry it (profile scans are
// named "DataSourceScan"): "DataSourceScan main.sales.orders (5)".
std::string scan_ref(const Operator& op);

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
std::vector<std::string_view> field_texts(const Field& f);
// fn(text) for each text of field_texts(f), in order, without building the list.
template <class Fn>
void for_each_field_text(const Field& f, Fn&& fn) {
  if (!f.exprs.empty()) {
    for (const ParsedExpr& e : f.exprs) fn(std::string_view(e.text));
  } else if (f.is_list && !f.item_spans.empty()) {
    for (std::string_view t : f.items()) fn(t);
  } else if (!f.value.empty()) {
    fn(std::string_view(f.value));
  }
}

}  // namespace planlint
