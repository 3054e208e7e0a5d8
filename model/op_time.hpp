// Exclusive ("self") time per operator, from what each engine really records, so that shares of
// time add up to 100 %, the times of one task's operators never add up to more than that task's
// time, and the top of the list is the operator that did the work (docs/profile.md, "Time").
//  - Timers that hold only the operator's own work: Photon (and Gluten/Velox) operator time, the
//    JVM's sort time and shuffle write time, a JVM operator's own duration.
//  - Timers that hold the operator's input too: the JVM's aggregation build (the aggregate pulls
//    its whole input pipeline while it builds) and a WholeStageCodegen stage's duration (the
//    pipeline from its start to its end, in the same task). From these, every timed operator
//    below them in the same task is subtracted, whatever its codegen stage or engine: the walk
//    goes down to the exchanges (and broadcasts and subqueries), which run in other tasks.
//  - What the largest stage duration of a task leaves unexplained by its operators goes to that
//    stage's top operator (projections, filters and joins pipelined with it).
//  - Wrappers (codegen stages, AQE wrappers, query stages) get none: their members have it.
// Part of the model: `planlint show`, the HTML report and rules that quote time use the same figures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

struct OpTime {
  std::optional<double> self_ms;  // exclusive time; empty: nothing recorded for this operator
  std::string basis;              // where it comes from: "operator time", "aggregation build", ...
  // Inclusive time: the exclusive time with that of the timed operators below it in its tasks
  // (down to the exchanges), as pev2 and explain.depesz.com show beside the exclusive one; set
  // with self_ms. Not additive: never summed into shares.
  std::optional<double> inclusive_ms;
};

struct PlanTimes {
  std::vector<OpTime> ops;        // one per Plan::ops
  double total_ms = 0;            // sum of self_ms: shares are self_ms / total_ms (never > 100 %)
  [[nodiscard]] std::optional<double> share(std::size_t op) const {
    if (total_ms <= 0 || !ops[op].self_ms) return std::nullopt;
    return *ops[op].self_ms / total_ms;
  }
};

PlanTimes operator_times(const Plan& plan);

// One row of the top-operators table: the operators with the most time, rows, spill or shuffle.
struct TopRow {
  std::size_t op = 0;
  double value = 0;
};
enum class TopBy { Time, Rows, Spill, Shuffle };
std::vector<TopRow> top_operators(const Plan& plan, const PlanTimes& times, TopBy by, std::size_t n);

}  // namespace planlint
