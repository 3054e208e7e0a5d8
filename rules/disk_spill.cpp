// PL104 disk-spill: an operator (or, when no operator says, the query) spilled to disk because
// its working set did not fit in memory.
#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

// Spill-byte labels of every source: Photon aggregates/sorts, Photon shuffle sinks, Photon joins
// (one per side), JVM operators in profiles ("Spill size") and Spark's SQL metrics in event logs
// ("spill size"). Each label counts once.
constexpr Metric::Id kSpillMetrics[] = {
    Metric::SpillBytes, Metric::SinkSpillBytes, Metric::SpillBytesLeft, Metric::SpillBytesRight, Metric::SpillSize,
};

double spill_bytes(const Operator& op) {
  double sum = 0;
  if (op.metrics().empty()) return sum;  // explain text: no operator has metrics (five look-ups saved)
  for (Metric::Id id : kSpillMetrics)
    if (auto v = op.metric_value(id); v && *v > 0) sum += *v;
  return sum;
}

std::string fix_for(const Operator& op) {
  switch (op.kind) {
    case OpKind::Aggregate:
      return "Give each task less to hold: more shuffle partitions before the aggregation "
             "(spark.sql.shuffle.partitions, or a smaller AQE advisory partition size), fewer and "
             "narrower columns in the grouping keys and aggregated values, or a larger warehouse / "
             "memory-optimised workers.";
    case OpKind::Exchange:
      return "Shuffle less: project only the columns needed after the shuffle (no SELECT * across a "
             "join/aggregation), filter earlier, use more shuffle partitions, or a larger warehouse.";
    case OpKind::Join:
      return "Make the build side fit: broadcast it if it is small, otherwise more shuffle "
             "partitions, fewer columns on the build side, and check the join key for skew; or a "
             "larger warehouse.";
    case OpKind::Sort:
    case OpKind::Window:
      return "Sort less per task: more shuffle partitions (or a finer PARTITION BY), fewer columns "
             "carried through the sort, or a larger warehouse.";
    default:
      return "Reduce the data each task holds: project fewer columns before the shuffle, use more "
             "shuffle partitions, or a larger warehouse.";
  }
}

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinSpillBytes{"min-spill-bytes"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "disk-spill";
  r.code = "PL104";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "An operator spilled to disk because its data did not fit in memory";
  r.what =
      "Reports each operator whose spill metrics exceed the threshold, naming the operator, "
      "the bytes spilled and the number of spills; when no operator carries spill metrics but "
      "the query-level spill does, reports the query.";
  r.why =
      "When a hash aggregation, join build side, sort or shuffle buffer outgrows its memory, "
      "the engine writes it to local disk and reads it back, often several times (recursive "
      "spills). Spilling turns an in-memory operator into a disk-bound one: it is usually the "
      "largest single cost of the queries where it happens. It is caused by too few shuffle "
      "partitions for the data, wide rows (SELECT * through a shuffle), skew, or too little "
      "memory per task.";
  r.example =
      "Grouping Aggregate: Num bytes spilled to disk due to memory pressure = 415 GiB,\n"
      "                    Num spills to disk due to memory pressure = 1,182";
  r.use_instead =
      "SELECT key, sum(v) FROM (SELECT key, v FROM t) GROUP BY key   -- only the needed columns\n"
      "SET spark.sql.shuffle.partitions = 2000;  -- or a larger warehouse";
  r.evidence =
      "Query Profile JSON: operator metrics `Num bytes spilled to disk due to memory pressure`, "
      "`Sink - Num bytes spilled to disk due to memory pressure`, `Num bytes spilled from "
      "left/right side`, `Spill size`, and query-level `spillToDiskBytes`; Spark event logs: "
      "`spill size`. Explain text has no spill metrics: no finding.";
  r.thresholds = {
      {kMinSpillBytes, 1073741824, "bytes",
       "below 1 GiB a spill costs seconds of local-disk I/O and is rarely worth a larger warehouse"},
  };
  return r;
}

class DiskSpill final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    double min = ctx.threshold(kMinSpillBytes);
    bool any_op_spill = false;
    bool reported = false;
    for (const Operator* active : ctx.active_ops()) {
      const Operator& op = *active;
      double spilled = spill_bytes(op);
      if (spilled > 0) any_op_spill = true;
      if (spilled < min || spilled <= 0) continue;
      reported = true;
      std::string msg = op_ref(op) + " spilled " + format_bytes(spilled) + " to disk";
      auto spills = first_metric(op, {Metric::Spills, Metric::SinkSpills});
      if (spills) msg += " in " + format_count(*spills) + " spills";
      if (op.extra()->peak_memory_bytes) msg += " (peak memory " + format_bytes(*op.extra()->peak_memory_bytes) + ")";
      Diagnostic d = ctx.make(op, std::move(msg));
      d.evidence.push_back({"spilled bytes", spilled, Unit::Bytes});
      if (spills) d.evidence.push_back({"spills", *spills, Unit::Count});
      if (auto rows = first_metric(op, {Metric::SpilledRows, Metric::SinkSpilledRows}))
        d.evidence.push_back({"rows spilled", *rows, Unit::Rows});
      if (auto depth = first_metric(op, {Metric::SpillRecursionDepth}))
        d.evidence.push_back({"max spill recursion depth", *depth, Unit::Count});
      if (auto merge = first_metric(op, {Metric::SinkSpillMergeTime}))
        d.evidence.push_back({"time merging spill files", *merge, Unit::Ms});
      if (op.extra()->peak_memory_bytes)
        d.evidence.push_back({"peak memory", *op.extra()->peak_memory_bytes, Unit::Bytes});
      if (op.rows()) d.evidence.push_back({"output rows", *op.rows(), Unit::Rows});
      if (op.duration_ms()) d.evidence.push_back({"operator time", *op.duration_ms(), Unit::Ms});
      if (auto q = query_metric(plan, {Metric::QuerySpillBytes}))
        d.evidence.push_back({"query spill total", *q, Unit::Bytes});
      d.fix = fix_for(op);
      if (op.duration_ms()) {
        d.impact = *op.duration_ms();
        d.impact_unit = "ms";
        d.impact_text = format_millis(*op.duration_ms()) + " of task time in an operator that spilled " +
                        format_bytes(spilled);
      } else {
        set_impact(d, spilled, "bytes", " written to and read back from local disk");
      }
      ctx.report(std::move(d));
    }
    if (reported || !owns_query_metrics(plan)) return;
    // No operator spilled enough on its own: report the query-level number.
    auto q = query_metric(plan, {Metric::QuerySpillBytes});
    if (!q || *q < min) return;
    std::string msg = "the query spilled " + format_bytes(*q) + " to disk; " +
                      (any_op_spill ? std::string("spread over several operators, none above the threshold")
                                    : std::string("the plan does not say which operator (look for the largest "
                                                  "aggregation, join or sort)"));
    const Operator* anchor = plan_anchor(plan);
    Diagnostic d = anchor ? ctx.make(*anchor, std::move(msg)) : ctx.make_plan(std::move(msg), plan.query.sql_loc);
    d.evidence.push_back({"query spill total", *q, Unit::Bytes});
    d.fix = fix_for(Operator{});
    set_impact(d, *q, "bytes", " written to and read back from local disk");
    ctx.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<Rule> make_disk_spill() { return std::make_unique<DiskSpill>(); }

}  // namespace planlint
