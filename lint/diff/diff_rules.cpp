#include "lint/diff/diff_rules.hpp"

#include <stdexcept>

namespace planlint {

namespace {

RuleDoc join_regressed() {
  RuleDoc d;
  d.name = std::string(kJoinRegressed);
  d.code = "PLD001";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "A join of the same tables uses a worse strategy than before (broadcast to shuffle, a new nested-loop or cartesian join)";
  d.what =
      "Matches the joins of the old and the new plan by the tables under them and their keys (never by "
      "operator numbers or #ids) and reports a join whose strategy got worse: BroadcastHashJoin became "
      "SortMergeJoin or ShuffledHashJoin, or a hash join became BroadcastNestedLoopJoin or "
      "CartesianProduct. A nested-loop or cartesian join on tables the old plan did not join that way is "
      "reported too. The new Exchanges and Sorts the shuffle join brought are listed as evidence of "
      "this finding, not reported again.";
  d.why =
      "A broadcast join ships the small side once; a shuffle join moves and sorts both sides over the "
      "network. Nested-loop and cartesian joins compare every row with every row. Such a change usually "
      "comes from a statistics change, a dropped hint, a broken join key or a raised table size, and it "
      "is invisible when the new plan is linted alone.";
  d.example =
      "old: +- * BroadcastHashJoin Inner BuildRight (16)\n"
      "new: +- * SortMergeJoin Inner (22)";
  d.use_instead =
      "Find what changed: the size of the build side (ANALYZE TABLE, spark.sql.autoBroadcastJoinThreshold), "
      "a removed /*+ BROADCAST */ hint, a join condition that lost its equality. Restore it, or accept the "
      "change with a suppression directive in the new plan file.";
  d.evidence = "Any two plans of one query (explain text in any mode, profiles, event-log executions).";
  return d;
}

RuleDoc pushdown_lost() {
  RuleDoc d;
  d.name = std::string(kPushdownLost);
  d.code = "PLD002";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "A scan no longer pushes a filter it pushed before (PushedFilters, PartitionFilters, DataFilters)";
  d.what =
      "For each scan matched between the two plans (same table and columns), compares the entries of "
      "PushedFilters, PartitionFilters and DataFilters (profiles: the scan's filters), with #ids and "
      "dynamic-pruning subquery ids normalised away, and reports the entries the new scan lost.";
  d.why =
      "A filter the data source no longer evaluates means reading every row group, file or partition the "
      "filter used to skip. A new cast, a changed column type or a UDF around the column is the usual cause.";
  d.example =
      "old: PushedFilters: [IsNotNull(d_moy), EqualTo(d_moy,11)]\n"
      "new: PushedFilters: [IsNotNull(d_moy)]";
  d.use_instead = "Compare the predicate on the column in both queries; keep it a plain comparison on the stored column.";
  d.evidence = "Explain text (formatted mode lists the filters) and profiles.";
  return d;
}

RuleDoc new_non_sargable() {
  RuleDoc d;
  d.name = std::string(kNewNonSargable);
  d.code = "PLD003";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "The new plan has a non-sargable predicate the old one did not have";
  d.what =
      "Runs non-sargable-predicate (PL006) on both plans and reports its findings in the new plan whose "
      "fingerprint (rule, operator name and predicate with #ids removed) the old plan does not have.";
  d.why = "A function around a scan column (cast, year, substr, upper) hides it from file and partition pruning.";
  d.example =
      "old: Condition : (order_ts#12 >= 2024-03-01 00:00:00)\n"
      "new: Condition : (cast(order_ts#12 as date) = 2024-03-01)";
  d.use_instead = "Rewrite the predicate as a range on the stored column (see `planlint rule non-sargable-predicate`).";
  d.evidence = "Any format with filter conditions.";
  return d;
}

RuleDoc new_exchange() {
  RuleDoc d;
  d.name = std::string(kNewExchange);
  d.code = "PLD004";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "The new plan shuffles or sorts where the old one did not";
  d.what =
      "Reports each Exchange (shuffle) and Sort of the new plan that has no counterpart in the old plan "
      "(same kind, same tables below, same partitioning or ordering), unless a join-strategy-regressed or "
      "reuse-lost finding already explains it.";
  d.why = "Every shuffle writes and reads the whole data set over the network; every sort may spill.";
  d.example =
      "new: +- Exchange hashpartitioning(ss_customer_sk, 200) (14)\n"
      "        +- * Sort [ss_customer_sk ASC NULLS FIRST] (15)";
  d.use_instead =
      "Check whether the change altered the partitioning the plan relied on (a different GROUP BY or join "
      "key, a repartition() call, a window with another PARTITION BY).";
  d.evidence = "Any two plans of one query.";
  return d;
}

RuleDoc reuse_lost() {
  RuleDoc d;
  d.name = std::string(kReuseLost);
  d.code = "PLD005";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "A ReusedExchange or reused subquery of the old plan is computed again in the new one";
  d.what =
      "Counts ReusedExchange and ReusedSubquery operators per table set in both plans and reports each "
      "reuse the new plan lost, pointing at the exchange that now recomputes it when there is one.";
  d.why = "Exchange reuse computes a shared subtree (often a scan and a shuffle) once; without it the work is done twice.";
  d.example =
      "old: +- ReusedExchange (11)\n"
      "new: +- BroadcastExchange (15)\n"
      "        +- * Filter (13)\n"
      "           +- Scan parquet spark_catalog.default.date_dim (11)";
  d.use_instead =
      "Make both uses identical again (same filters, same columns, same expressions), and keep "
      "spark.sql.exchange.reuse enabled.";
  d.evidence = "Any two plans of one query.";
  return d;
}

RuleDoc engine_coverage() {
  RuleDoc d;
  d.name = std::string(kEngineCoverage);
  d.code = "PLD006";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "Operators (or a share of the time) moved from Photon / Velox to the JVM";
  d.what =
      "Reports each operator matched between the plans that ran in Photon or Gluten/Velox in the old plan "
      "and in Spark's JVM engine in the new one, and, with operator times on both sides, a JVM share of "
      "the time that grew by more than `share-increase` points.";
  d.why =
      "Row-based JVM operators between native ones add conversions and run several times slower; the "
      "usual cause is a new function, type or UDF the native engine does not support.";
  d.example =
      "old: PhotonGroupingAgg (12)\n"
      "new: HashAggregate (12)   (the Photon explanation names the unsupported expression)";
  d.use_instead = "Find the expression the native engine rejects (`planlint check` reports native-engine-fallback with its reason) and replace it.";
  d.evidence = "Plans printed by Photon or Gluten (explain text, profiles).";
  d.thresholds = {{"share-increase", 10, "percent", "A 10-point move of the time to the JVM is more than run-to-run noise."}};
  return d;
}

RuleDoc adaptive_lost() {
  RuleDoc d;
  d.name = std::string(kAdaptiveLost);
  d.code = "PLD007";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "Adaptive query execution or its skew-join handling is off in the new plan";
  d.what =
      "Reports a new plan without AdaptiveSparkPlan when the old plan had it, and a join matched between "
      "the plans that handled skew in the old plan (skew=true, isSkew) and no longer does.";
  d.why =
      "Without AQE, Spark keeps the shuffle partition count, the join strategies and skewed partitions "
      "as planned before any data was seen.";
  d.example = "old: AdaptiveSparkPlan isFinalPlan=true\nnew: (no AdaptiveSparkPlan)";
  d.use_instead = "spark.sql.adaptive.enabled=true and spark.sql.adaptive.skewJoin.enabled=true (the defaults since Spark 3.2).";
  d.evidence = "Any physical plans; skew handling only shows in final (executed) plans.";
  return d;
}

RuleDoc metric_regressed() {
  RuleDoc d;
  d.name = std::string(kMetricRegressed);
  d.code = "PLD008";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Warning;
  d.summary = "Size, rows, time, spill or shuffle bytes grew by more than a factor, per operator or per query";
  d.what =
      "With statistics or runtime metrics on both sides, compares each matched operator's output rows, "
      "time, size statistics, spill and shuffle bytes, and the query's total time, spill and bytes read; "
      "reports a value that grew by `factor` or more and by at least the minimum for its unit.";
  d.why =
      "The method alerts on a 1.5x slowdown: growth the plan shape does not show (more rows "
      "through a join, a new spill) is a regression all the same.";
  d.example = "old: PhotonGroupingAgg (6134)  time 2 min 10 s\nnew: PhotonGroupingAgg (6134)  time 10 h 56 min, spill 415.4 GiB";
  d.use_instead = "Look at the operator on both sides (`planlint show OLD` / `planlint show NEW`) for the input that grew.";
  d.evidence = "Profiles, event logs, AQE query-stage Statistics, cost-mode statistics.";
  d.thresholds = {
      {"factor", 1.5, "ratio", "The troubleshooting method's alert level (recent p95 at 1.5x the baseline)."},
      {"min-bytes", 64.0 * 1024 * 1024, "bytes", "Growth by less than 64 MiB is noise for a Spark job."},
      {"min-rows", 1e6, "rows", "Growth by less than a million rows is noise."},
      {"min-ms", 1000, "ms", "Growth by less than a second of operator time is noise."},
  };
  return d;
}

RuleDoc plan_improved() {
  RuleDoc d;
  d.name = std::string(kPlanImproved);
  d.code = "PLD090";
  d.family = RuleFamily::Diff;
  d.severity = Severity::Info;
  d.summary = "Something got better: a better join strategy, a filter pushed, a shuffle removed, a metric down";
  d.what =
      "The mirror of PLD001-PLD008: each improvement the diff finds is listed, so a reviewer sees both "
      "sides of a change. Info severity: it never fails a check at the default --fail-on.";
  d.why = "Not bad at all; it tells the reviewer the change did what it meant to do.";
  d.example = "old: SortMergeJoin Inner (22)\nnew: BroadcastHashJoin Inner BuildRight (16)";
  d.use_instead = "Nothing to change. `--ignore plan-improved` hides these.";
  d.evidence = "As for the regression findings.";
  return d;
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
