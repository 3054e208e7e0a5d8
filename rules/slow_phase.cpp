// PL101 slow-phase: which phase of the query's wall-clock time dominates (waiting for compute,
// queueing at capacity, compilation, execution, result fetch), from a Query Profile's query
// metrics. Only execution-dominated queries are worth tuning in SQL; for the others the fix is
// elsewhere, and this rule says where.
#include <cstdio>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {


// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinPhaseShare{"min-phase-share"};
inline constexpr ThresholdKey kMinPhaseMs{"min-phase-ms"};
inline constexpr ThresholdKey kMinExecutionMs{"min-execution-ms"};
inline constexpr ThresholdKey kMaxParallelism{"max-parallelism"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "slow-phase";
  r.code = "PL101";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "Most of the query's wall-clock time went to a phase other than execution";
  r.what =
      "Splits the query's wall-clock time into the phases a Databricks SQL warehouse reports -- "
      "waiting for compute (cold start), queueing at capacity, compilation, execution and result "
      "fetch -- and reports when one phase other than execution owns most of it. For an "
      "execution-dominated query it reports only when the effective parallelism (task time / "
      "execution time) is close to 1, i.e. one task did the work. A query served from the result "
      "cache is reported as info: there is no execution to judge.";
  r.why =
      "Tuning SQL only helps when execution owns the time. A query that waited 40 s for a "
      "warehouse to start, or queued behind other queries, gets no faster from a better join; a "
      "query whose compilation dwarfs its execution is slowed by metadata (many small files, a "
      "long Delta log, thousands of partitions); a slow result fetch is a client problem (too "
      "many rows pulled through a slow driver). Effective parallelism near 1 on a long "
      "execution means a single task -- skew, a single-file table or a global sort/limit -- "
      "serialised the work.";
  r.example =
      "query metrics: totalTimeMs=52000, queuedProvisioningTimeMs=45000, compilationTimeMs=400,\n"
      "               executionTimeMs=6500, resultFetchTimeMs=100";
  r.use_instead =
      "waiting for compute: a serverless SQL warehouse, a longer auto-stop, or a warm-up before "
      "the first query; queueing: more clusters in the warehouse's scaling range, or separate "
      "warehouses for ETL and BI; compilation: OPTIMIZE / liquid clustering / auto compaction "
      "and fewer partitions; result fetch: aggregate or LIMIT in SQL, Cloud Fetch, or write the "
      "result to a table; low parallelism: look for skew and single-file inputs.";
  r.evidence =
      "Query Profile JSON / query history: totalTimeMs, queuedProvisioningTimeMs, "
      "queuedOverloadTimeMs, compilationTimeMs, executionTimeMs, resultFetchTimeMs, "
      "taskTotalTimeMs, resultFromCache (or the system.query.history column names). Explain "
      "text has no timings: no finding. When a job or a stage of the query failed (or never "
      "completed), its task time counts only the tasks that succeeded, so the parallelism check is "
      "not made: the figure would understate it.";
  r.thresholds = {
      {kMinPhaseShare, 0.5, "ratio",
       "a phase other than execution must own at least half of the wall-clock time: then it, "
       "not the plan, decides how long the user waits"},
      {kMinPhaseMs, 2000, "ms",
       "below 2 s a cold start, queue or compilation is not what a user complains about"},
      {kMinExecutionMs, 30000, "ms",
       "the parallelism check only applies to executions of at least 30 s, where one task "
       "doing the work is visible"},
      {kMaxParallelism, 1.5, "ratio",
       "task time / execution time below 1.5 means on average fewer than two tasks ran at once"},
  };
  return r;
}

// The table formats a plan's scans read, for compaction advice in each format's words.
struct Formats {
  bool delta = false, iceberg = false, files = false, unknown = false;
};

Formats formats_read(RuleContext& ctx) {
  Formats f;
  for (const Operator* op : ctx.active_ops(OpKind::Scan)) {
    TableKind k = table_kind(*op);
    f.delta = f.delta || k == TableKind::Delta;
    f.iceberg = f.iceberg || k == TableKind::Iceberg;
    f.files = f.files || k == TableKind::Files;
  }
  f.unknown = !f.delta && !f.iceberg && !f.files;  // no scan says its format: name every format's way
  return f;
}

// OPTIMIZE is Delta's, rewrite_data_files Iceberg's; plain Parquet / ORC files are rewritten.
std::string compaction_words(const Formats& f) {
  const bool several = int(f.delta || f.unknown) + int(f.iceberg || f.unknown) + int(f.files || f.unknown) > 1;
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (f.delta || f.unknown) add(std::string(several ? "Delta: " : "") + "OPTIMIZE, liquid clustering, auto compaction");
  if (f.iceberg || f.unknown) add(std::string(several ? "Iceberg: " : "") + "the rewrite_data_files procedure");
  if (f.files || f.unknown) add(std::string(several ? "plain Parquet/ORC files: " : "") + "rewrite them into fewer, larger files");
  return out;
}

class SlowPhase final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    if (!owns_query_metrics(plan)) return;
    PhaseBreakdown b = phase_breakdown(plan);
    if (b.from_result_cache) {
      Diagnostic d = ctx.make_plan("served from the result cache" +
                                       (b.total_ms ? " in " + format_millis(*b.total_ms) : std::string()) +
                                       ": no execution to judge; profile the query with the cache disabled to tune it",
                                   plan.query.sql_loc);
      d.severity = Severity::Info;
      d.evidence.push_back({"resultFromCache", "true"});
      if (b.total_ms) d.evidence.push_back({"total time", *b.total_ms, Unit::Ms});
      d.fix = "Nothing to tune from this profile. To measure the query itself run it with "
              "`SET use_cached_result = false`.";
      ctx.report(std::move(d));
      return;
    }
    if (!b.known || !b.dominant) return;
    const Phase& p = b.phases[*b.dominant];
    double total = b.total_ms.value_or(0);
    if (total <= 0)
      for (const auto& q : b.phases) total += q.ms;
    double share = b.share(*b.dominant);

    auto add_phases = [&](Diagnostic& d) {
      d.evidence.push_back({"total time", total, Unit::Ms});
      for (const auto& q : b.phases) d.evidence.push_back({q.title, q.ms, Unit::Ms});
    };

    if (p.name != "execution") {
      if (share < ctx.threshold(kMinPhaseShare) || p.ms < ctx.threshold(kMinPhaseMs)) return;
      std::string msg = p.title + " took " + format_millis(p.ms) + " of " + format_millis(total) + " (" +
                        format_percent(share) + ")";
      std::string fix;
      if (p.name == "waiting-for-compute") {
        msg += ": the query waited for the warehouse to start (cold start)";
        fix = "Use a serverless SQL warehouse (starts in seconds), raise the auto-stop delay so the "
              "warehouse stays up during working hours, or warm it up before the first scheduled query.";
      } else if (p.name == "queueing") {
        msg += ": the warehouse was at capacity and the query queued behind others";
        fix = "Raise the maximum number of clusters in the warehouse's scaling range, or move ETL and "
              "batch work to their own warehouse so interactive BI queries do not queue behind them.";
      } else if (p.name == "compilation") {
        double exec = 0;
        for (const auto& q : b.phases)
          if (q.name == "execution") exec = q.ms;
        msg += ", execution only " + format_millis(exec) +
               ": planning is slowed by metadata (many small files, a long Delta log, many partitions) "
               "or a very large query";
        Formats f = formats_read(ctx);
        fix = "Compact the tables the query reads (" + compaction_words(f) +
              "), avoid over-partitioning (partitions under 1 GB), " +
              (f.delta || f.unknown ? "keep the Delta log checkpointed, " : "") + "and split very large generated SQL.";
      } else {  // result-fetch
        msg += ": the client fetched the result slowly -- a client-side problem, not the plan";
        fix = "Return fewer rows (aggregate or LIMIT in SQL), use a driver with Cloud Fetch / Arrow "
              "result sets, or write large results to a table instead of pulling them through the client.";
      }
      Diagnostic d = ctx.make_plan(std::move(msg), plan.query.sql_loc);
      d.fix = std::move(fix);
      add_phases(d);
      d.evidence.push_back({"phase share", share, Unit::Share});
      if (p.name == "compilation")
        if (auto md = query_metric(plan, {Metric::MetadataTime}); md && *md > 0)
          d.evidence.push_back({"metadata time", *md, Unit::Ms});
      d.impact = p.ms;
      d.impact_unit = "ms";
      d.impact_text = format_millis(p.ms) + " of wall-clock time in " + p.title;
      ctx.report(std::move(d));
      return;
    }

    // Execution dominates: only a serialised execution is a finding here. A task time that leaves
    // out failed work (a failed job or stage) is a lower bound: it cannot show serialisation.
    if (!b.parallelism || p.ms < ctx.threshold(kMinExecutionMs)) return;
    if (plan.task_times_partial()) return;
    if (*b.parallelism >= ctx.threshold(kMaxParallelism)) return;
    Diagnostic d = ctx.make_plan("execution took " + format_millis(p.ms) + " of " + format_millis(total) +
                                     " with an effective parallelism of " + format_decimal(*b.parallelism) +
                                     " (task time / execution time): one task did most of the work",
                                 plan.query.sql_loc);
    d.fix = "Look for a skewed join or aggregation key, a single large file or an unsplittable input "
            "(gzip CSV/JSON), a window without PARTITION BY, or a global ORDER BY / LIMIT; split the "
            "input (" + compaction_words(formats_read(ctx)) + "), salt or filter the hot key, or add a partitioning column.";
    add_phases(d);
    d.evidence.push_back({"task time", *b.task_ms, Unit::Ms});
    d.evidence.push_back({"effective parallelism", *b.parallelism, Unit::Decimal});
    set_impact(d, p.ms, "ms", " of mostly single-task execution");
    ctx.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<Rule> make_slow_phase() { return std::make_unique<SlowPhase>(); }

}  // namespace planlint
