// PL110 shuffle-partition-sizing: a shuffle whose measured bytes are split into far too few
// partitions (huge reduce tasks that run long or spill) or into hundreds of tiny ones that nothing
// coalesces (a task per few kilobytes).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kTargetBytes{"target-partition-bytes"};
inline constexpr ThresholdKey kTooFewFactor{"too-few-factor"};
inline constexpr ThresholdKey kSlowTaskTime{"slow-task-time"};
inline constexpr ThresholdKey kMinSpillBytes{"min-spill-bytes"};
inline constexpr ThresholdKey kTooManyPartitions{"too-many-partitions"};
inline constexpr ThresholdKey kTinyBytes{"tiny-partition-bytes"};

RuleDoc make_doc() {
  return RuleDoc{
      .name = "shuffle-partition-sizing",
      .code = "PL110",
      .family = RuleFamily::Runtime,
      .severity = Severity::Warning,
      .summary = "A shuffle's measured bytes are split into far too few or far too many partitions",
      .what =
          "Reports an exchange whose measured shuffle bytes (bytes written) and partition count "
          "give partitions of the wrong size. Too few: bytes per partition at least `too-few-factor` "
          "times `target-partition-bytes` (1 GiB by default) and the reduce side paid for it: the "
          "median task of the stage that read the shuffle ran at least `slow-task-time`, or the "
          "operators reading it spilled at least `min-spill-bytes`. Too many: at least "
          "`too-many-partitions` partitions averaging at most `tiny-partition-bytes` with no AQE "
          "coalescing (no AQEShuffleRead above the exchange; AQE off, or a repartition(n) AQE never "
          "merges). The message quotes the bytes, the partition count, bytes per partition "
          "(bytes / partitions), the reading stage's tasks and times, and a partition count sized "
          "to the target. One partition is single-partition-shuffle's (PL109) case, not this rule's.",
      .why =
          "A reduce task processes one partition. Partitions of several GiB make few, long tasks "
          "that leave cores idle, hold huge hash tables or sorts and spill; Spark's AQE aims at "
          "64 MiB (spark.sql.adaptive.advisoryPartitionSizeInBytes) and the common guidance is "
          "100-200 MB per partition. AQE can merge small partitions but never split a large one "
          "(except for skew), so too few partitions stay too few. Hundreds of partitions of a few "
          "kilobytes each make one scheduled task per partition for almost no data: task launch, "
          "shuffle fetch and output-commit overhead dominate the stage. With AQE coalescing on, "
          "Spark merges such partitions itself, which is why the rule only reports tiny partitions "
          "when nothing merged them.",
      .example =
          "df.repartition(2).write.parquet(path)\n"
          "-> Exchange RoundRobinPartitioning(2), REPARTITION_BY_NUM   (Shuffle bytes written = 10.0 GiB)\n"
          "   stage that reads it: 2 tasks, median 4 min 3 s",
      .use_instead =
          "df.repartition(81).write.parquet(path)             -- ~128 MiB per partition\n"
          "SET spark.sql.shuffle.partitions = 2000;           -- join / aggregate shuffles (too few)\n"
          "SET spark.sql.adaptive.enabled = true;             -- too many: AQE merges them\n"
          "SET spark.sql.adaptive.coalescePartitions.enabled = true;",
      .evidence =
          "Event logs and History Server answers: the exchange's `Shuffle bytes written` and "
          "`Number of partitions` (or the count in `hashpartitioning(k, 400)` / "
          "`RoundRobinPartitioning(2)`), the shuffle origin (`ENSURE_REQUIREMENTS`, "
          "`REPARTITION_BY_NUM`), an AQEShuffleRead above it, and (event logs) the task times of "
          "the stage that read it; Query Profile JSON: `Sink - Num bytes written`, `Sink - Number "
          "of partitions`, the AQEShuffleRead metrics of the exchange and spill metrics. Explain "
          "text has no measured shuffle bytes: the rule stays silent on it (AQE Statistics are "
          "estimates and carry no task times).",
      .thresholds =
          {
              {kTargetBytes, 134217728, "bytes",
               "128 MiB, inside the common 100-200 MB guidance and twice Spark's 64 MiB "
               "spark.sql.adaptive.advisoryPartitionSizeInBytes; the partition count the fix "
               "suggests is bytes / this"},
              {kTooFewFactor, 8, "ratio",
               "too few when a partition holds 8x the target (1 GiB by default): a partition of "
               "2-3x the target is a tuning choice, not a mistake"},
              {kSlowTaskTime, 60000, "ms",
               "the median task of the reading stage ran at least a minute: large partitions that "
               "run fast are no problem"},
              {kMinSpillBytes, 1073741824, "bytes",
               "or the operators reading the shuffle spilled at least 1 GiB (disk-spill's default)"},
              {kTooManyPartitions, 400, "partitions",
               "twice Spark's default of 200 spark.sql.shuffle.partitions: the untouched default on "
               "a small query is aqe-disabled's to report, a count raised to hundreds or thousands "
               "for a shuffle of a few megabytes is a sizing mistake"},
              {kTinyBytes, 1048576, "bytes",
               "1 MiB on average (AQE's spark.sql.adaptive.coalescePartitions.minPartitionSize, "
               "1/128 of the target); an average of 1 MiB bounds the median at 2 MiB"},
          },
  };
}

// The operators above `ex` up to (not including) the next exchange: they read its partitions.
std::vector<const Operator*> readers_of(const Plan& plan, const Operator& ex) {
  std::vector<const Operator*> out;
  std::vector<std::size_t> todo(ex.parents.begin(), ex.parents.end());
  std::vector<bool> seen(plan.ops.size(), false);
  while (!todo.empty()) {
    std::size_t i = todo.back();
    todo.pop_back();
    if (i >= plan.ops.size() || seen[i]) continue;
    seen[i] = true;
    const Operator& op = plan.ops[i];
    if (op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange) continue;
    out.push_back(&op);
    for (std::size_t p : op.parents) todo.push_back(p);
  }
  return out;
}

// How AQE read the shuffle, if it did (an AQEShuffleRead above the exchange, or the AQEShuffleRead
// metrics a Query Profile puts on the exchange itself).
struct AqeRead {
  bool present = false;
  bool skew_split = false;
};

AqeRead aqe_read(const Operator& ex, const std::vector<const Operator*>& readers) {
  AqeRead r;
  if (ex.metric(Metric::ShuffleReadPartitionDataSize)) r.present = true;
  auto splits = first_metric(ex, {Metric::SkewedPartitionSplits, Metric::SkewedPartitions});
  if (splits && *splits > 0) r.skew_split = true;
  for (const Operator* op : readers) {
    if (op->kind != OpKind::ShuffleRead) continue;
    r.present = true;
    if (op->facts->shuffle_read.skew_handled) r.skew_split = true;
    auto s = first_metric(*op, {Metric::SkewedPartitionSplits, Metric::SkewedPartitions});
    if (s && *s > 0) r.skew_split = true;
  }
  return r;
}

// The Spark stage that read the shuffle: a stage linked to the exchange that also ran one of the
// operators reading it. The one with the longest median task when several (retries) match.
const StageInfo* reading_stage(const Plan& plan, const Operator& ex, const std::vector<const Operator*>& readers) {
  if (ex.extra()->spark_stages.empty()) return nullptr;
  const StageInfo* best = nullptr;
  for (int sid : ex.extra()->spark_stages) {
    const std::string id = std::to_string(sid);
    for (const StageInfo& st : plan.stages) {
      if (st.id != id) continue;
      bool reads = false;
      for (std::size_t o : st.operators)
        for (const Operator* r : readers)
          if (r->index == o) reads = true;
      if (!reads) continue;
      if (!best || st.task_ms_median.value_or(-1) > best->task_ms_median.value_or(-1)) best = &st;
    }
  }
  return best;
}

// A reading stage whose task times leave work out (StageInfo::partial): what its evidence says.
std::string partial_stage_text(const StageInfo& st) {
  return "stage " + st.id + (st.status == StageStatus::Failed ? " failed" : " did not complete") +
         ": its task times count only the tasks that succeeded";
}

double reader_spill(const std::vector<const Operator*>& readers) {
  double total = 0;
  for (const Operator* op : readers) {
    if (auto s = first_metric(*op, {Metric::SpillSize, Metric::SpillBytes})) total += *s;
    if (auto l = op->metric_value(Metric::SpillBytesLeft)) total += *l;
    if (auto r = op->metric_value(Metric::SpillBytesRight)) total += *r;
  }
  return total;
}

std::string origin_text(ShuffleOrigin o) {
  switch (o) {
    case ShuffleOrigin::EnsureRequirements: return "ENSURE_REQUIREMENTS";
    case ShuffleOrigin::RepartitionByNum: return "REPARTITION_BY_NUM";
    case ShuffleOrigin::RepartitionByCol: return "REPARTITION_BY_COL";
    case ShuffleOrigin::Rebalance: return "REBALANCE";
    case ShuffleOrigin::Unknown: break;
  }
  return "";
}

class ShufflePartitionSizing final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const double target = ctx.threshold(kTargetBytes);
    const double too_few_factor = ctx.threshold(kTooFewFactor);
    const double slow_task = ctx.threshold(kSlowTaskTime);
    const double min_spill = ctx.threshold(kMinSpillBytes);
    const double too_many = ctx.threshold(kTooManyPartitions);
    const double tiny = ctx.threshold(kTinyBytes);
    for (const Operator* active : ctx.active_ops(OpKind::Exchange)) {
      const Operator& ex = *active;
      const Partitioning& part = ex.facts->partitioning;
      if (part.single || part.executor_broadcast || part.kind == PartitioningKind::Broadcast) continue;
      // Measured bytes only: an optimizer estimate or AQE Statistics are no measurement.
      std::optional<double> bytes =
          first_metric(ex, {Metric::SinkBytesWritten, Metric::ExchangeShuffleBytesWritten, Metric::ShuffleBytesWritten});
      std::optional<double> parts;
      if (part.partitions) parts = static_cast<double>(*part.partitions);
      else parts = first_metric(ex, {Metric::SinkPartitions, Metric::ExchangePartitions});
      // One partition is single-partition-shuffle's case (PL109).
      if (!bytes || !parts || *parts < 2 || *bytes <= 0) continue;
      const double per = *bytes / *parts;
      const std::vector<const Operator*> readers = readers_of(plan, ex);
      const AqeRead read = aqe_read(ex, readers);
      const StageInfo* stage = reading_stage(plan, ex, readers);
      const ShuffleOrigin origin = part.origin;
      const double suggested = std::max(1.0, std::ceil(*bytes / target));
      std::string where = origin_text(origin);

      if (per >= too_few_factor * target) {
        if (read.skew_split) continue;  // AQE split the large partitions: the tasks are smaller
        const bool slow = stage && stage->task_ms_median && *stage->task_ms_median >= slow_task;
        const double spill = reader_spill(readers);
        const bool spilled = spill >= min_spill;
        if (!slow && !spilled) continue;
        std::string msg = op_ref(ex) + " shuffles " + format_bytes(*bytes) + " into " + format_count(*parts) +
                          " partitions, " + format_bytes(per) + " each (" + format_ratio(per / target) + " the " +
                          format_bytes(target) + " target): too few partitions";
        if (slow)
          msg += "; the " + (stage->num_tasks ? format_count(*stage->num_tasks) + " " : std::string()) +
                 "reduce tasks of stage " + stage->id + " ran " + format_millis(*stage->task_ms_median) +
                 " at the median" +
                 (stage->partial() ? std::string(" (of those that succeeded: the stage ") +
                                         (stage->status == StageStatus::Failed ? "failed)" : "did not complete)")
                                   : std::string());
        if (spilled) msg += std::string(slow ? " and" : ";") + " its readers spilled " + format_bytes(spill);
        Diagnostic d = ctx.make(ex, std::move(msg));
        d.evidence.push_back({"shuffle bytes written", *bytes, Unit::BytesExact});
        d.evidence.push_back({"partitions", *parts, Unit::Count});
        d.evidence.push_back({"bytes per partition", per, Unit::Bytes});
        d.evidence.push_back({"target partition size", target, Unit::Bytes});
        if (!where.empty()) d.evidence.push_back({"shuffle origin", where});
        if (stage) {
          if (stage->num_tasks) d.evidence.push_back({"reduce tasks", *stage->num_tasks, Unit::Count});
          if (stage->task_ms_median) d.evidence.push_back({"median reduce task", *stage->task_ms_median, Unit::Ms});
          if (stage->task_ms_max) d.evidence.push_back({"slowest reduce task", *stage->task_ms_max, Unit::Ms});
          if (stage->partial()) d.evidence.push_back({"stage status", partial_stage_text(*stage)});
        }
        if (spill > 0) d.evidence.push_back({"spill while reading", spill, Unit::Bytes});
        const std::string n = format_count(suggested);
        if (origin == ShuffleOrigin::RepartitionByNum) {
          d.fix = "The partition count comes from a repartition(" + format_count(*parts) + ") call in the code: use repartition(" +
                  n + ") (" + format_bytes(*bytes) + " / " + n + " = " + format_bytes(*bytes / suggested) +
                  " per partition), or drop the call and let AQE size the shuffle (`/*+ REBALANCE */` before a write).";
        } else {
          d.fix = "Raise spark.sql.shuffle.partitions to at least " + n + " (" + format_bytes(*bytes) + " / " +
                  format_bytes(target) + "); with AQE on, set it (or "
                  "spark.sql.adaptive.coalescePartitions.initialPartitionNum) high and let AQE merge the "
                  "partitions down to spark.sql.adaptive.advisoryPartitionSizeInBytes: AQE merges partitions but "
                  "never splits a large one. If a repartition(n) call set this count, raise n instead.";
        }
        if (stage && stage->task_ms_max) set_impact(d, *stage->task_ms_max, "ms", " in the slowest reduce task");
        else set_impact(d, spill, "bytes", " spilled by the reduce side");
        ctx.report(std::move(d));
        continue;
      }

      if (*parts >= too_many && per <= tiny) {
        if (read.present) continue;  // AQE read the shuffle (coalesced or not): its choice
        if (plan.facts.streaming) continue;  // state store partitions are fixed by the checkpoint
        // Nothing could merge the partitions: AQE off, or a repartition(n) AQE keeps as asked, or
        // AQE on in a final plan with no AQEShuffleRead (coalescing turned off: with it on,
        // partitions under 1 MiB are always merged).
        const bool aqe_on = plan.adaptive || plan.facts.aqe.value_or(false);
        const bool coalescing_off =
            !aqe_on || origin == ShuffleOrigin::RepartitionByNum ||
            (plan.is_final_plan.value_or(false) &&
             (origin == ShuffleOrigin::EnsureRequirements || origin == ShuffleOrigin::RepartitionByCol));
        if (!coalescing_off) continue;
        std::string msg = op_ref(ex) + " splits " + format_bytes(*bytes) + " into " + format_count(*parts) +
                          " partitions, " + format_bytes(per) + " each on average, and nothing coalesces them (" +
                          (aqe_on ? std::string("no AQEShuffleRead") : std::string("AQE off")) + "): too many partitions";
        if (stage && stage->num_tasks)
          msg += "; stage " + stage->id + " ran " + format_count(*stage->num_tasks) + " reduce tasks" +
                 (stage->duration_ms ? " in " + format_millis(*stage->duration_ms) : std::string());
        Diagnostic d = ctx.make(ex, std::move(msg));
        d.evidence.push_back({"shuffle bytes written", *bytes, Unit::BytesExact});
        d.evidence.push_back({"partitions", *parts, Unit::Count});
        d.evidence.push_back({"average bytes per partition", per, Unit::Bytes});
        d.evidence.push_back({"target partition size", target, Unit::Bytes});
        if (!where.empty()) d.evidence.push_back({"shuffle origin", where});
        d.evidence.push_back({"AQE", aqe_on ? "on, no coalesced shuffle read" : "off"});
        if (stage && stage->num_tasks) d.evidence.push_back({"reduce tasks", *stage->num_tasks, Unit::Count});
        if (stage && stage->duration_ms) d.evidence.push_back({"reduce stage duration", *stage->duration_ms, Unit::Ms});
        if (stage && stage->task_ms_median) d.evidence.push_back({"median reduce task", *stage->task_ms_median, Unit::Ms});
        if (stage && stage->partial()) d.evidence.push_back({"stage status", partial_stage_text(*stage)});
        const std::string n = format_count(suggested);
        if (origin == ShuffleOrigin::RepartitionByNum) {
          d.fix = "The partition count comes from a repartition(" + format_count(*parts) + ") call in the code: use repartition(" +
                  n + ") (" + format_bytes(*bytes) + " at about " + format_bytes(target) +
                  " per partition), or drop the call.";
        } else if (!aqe_on) {
          d.fix = "Turn AQE on (spark.sql.adaptive.enabled=true, with spark.sql.adaptive.coalescePartitions.enabled=true, "
                  "the default) so partitions are merged up to spark.sql.adaptive.advisoryPartitionSizeInBytes (64 MiB), "
                  "or lower spark.sql.shuffle.partitions (now " + format_count(*parts) + "; this shuffle needs " + n +
                  " at " + format_bytes(target) + " per partition).";
        } else {
          d.fix = "Turn AQE coalescing back on (spark.sql.adaptive.coalescePartitions.enabled=true) so partitions are "
                  "merged up to spark.sql.adaptive.advisoryPartitionSizeInBytes (64 MiB), or lower "
                  "spark.sql.shuffle.partitions (now " + format_count(*parts) + "; this shuffle needs " + n + " at " +
                  format_bytes(target) + " per partition).";
        }
        if (stage && stage->duration_ms) set_impact(d, *stage->duration_ms, "ms", " in the reduce stage");
        ctx.report(std::move(d));
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_shuffle_partition_sizing() { return std::make_unique<ShufflePartitionSizing>(); }

}  // namespace planlint
