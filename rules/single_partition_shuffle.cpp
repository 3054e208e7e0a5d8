// PL109 single-partition-shuffle: `Exchange SinglePartition`, `RoundRobinPartitioning(1)` or
// `Coalesce 1` moves a large input into one partition, i.e. one task on one core.
#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

bool is_single(const Operator& op) { return op.facts->partitioning.single; }

// Photon's executor broadcast shuffles the build side into one partition on purpose.
bool is_executor_broadcast(const Plan& plan, const Operator& op) {
  const Operator* cur = &op;
  for (int hops = 0; hops < 4; ++hops) {
    if (cur->facts->partitioning.executor_broadcast) return true;
    if (cur->parents.size() != 1) break;
    cur = &plan.ops[cur->parents[0]];
    if (cur->kind != OpKind::Exchange && cur->kind != OpKind::QueryStage && cur->kind != OpKind::ShuffleRead) {
      if (cur->kind == OpKind::Join && cur->join->strategy == JoinStrategy::BroadcastHash) return true;
      break;
    }
  }
  return false;
}

// The first consumer above the exchange chain, to name the cause.
const Operator* consumer_of(const Plan& plan, const Operator& op) {
  const Operator* cur = &op;
  while (cur->parents.size() == 1) {
    const Operator& p = plan.ops[cur->parents[0]];
    if (p.kind != OpKind::Exchange && p.kind != OpKind::QueryStage && p.kind != OpKind::ShuffleRead &&
        p.kind != OpKind::Transition && p.kind != OpKind::CodegenStage) {
      // A Sort that only orders rows for the Window above it: the Window is the consumer.
      if (p.kind == OpKind::Sort && p.parents.size() == 1 && plan.ops[p.parents[0]].kind == OpKind::Window)
        return &plan.ops[p.parents[0]];
      return &p;
    }
    cur = &p;
  }
  return nullptr;
}

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinBytes{"min-bytes"};
inline constexpr ThresholdKey kMinRows{"min-rows"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "single-partition-shuffle";
  r.code = "PL109";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "A large input is moved into a single partition (one task)";
  r.what =
      "Reports `Exchange SinglePartition` (also Photon's shuffle sink, `RoundRobinPartitioning(1)` "
      "and `Coalesce 1`) when the data moved into that one partition is known to be large.";
  r.why =
      "A single partition is processed by one task on one core while the rest of the cluster "
      "idles, and that task must hold, sort or spill all of the data. Spark plans it for a window "
      "function without PARTITION BY, a global aggregate that cannot be computed partially, a "
      "large LIMIT / collect, repartition(1) or coalesce(1) before a write. On small inputs (the "
      "final merge of partial aggregates, a top-N) it is harmless, which is why this rule needs "
      "size evidence.";
  r.example =
      "SELECT *, row_number() OVER (ORDER BY ts) FROM events\n"
      "-> Window ... +- Exchange SinglePartition   (Sink - Num bytes written = 48 GiB)";
  r.use_instead =
      "row_number() OVER (PARTITION BY user_id ORDER BY ts)   -- many partitions\n"
      "df.write... without coalesce(1); LIMIT only what the client needs";
  r.evidence =
      "Query Profile JSON: the exchange's partitioning (`Single` / `Sink - Number of partitions` = 1) "
      "and its bytes written / rows; explain text: `SinglePartition` with `Statistics(sizeInBytes=...)` "
      "on the AQE query stage; event logs: shuffle bytes written. No size evidence: no finding.";
  r.thresholds = {
      {kMinBytes, 1073741824, "bytes",
       "1 GiB is 16x the 64 MiB AQE advisory partition size (spark.sql.adaptive.advisoryPartitionSizeInBytes)"},
      {kMinRows, 50000000, "rows", "used when no byte count is known: 50 million rows in one task"},
  };
  return r;
}

class SinglePartitionShuffle final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const double min_bytes = ctx.threshold(kMinBytes);
    const double min_rows = ctx.threshold(kMinRows);
    for (const Operator* active : ctx.active_ops()) {
      const Operator& op = *active;
      bool single = is_single(op);
      if (!single && op.kind == OpKind::Exchange) {
        // Profiles: partition count 1 on the writing side.
        auto parts = first_metric(op, {Metric::SinkPartitions, Metric::ExchangePartitions});
        single = parts && *parts == 1;
      }
      if (!single) continue;
      // Report the lowest node of a multi-node exchange (Photon sink/map stage/source) only.
      bool child_single = false;
      for (std::size_t c : op.children)
        if (plan.ops[c].kind == OpKind::Exchange && is_single(plan.ops[c])) child_single = true;
      if (child_single) continue;
      if (is_executor_broadcast(plan, op)) continue;

      std::optional<double> bytes = first_metric(
          op, {Metric::SinkBytesWritten, Metric::ExchangeShuffleBytesWritten, Metric::ShuffleBytesWritten, Metric::DataSize});
      std::optional<double> rows = op.rows();
      if (!bytes) {
        // AQE query stage above the exchange carries Statistics(sizeInBytes=..., rowCount=...).
        for (std::size_t p : op.parents) {
          const Operator& q = plan.ops[p];
          if (q.kind == OpKind::QueryStage && !q.stats()->masked) {
            if (q.stats()->size_bytes) bytes = q.stats()->size_bytes;
            if (!rows && q.stats()->row_count) rows = q.stats()->row_count;
          }
        }
      }
      if (!rows && op.kind != OpKind::Exchange && op.children.size() == 1) rows = plan.ops[op.children[0]].rows();
      bool large = bytes ? *bytes >= min_bytes : (rows && *rows >= min_rows);
      if (!large) continue;

      const Operator* consumer = consumer_of(plan, op);
      std::string cause;
      std::string fix;
      if (op.kind != OpKind::Exchange || (consumer && (consumer->kind == OpKind::Write || consumer->kind == OpKind::Command))) {
        cause = "coalesce(1) / repartition(1) before a write";
        fix = "Drop coalesce(1)/repartition(1): let the write use many tasks; if that makes too many small "
              "files, write with `/*+ REBALANCE */` (AQE sizes the files) or compact afterwards (Delta: OPTIMIZE; "
              "Iceberg: the rewrite_data_files procedure).";
      } else if (consumer && consumer->kind == OpKind::Window) {
        cause = "a window function without PARTITION BY";
        fix = "Add PARTITION BY to the window (e.g. per user / per day); for a global rank over huge data "
              "compute it per partition and combine, or use approximate percentiles.";
      } else if (consumer && (consumer->kind == OpKind::Limit || consumer->kind == OpKind::TopK)) {
        cause = "a large LIMIT / collect";
        fix = "Return fewer rows (a smaller LIMIT, an aggregate), or write the result to a table instead "
              "of collecting it.";
      } else if (consumer && consumer->kind == OpKind::Aggregate) {
        cause = "a global aggregate that is not computed partially (DISTINCT, collect_list, percentile, a UDAF)";
        fix = "Pre-aggregate per key first (GROUP BY then combine), use approx_count_distinct / "
              "percentile_approx, or avoid collecting all values into one row.";
      } else if (consumer && consumer->kind == OpKind::Sort) {
        cause = "a global sort gathered into one partition";
        fix = "Sort within partitions or by a partitioning key, and LIMIT before ordering when only the top "
              "rows are needed.";
      } else {
        cause = "a single-partition exchange";
        fix = "Find the operator that requires all rows in one place (global window, aggregate, limit or "
              "repartition(1)) and give it a partitioning key.";
      }
      std::string size = bytes ? format_bytes(*bytes) : format_count(*rows) + " rows";
      std::string msg = op_ref(op) + " moves " + size + " into a single partition (one task)";
      if (consumer) msg += " for " + op_ref(*consumer);
      msg += ": " + cause;
      Diagnostic d = ctx.make(op, std::move(msg));
      if (bytes) d.evidence.push_back({"bytes into one partition", *bytes, Unit::Bytes});
      if (rows) d.evidence.push_back({"rows into one partition", *rows, Unit::Rows});
      if (consumer) d.evidence.push_back({"consumer", op_ref(*consumer)});
      d.fix = std::move(fix);
      double ms = op.duration_ms().value_or(0) + (consumer && consumer->duration_ms() ? *consumer->duration_ms() : 0);
      if (ms > 0) {
        set_impact(d, ms, "ms", " of single-task time in the exchange and its consumer");
      } else if (bytes) {
        set_impact(d, *bytes, "bytes", " through one task");
      } else {
        set_impact(d, *rows, "rows", " rows through one task");
      }
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_single_partition_shuffle() { return std::make_unique<SinglePartitionShuffle>(); }

}  // namespace planlint
