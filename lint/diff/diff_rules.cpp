#include "lint/diff/diff_rules.hpp"

#include <stdexcept>

namespace planlint {

namespace {

RuleDoc join_regressed() {
  return RuleDoc{
      .name = std::string(kJoinRegressed),
      .code = "PLD001",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "A join of the same tables uses a worse strategy than before (broadcast to shuffle, a new nested-loop or cartesian join)",
      .what =
          "Matches the joins of the old and the new plan by the tables under them and their keys (never by "
          "operator numbers or #ids) and reports a join whose strategy got worse: BroadcastHashJoin became "
          "SortMergeJoin or ShuffledHashJoin, or a hash join became BroadcastNestedLoopJoin or "
          "CartesianProduct. A nested-loop or cartesian join on tables the old plan did not join that way is "
          "reported too. The new Exchanges and Sorts the shuffle join brought are listed as evidence of "
          "this finding, not reported again; so are the joins that turned into shuffle joins with it when the "
          "join order changed too (they have no counterpart), with their exchanges and sorts, when the new plan "
          "has more shuffle joins than the old one (then one finding of their own when no paired join regressed).",
      .why =
          "A broadcast join ships the small side once; a shuffle join moves and sorts both sides over the "
          "network. Nested-loop and cartesian joins compare every row with every row. Such a change usually "
          "comes from a statistics change, a dropped hint, a broken join key or a raised table size, and it "
          "is invisible when the new plan is linted alone.",
      .example =
          "old: +- * BroadcastHashJoin Inner BuildRight (16)\n"
          "new: +- * SortMergeJoin Inner (22)",
      .use_instead =
          "Find what changed: the size of the build side (ANALYZE TABLE, spark.sql.autoBroadcastJoinThreshold), "
          "a removed /*+ BROADCAST */ hint, a join condition that lost its equality. Restore it, or accept the "
          "change with a suppression directive in the new plan file.",
      .evidence = "Any two plans of one query (explain text in any mode, profiles, event-log executions).",
  };
}

RuleDoc pushdown_lost() {
  return RuleDoc{
      .name = std::string(kPushdownLost),
      .code = "PLD002",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "A scan no longer pushes a filter it pushed before (PushedFilters, PartitionFilters, DataFilters)",
      .what =
          "For each scan matched between the two plans (same table and columns), compares the entries of "
          "PushedFilters, PartitionFilters and DataFilters (profiles: the scan's filters), with #ids and "
          "dynamic-pruning subquery ids normalised away, and reports the entries the new scan lost.",
      .why =
          "A filter the data source no longer evaluates means reading every row group, file or partition the "
          "filter used to skip. A new cast, a changed column type or a UDF around the column is the usual cause.",
      .example =
          "old: PushedFilters: [IsNotNull(d_moy), EqualTo(d_moy,11)]\n"
          "new: PushedFilters: [IsNotNull(d_moy)]",
      .use_instead = "Compare the predicate on the column in both queries; keep it a plain comparison on the stored column.",
      .evidence = "Explain text (formatted mode lists the filters) and profiles.",
  };
}

RuleDoc new_non_sargable() {
  return RuleDoc{
      .name = std::string(kNewNonSargable),
      .code = "PLD003",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "The new plan has a non-sargable predicate the old one did not have",
      .what =
          "Runs non-sargable-predicate (PL006) on both plans and reports its findings in the new plan whose "
          "fingerprint (rule, operator name and predicate with #ids removed) the old plan does not have.",
      .why = "A function around a scan column (cast, year, substr, upper) hides it from file and partition pruning.",
      .example =
          "old: Condition : (order_ts#12 >= 2024-03-01 00:00:00)\n"
          "new: Condition : (cast(order_ts#12 as date) = 2024-03-01)",
      .use_instead = "Rewrite the predicate as a range on the stored column (see `planlint rule non-sargable-predicate`).",
      .evidence = "Any format with filter conditions.",
  };
}

RuleDoc new_exchange() {
  return RuleDoc{
      .name = std::string(kNewExchange),
      .code = "PLD004",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "The new plan shuffles or sorts where the old one did not",
      .what =
          "Reports each Exchange (shuffle) and Sort of the new plan that has no counterpart in the old plan "
          "(same kind, same tables below, same partitioning or ordering), unless a join-strategy-regressed or "
          "reuse-lost finding already explains it.",
      .why = "Every shuffle writes and reads the whole data set over the network; every sort may spill.",
      .example =
          "new: +- Exchange hashpartitioning(ss_customer_sk, 200) (14)\n"
          "        +- * Sort [ss_customer_sk ASC NULLS FIRST] (15)",
      .use_instead =
          "Check whether the change altered the partitioning the plan relied on (a different GROUP BY or join "
          "key, a repartition() call, a window with another PARTITION BY).",
      .evidence = "Any two plans of one query.",
  };
}

RuleDoc reuse_lost() {
  return RuleDoc{
      .name = std::string(kReuseLost),
      .code = "PLD005",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "A ReusedExchange or reused subquery of the old plan is computed again in the new one",
      .what =
          "Counts ReusedExchange and ReusedSubquery operators per table set in both plans and reports each "
          "reuse the new plan lost, pointing at the exchange that now recomputes it when there is one.",
      .why = "Exchange reuse computes a shared subtree (often a scan and a shuffle) once; without it the work is done twice.",
      .example =
          "old: +- ReusedExchange (11)\n"
          "new: +- BroadcastExchange (15)\n"
          "        +- * Filter (13)\n"
          "           +- Scan parquet spark_catalog.default.date_dim (11)",
      .use_instead =
          "Make both uses identical again (same filters, same columns, same expressions), and keep "
          "spark.sql.exchange.reuse enabled.",
      .evidence = "Any two plans of one query.",
  };
}

RuleDoc engine_coverage() {
  return RuleDoc{
      .name = std::string(kEngineCoverage),
      .code = "PLD006",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "Operators (or a share of the time) moved from Photon / Velox to the JVM",
      .what =
          "Reports each operator matched between the plans that ran in Photon or Gluten/Velox in the old plan "
          "and in Spark's JVM engine in the new one, and, with operator times on both sides, a JVM share of "
          "the time that grew by more than `share-increase` points.",
      .why =
          "Row-based JVM operators between native ones add conversions and run several times slower; the "
          "usual cause is a new function, type or UDF the native engine does not support.",
      .example =
          "old: PhotonGroupingAgg (12)\n"
          "new: HashAggregate (12)   (the Photon explanation names the unsupported expression)",
      .use_instead = "Find the expression the native engine rejects (`planlint check` reports native-engine-fallback with its reason) and replace it.",
      .evidence = "Plans printed by Photon or Gluten (explain text, profiles).",
      .thresholds = {{"share-increase", 10, "percent", "A 10-point move of the time to the JVM is more than run-to-run noise."}},
  };
}

RuleDoc adaptive_lost() {
  return RuleDoc{
      .name = std::string(kAdaptiveLost),
      .code = "PLD007",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "Adaptive query execution or its skew-join handling is off in the new plan",
      .what =
          "Reports a new plan without AdaptiveSparkPlan when the old plan had it, and a join matched between "
          "the plans that handled skew in the old plan (skew=true, isSkew) and no longer does.",
      .why =
          "Without AQE, Spark keeps the shuffle partition count, the join strategies and skewed partitions "
          "as planned before any data was seen.",
      .example = "old: AdaptiveSparkPlan isFinalPlan=true\nnew: (no AdaptiveSparkPlan)",
      .use_instead = "spark.sql.adaptive.enabled=true and spark.sql.adaptive.skewJoin.enabled=true (the defaults since Spark 3.2).",
      .evidence = "Any physical plans; skew handling only shows in final (executed) plans.",
  };
}

RuleDoc metric_regressed() {
  return RuleDoc{
      .name = std::string(kMetricRegressed),
      .code = "PLD008",
      .family = RuleFamily::Diff,
      .severity = Severity::Warning,
      .summary = "Size, rows, time, spill or shuffle bytes grew by more than a factor, per operator or per query",
      .what =
          "With statistics or runtime metrics on both sides, compares each matched operator's output rows, "
          "time, size statistics, spill and shuffle bytes, and the query's total time, spill and bytes read; "
          "reports a value that grew by `factor` or more and by at least the minimum for its unit.",
      .why =
          "The method alerts on a 1.5x slowdown: growth the plan shape does not show (more rows "
          "through a join, a new spill) is a regression all the same.",
      .example = "old: PhotonGroupingAgg (6134)  time 2 min 10 s\nnew: PhotonGroupingAgg (6134)  time 10 h 56 min, spill 415.4 GiB",
      .use_instead = "Look at the operator on both sides (`planlint show OLD` / `planlint show NEW`) for the input that grew.",
      .evidence = "Profiles, event logs, AQE query-stage Statistics, cost-mode statistics.",
      .thresholds = {
          {"factor", 1.5, "ratio", "The troubleshooting method's alert level (recent p95 at 1.5x the baseline)."},
          {"min-bytes", 64.0 * 1024 * 1024, "bytes", "Growth by less than 64 MiB is noise for a Spark job."},
          {"min-rows", 1e6, "rows", "Growth by less than a million rows is noise."},
          {"min-ms", 1000, "ms", "Growth by less than a second of operator time is noise."},
      },
  };
}

RuleDoc plan_improved() {
  return RuleDoc{
      .name = std::string(kPlanImproved),
      .code = "PLD090",
      .family = RuleFamily::Diff,
      .severity = Severity::Info,
      .summary = "Something got better: a better join strategy, a filter pushed, a shuffle removed, a metric down",
      .what =
          "The mirror of PLD001-PLD008: each improvement the diff finds is listed, so a reviewer sees both "
          "sides of a change. Info severity: it never fails a check at the default --fail-on.",
      .why = "Not bad at all; it tells the reviewer the change did what it meant to do.",
      .example = "old: SortMergeJoin Inner (22)\nnew: BroadcastHashJoin Inner BuildRight (16)",
      .use_instead = "Nothing to change. `--ignore plan-improved` hides these.",
      .evidence = "As for the regression findings.",
  };
}

}  // namespace

const std::vector<const RuleDoc*>& diff_rule_docs() {
  static const std::vector<RuleDoc> docs{join_regressed(),  pushdown_lost(),  new_non_sargable(),
                                         new_exchange(),    reuse_lost(),     engine_coverage(),
                                         adaptive_lost(),   metric_regressed(), plan_improved()};
  static const std::vector<const RuleDoc*> ptrs = [] {
    std::vector<const RuleDoc*> v;
    for (const auto& d : docs) v.push_back(&d);
    return v;
  }();
  return ptrs;
}

const RuleDoc& diff_rule_doc(std::string_view name) {
  for (const RuleDoc* d : diff_rule_docs())
    if (d->name == name) return *d;
  throw std::logic_error("unknown diff rule");
}

void register_diff_rules(RuleCatalog& catalog) { catalog.add(RuleGroup{"diff", diff_rule_docs()}); }

}  // namespace planlint
