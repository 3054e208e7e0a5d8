// skew-not-handled (PL003): a shuffle join ran on skewed partitions without AQE's skew handling.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kSkewFactor{"skew-factor"};
inline constexpr ThresholdKey kSkewThresholdBytes{"skew-threshold-bytes"};
inline constexpr ThresholdKey kSkewEmptyShare{"skew-empty-share"};
inline constexpr ThresholdKey kSkewMinTaskTime{"skew-min-task-time"};

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "skew-not-handled";
  d.code = "PL003";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A shuffle join ran on skewed partitions without AQE skew-join handling";
  d.what =
      "Finds a SortMergeJoin or ShuffledHashJoin that ran without AQE's skew handling (no `(skew=true)` / "
      "`isSkew=true` on the join, no `skewed` AQEShuffleRead below it, no skewed-partition counters on "
      "the shuffles that feed it) while the run shows skew: a shuffle whose largest partition is at least "
      "`skew-factor` times the median (`MapStage - Skew max to non-empty median ratio` in a Query "
      "Profile), or a join stage whose slowest task took at least `skew-factor` times the median task "
      "and at least `skew-min-task-time` (event logs, which carry task times). When a profile has no skew "
      "ratio (older Query Profiles), the partition counters of the shuffle stand in: at least "
      "`skew-empty-share` of its partitions received no data and the data sits in the few others, at least "
      "`skew-threshold-bytes` per non-empty partition on average (so at least one partition is one AQE "
      "would split: with most partitions empty the median partition is empty). In an event log whose join "
      "stage has no straggler by time alone, the tasks' shuffle reads stand in: the largest task read at least "
      "`skew-threshold-bytes` and `skew-factor` times the median task, and some task ran at least "
      "`skew-min-task-time`.";
  d.why =
      "A shuffle join processes one key range per task. When a few keys hold much of the data, the tasks "
      "that get them run for minutes while the others finish in seconds; the stage, and the query, take as "
      "long as the slowest task, and that task may spill or run out of memory. AQE can split a skewed "
      "partition into several tasks (spark.sql.adaptive.skewJoin.enabled) when the partition is larger "
      "than `skewedPartitionFactor` (5) times the median and than `skewedPartitionThresholdInBytes` "
      "(256 MB); it did not here, because AQE or skew-join handling is off, the thresholds were not met "
      "by the size AQE saw, the join type cannot be split on that side (e.g. the right side of a left "
      "outer join), or the split would have needed an extra shuffle.";
  d.example =
      "SortMergeJoin Inner (9)            -- no (skew=true)\n"
      ":- Sort (4)\n"
      ":  +- AQEShuffleRead (3)           -- Arguments: coalesced\n"
      "...\n"
      "profile: MapStage - Skew max to non-empty median ratio = 48";
  d.use_instead =
      "-- 1. remove or pre-aggregate the hot key (often NULL or a default value):\n"
      "SELECT ... FROM fact f JOIN dim d ON f.k = d.k WHERE f.k IS NOT NULL\n"
      "-- 2. broadcast the smaller side if it fits: /*+ BROADCAST(d) */\n"
      "-- 3. let AQE split skewed partitions:\n"
      "SET spark.sql.adaptive.enabled = true; SET spark.sql.adaptive.skewJoin.enabled = true;\n"
      "-- 4. salt the hot key: join on (k, salt) with salt = rand() * n on the big side and the small side exploded n times";
  d.evidence =
      "Runtime evidence only: Query Profile skew metrics on the shuffles feeding the join "
      "(`MapStage - Skew max to non-empty median ratio`, `MapStage - Skew num skewed partitions`) or, in "
      "an event log, the task-time distribution of the stage that ran the join; in older profiles without the skew "
      "ratio, the shuffle's partition counters (`AQEShuffleRead - Number of empty partitions`, the sink's number "
      "of partitions and `AQEShuffleRead - Partition data size`); in event logs, also the bytes each task of the "
      "join stage read from the shuffle (the tasks' shuffle read metrics). Task times and reads count "
      "successful tasks only: when the stage failed or never completed, the finding says so (`stage status`), "
      "since the failed attempts, often the skewed tasks themselves, are not in the figures. Plans without runtime "
      "metrics (explain text) never trigger it.";
  d.thresholds = {
      {kSkewFactor, 5, "ratio",
       "spark.sql.adaptive.skewJoin.skewedPartitionFactor (5): AQE itself calls a partition skewed at 5× the median."},
      {kSkewThresholdBytes, 256.0 * 1024 * 1024, "bytes",
       "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes (256 MB): a shuffle smaller than this in total "
       "cannot hold a partition AQE would split, so its ratio is ignored."},
      {kSkewEmptyShare, 0.9, "ratio",
       "9 of 10 shuffle partitions empty: the key has so few values (or one value holds so much) that the data "
       "sits in a tenth of the partitions or less; below it empty partitions are more often a partition count "
       "set too high than skew."},
      {kSkewMinTaskTime, 5000, "ms",
       "5 s, as DataFlint's partition-skew alert: below it a straggler costs less than scheduling noise."}};
  return d;
}

// A stage whose task times leave work out (StageInfo::partial): what its evidence says. Nothing
// for a stage that completed, or whose source gives no status.
std::optional<std::string> partial_stage_text(const StageInfo& st) {
  if (st.status == StageStatus::Failed)
    return "stage " + st.id + " failed: its task times and reads count only the tasks that succeeded, not the failed attempts";
  if (st.status == StageStatus::Active)
    return "stage " + st.id + " did not complete: its task times and reads count only the tasks that succeeded before the log ends";
  return std::nullopt;
}

bool side_handles_skew(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.kind == OpKind::ShuffleRead && op.facts->shuffle_read.skew_handled) return true;
    for (auto id : {Metric::SkewedPartitions, Metric::SkewedPartitionSplits})
      if (auto v = op.metric_value(id); v && *v > 0) return true;
    bool pass = is_transparent(op) || op.kind == OpKind::Sort || op.kind == OpKind::Exchange;
    if (!pass || op.children.size() != 1) return false;
    idx = op.children[0];
  }
  return false;
}

// The exchange feeding one side of the join (through Sort and transparent operators).
const Operator* side_exchange(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.kind == OpKind::Exchange) return &op;
    bool pass = is_transparent(op) || op.kind == OpKind::Sort;
    if (!pass || op.children.size() != 1) return nullptr;
    idx = op.children[0];
  }
  return nullptr;
}

// Older profiles have no skew ratio; their partition counters show the same thing when most of the
// shuffle's partitions are empty and the rest hold at least skew-threshold-bytes each on average.
template <class Miss>
std::optional<Diagnostic> from_partition_counts(RuleContext& ctx, const Operator& join, const Operator& ex,
                                                const char* side, double empty_share, double min_bytes, Miss& miss) {
  const ShufflePartitionFacts& sp = *ex.facts->shuffle_partitions;
  if (!sp.partitions || !sp.empty_partitions || !sp.bytes || *sp.partitions <= 0) return std::nullopt;
  const double parts = *sp.partitions, empty = std::min(*sp.empty_partitions, parts), bytes = *sp.bytes;
  const double full = std::max(1.0, parts - empty);
  const double share = empty / parts;
  if (share < empty_share) {
    miss([&] { return op_ref(ex) + ": " + format_count(empty) + " of " + format_count(parts) + " partitions empty, under skew-empty-share"; });
    return std::nullopt;
  }
  if (bytes / full < min_bytes) {
    miss([&] { return op_ref(ex) + ": " + format_count(empty) + " of " + format_count(parts) + " partitions empty, but the other " +
         format_count(full) + " hold " + format_bytes(bytes) + " in all, under skew-threshold-bytes each"; });
    return std::nullopt;
  }
  Diagnostic d = ctx.make(join, op_ref(join) + " ran without AQE skew handling although its " + side +
                                    " input is concentrated in a few partitions: " + format_count(empty) + " of the " +
                                    format_count(parts) + " partitions of " + op_ref(ex) + " are empty and the other " +
                                    format_count(full) + " hold " + format_bytes(bytes) + " (" +
                                    format_bytes(bytes / full) + " each on average), so " + format_count(full) +
                                    " tasks did the " + side + " side's work");
  d.evidence.push_back({"shuffle partitions", parts, Unit::Count});
  d.evidence.push_back({"empty partitions", empty, Unit::Count});
  d.evidence.push_back({std::string(side) + " side shuffle size", bytes, Unit::BytesExact});
  d.evidence.push_back({"average non-empty partition", bytes / full, Unit::BytesExact});
  d.evidence.push_back({"empty share", share, Unit::Share, PercentDigits::One});
  if (join.duration_ms()) set_impact(d, *join.duration_ms(), "ms", " in the join");
  return d;
}

const StageShuffleReadFacts* stage_reads(const Plan& plan, const std::string& stage_id) {
  for (const auto& f : plan.facts.stage_shuffle_reads)
    if (f.stage_id == stage_id) return &f;
  return nullptr;
}

struct SkewLimits {
  double factor, min_bytes, min_task, empty_share;
};

// 1. Profile skew metrics on the shuffles feeding the join.
template <class Miss>
std::optional<Diagnostic> from_skew_metrics(RuleContext& ctx, const Operator& join, const SkewLimits& lim, Miss& miss) {
  const Plan& plan = ctx.plan();
  const Operator* op = &join;
  const double factor = lim.factor, min_bytes = lim.min_bytes, empty_share = lim.empty_share;
  std::optional<Diagnostic> found;
  for (std::size_t pos = 0; pos < 2 && !found; ++pos) {
    const char* side = pos == 0 ? "left" : "right";
    const Operator* ex = side_exchange(plan, op->children[pos]);
    if (!ex) {
      miss([&] { return std::string("no shuffle found below the ") + side + " side"; });
      continue;
    }
    auto ratio = first_metric(*ex, {Metric::MapStageSkewRatio});
    if (!ratio) {
      if (auto d = from_partition_counts(ctx, *op, *ex, side, empty_share, min_bytes, miss)) {
        found = std::move(d);
        continue;
      }
      miss([&] { return op_ref(*ex) + " has no partition skew metric (profiles only)"; });
      continue;
    }
    if (*ratio < factor) {
      miss([&] { return op_ref(*ex) + "'s largest partition is " + format_ratio(*ratio) + " the median, under the skew factor " + format_ratio(factor); });
      continue;
    }
    SideSize size = input_size(plan, op->children[pos]);
    if (size.bytes && *size.bytes < min_bytes) {
      miss([&] { return std::string("the ") + side + " side is " + format_bytes(*size.bytes) + ", under skew-threshold-bytes"; });
      continue;
    }
    Diagnostic d = ctx.make(*op, op_ref(*op) + " ran without AQE skew handling although its " + side +
                                     " input is skewed: the largest shuffle partition of " + op_ref(*ex) +
                                     " is " + format_ratio(*ratio) + " the median");
    d.evidence.push_back({"max to median partition ratio", *ratio, Unit::Ratio});
    if (auto n = first_metric(*ex, {Metric::MapStageSkewedPartitions}))
      d.evidence.push_back({"skewed partitions", *n, Unit::Rows});
    if (size.bytes) d.evidence.push_back({std::string(side) + " side shuffle size", *size.bytes, Unit::BytesExact});
    d.evidence.push_back({"skew factor", factor, Unit::Ratio});
    if (op->duration_ms()) {
      set_impact(d, *op->duration_ms(), "ms", " in the join");
    }
    found = std::move(d);
  }
  return found;
}

// 2. Task-time spread of the stage(s) that ran the join.
template <class Miss>
std::optional<Diagnostic> from_task_times(RuleContext& ctx, const Operator& join, const SkewLimits& lim, Miss& miss) {
  const Plan& plan = ctx.plan();
  const Operator* op = &join;
  const double factor = lim.factor, min_task = lim.min_task;
  std::optional<Diagnostic> found;
  if (!found && op->extra()->spark_stages.empty()) miss([&] { return "no Spark stage linked to the join (no task times; event logs have them)"; });
  for (int sid : op->extra()->spark_stages) {
    if (found) break;
    for (const auto& st : plan.stages) {
      if (st.id != std::to_string(sid)) continue;
      if (!st.task_ms_max || !st.task_ms_median) {
        miss([&] { return "stage " + st.id + " has no task-time distribution"; });
        continue;
      }
      double mx = *st.task_ms_max, med = *st.task_ms_median;
      if (mx < min_task || med <= 0 || mx / med < factor) {
        miss([&] {
          const auto partial = partial_stage_text(st);
          return "stage " + st.id + ": slowest task " + format_millis(mx) + ", median " + format_millis(med) +
                 " (needs at least skew-min-task-time and the skew factor " + format_ratio(factor) + ")" +
                 (partial ? " -- " + *partial : std::string());
        });
        continue;
      }
      Diagnostic d = ctx.make(*op, op_ref(*op) + " ran without AQE skew handling although stage " + st.id +
                                       " that ran it has stragglers: the slowest task took " + format_millis(mx) +
                                       ", " + format_ratio(mx / med) + " the median task (" + format_millis(med) + ")");
      d.evidence.push_back({"slowest task", mx, Unit::Ms});
      d.evidence.push_back({"median task", med, Unit::Ms});
      d.evidence.push_back({"max to median task time", mx / med, Unit::Ratio});
      if (st.num_tasks) d.evidence.push_back({"tasks", *st.num_tasks, Unit::Rows});
      d.evidence.push_back({"skew factor", factor, Unit::Ratio});
      if (auto partial = partial_stage_text(st)) d.evidence.push_back({"stage status", *partial});
      if (const StageShuffleReadFacts* sr = stage_reads(plan, st.id); sr && sr->bytes_max >= factor * sr->bytes_median) {
        d.evidence.push_back({"largest task shuffle read", sr->bytes_max, Unit::BytesExact});
        d.evidence.push_back({"median task shuffle read", sr->bytes_median, Unit::BytesExact});
      }
      set_impact(d, mx - med, "ms", " of straggler time");
      found = std::move(d);
      break;
    }
  }
  return found;
}

// 3. Shuffle reads concentrated in a few tasks of the join's stage (event logs): the largest task
// read at least skew-threshold-bytes and skew-factor times the median task, and the stage has a
// task that ran at least skew-min-task-time (so the concentration cost time).
template <class Miss>
std::optional<Diagnostic> from_shuffle_reads(RuleContext& ctx, const Operator& join, const SkewLimits& lim, Miss& miss) {
  const Plan& plan = ctx.plan();
  const Operator* op = &join;
  const double factor = lim.factor, min_bytes = lim.min_bytes, min_task = lim.min_task;
  std::optional<Diagnostic> found;
  for (int sid : op->extra()->spark_stages) {
    if (found) break;
    const std::string id = std::to_string(sid);
    const StageShuffleReadFacts* sr = stage_reads(plan, id);
    if (!sr) continue;
    const StageInfo* st = nullptr;
    for (const auto& s2 : plan.stages)
      if (s2.id == id) st = &s2;
    const double mx = sr->bytes_max, med = sr->bytes_median;
    if (sr->tasks < 2 || mx < min_bytes || (med > 0 && mx / med < factor)) {
      miss([&] { return "stage " + id + ": largest task shuffle read " + format_bytes(mx) + ", median " + format_bytes(med) +
           " (needs at least skew-threshold-bytes and the skew factor " + format_ratio(factor) + ")"; });
      continue;
    }
    if (!st || !st->task_ms_max || *st->task_ms_max < min_task) {
      miss([&] { return "stage " + id + ": its shuffle reads are uneven but no task ran skew-min-task-time"; });
      continue;
    }
    std::string msg = op_ref(*op) + " ran without AQE skew handling although stage " + id +
                      " that ran it read its shuffle unevenly: one task read " + format_bytes(mx) + ", ";
    msg += med > 0 ? format_ratio(mx / med) + " the median task (" + format_bytes(med) + ")"
                   : "while most tasks read nothing";
    if (sr->empty_tasks > 0)
      msg += "; " + format_count(sr->empty_tasks) + " of " + format_count(sr->tasks) + " tasks read no row";
    Diagnostic d = ctx.make(*op, msg);
    d.evidence.push_back({"largest task shuffle read", mx, Unit::BytesExact});
    d.evidence.push_back({"median task shuffle read", med, Unit::BytesExact});
    if (med > 0) d.evidence.push_back({"max to median shuffle read", mx / med, Unit::Ratio});
    d.evidence.push_back({"tasks", sr->tasks, Unit::Count});
    d.evidence.push_back({"tasks that read no row", sr->empty_tasks, Unit::Count});
    d.evidence.push_back({"slowest task", *st->task_ms_max, Unit::Ms});
    if (auto partial = partial_stage_text(*st)) d.evidence.push_back({"stage status", *partial});
    if (st->task_ms_median) {
      d.evidence.push_back({"median task", *st->task_ms_median, Unit::Ms});
      set_impact(d, *st->task_ms_max - *st->task_ms_median, "ms", " of straggler time");
    }
    found = std::move(d);
  }
  return found;
}

class SkewNotHandled final : public DocumentedRule<make_doc> {
 public:
  [[nodiscard]] bool explains() const override { return true; }
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const double factor = ctx.threshold(kSkewFactor);
    const double min_bytes = ctx.threshold(kSkewThresholdBytes);
    const double min_task = ctx.threshold(kSkewMinTaskTime);
    const double empty_share = ctx.threshold(kSkewEmptyShare);
    for (const Operator* op : ctx.active_ops()) {
      if (op->kind != OpKind::Join || op->children.size() != 2) continue;
      static const std::string looked = "a shuffle join without AQE skew handling whose input partitions or tasks are skewed";
      if (op->join->skew) {
        ctx.why(*op, looked, "AQE already split its skewed partitions (skew=true)");
        continue;
      }
      if (op->join->strategy != JoinStrategy::SortMerge && op->join->strategy != JoinStrategy::ShuffledHash) {
        if (ctx.explaining())
          ctx.why(*op, looked, "not a shuffle join (a " + std::string(to_string(op->join->strategy)) + " join)");
        continue;
      }
      if (side_handles_skew(plan, op->children[0]) || side_handles_skew(plan, op->children[1])) {
        ctx.why(*op, looked, "a side already reads its shuffle with AQE skew handling");
        continue;
      }
      std::string missing;  // what each kind of evidence lacked
      // Only `--why` reads what was missing: the texts are built only then.
      auto miss = [&](auto&& text) {
        if (ctx.explaining()) missing += (missing.empty() ? "" : "; ") + std::string(text());
      };

      // The evidence sources, tried in order: the first that holds gives the finding.
      const SkewLimits lim{factor, min_bytes, min_task, empty_share};
      std::optional<Diagnostic> found = from_skew_metrics(ctx, *op, lim, miss);
      if (!found) found = from_task_times(ctx, *op, lim, miss);
      if (!found) found = from_shuffle_reads(ctx, *op, lim, miss);
      if (!found) {
        ctx.why(*op, looked, missing);
        continue;
      }
      found->fix =
          "In this order: (1) filter out or pre-aggregate the hot key(s) before the join (NULLs and default "
          "values are the usual culprits); (2) broadcast the smaller side if it fits (/*+ BROADCAST(t) */); "
          "(3) make sure spark.sql.adaptive.enabled and spark.sql.adaptive.skewJoin.enabled are true and lower "
          "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes if the skewed partitions are smaller than "
          "256 MB; (4) salt the key (add a random suffix on the large side and replicate the small side).";
      ctx.report(std::move(*found));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_skew_not_handled() { return std::make_unique<SkewNotHandled>(); }

}  // namespace planlint
