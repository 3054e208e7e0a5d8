// Exclusive ("self") time per operator, from what each engine really records, so that shares of
// time add up to 100 % and point at the operator that did the work (docs/profile.md, "Time").
//  - Photon (and Gluten) operators: their own operator time (the profile's durationMs).
//  - JVM operators inside a WholeStageCodegen stage: Spark times the pipeline, not the operator.
//    An operator gets the timing metrics Spark records for it (aggregation build, sort, hash map
//    build, shuffle write), minus the timed operators of the same stage it pulls rows through
//    (their time is inside its own); the rest of the stage's duration goes to the stage's top
//    operator (projections, filters and joins pipelined with it). A stage whose members record no
//    time gives its whole duration to its top operator. A timed aggregate or sort the profile
//    leaves outside any stage but that reads a stage's top operator counts as that stage's member.
//  - Other JVM operators: their own duration when the source has one.
//  - Wrappers (codegen stages, AQE wrappers, query stages) get none: their members have it.
// Shared by `planlint show`, the HTML report and the top-operators table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parser/model/plan.hpp"

namespace planlint {

struct OpTime {
  std::optional<double> self_ms;  // exclusive time; empty: nothing recorded for this operator
  std::string basis;              // where it comes from: "operator time", "aggregation build", ...
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
