// PL108 aqe-disabled: a physical plan with shuffles but without AdaptiveSparkPlan: adaptive query
// execution (partition coalescing, skew-join splitting, runtime broadcast) is off for it.
#include <algorithm>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinShuffles{"min-shuffles"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "aqe-disabled";
  r.code = "PL108";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Info;
  r.summary = "Shuffles run without adaptive query execution";
  r.what =
      "Reports a physical plan that has shuffle exchanges but no AdaptiveSparkPlan node, i.e. "
      "the query ran (or will run) with adaptive query execution off.";
  r.why =
      "Without AQE, Spark keeps the static number of shuffle partitions (200 by default) whatever "
      "the data size, cannot split skewed join partitions, and cannot switch a sort-merge join to "
      "a broadcast join when a side turns out small at runtime. Most plans get slower: tiny tasks "
      "on small data, huge spilling tasks on large data, stragglers on skewed keys. AQE is on by "
      "default since Spark 3.2 and always on in Databricks SQL; a plan without it usually comes "
      "from `spark.sql.adaptive.enabled=false` left in a job or session, or an old runtime. It is "
      "reported as info, once per plan: the setting is a session default, not a property of this query.";
  r.example =
      "== Physical Plan ==\n"
      "*(5) SortMergeJoin [k#1], [k#7], Inner\n"
      ":- *(2) Sort [k#1 ASC NULLS FIRST], false, 0\n"
      ":  +- Exchange hashpartitioning(k#1, 200), ENSURE_REQUIREMENTS, [id=#31]";
  r.use_instead =
      "SET spark.sql.adaptive.enabled = true;   -- with coalescePartitions and skewJoin enabled\n"
      "== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=false\n+- SortMergeJoin ...";
  r.evidence =
      "Explain text, event logs and profiles: shuffle Exchange operators in the physical plan and "
      "the absence of AdaptiveSparkPlan. Not reported when an event log's environment has "
      "spark.sql.adaptive.enabled=true (Spark then planned the query without AQE for a reason the setting "
      "does not change, e.g. dynamic partition pruning in 3.0/3.1). The Spark version (stated by an event log, or inferred from "
      "the plan's markers: `[plan_id=`, `AQEShuffleRead`, `ENSURE_REQUIREMENTS`, formatted mode) picks the "
      "wording: off by default in 3.0 and 3.1, switched off in 3.2 and later. Not reported for Spark 2.x "
      "plans (no AQE to enable), Query Profiles (Databricks SQL always runs adaptively), logical-only "
      "inputs or streaming plans.";
  r.thresholds = {
      {kMinShuffles, 1, "exchanges", "one shuffle is enough for partition coalescing to matter"},
  };
  return r;
}

class AqeDisabled final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    // Databricks SQL always runs adaptively (a profile graph without its Adaptive Plan node is a
    // fragment, not evidence), so only explain text and event logs are judged.
    if (plan.adaptive || plan.format == InputFormat::QueryProfile) return;
    for (const Operator& op : plan.ops)
      if (op.kind == OpKind::AdaptivePlan || op.kind == OpKind::QueryStage || op.kind == OpKind::ShuffleRead)
        return;  // adaptive after all (the flag was not set by the reader)
    std::size_t shuffles = 0;
    const Operator* first = nullptr;
    for (const Operator* op : ctx.active_ops()) {  // the plan's shared list, in index order
      if (op->facts->streaming) return;  // streaming micro-batch plans never use AQE
      if (op->kind == OpKind::Exchange) {
        ++shuffles;
        if (!first) first = op;
      }
    }
    if (!first || static_cast<double>(shuffles) < ctx.threshold(kMinShuffles)) return;
    const EngineFacts& eng = plan.facts.engine;
    if (eng.spark_major && *eng.spark_major < 3) return;  // Spark 2.x: there is no AQE to switch on
    // The application had spark.sql.adaptive.enabled=true (an event log's environment) and Spark
    // still planned this query without AQE: Spark 3.0/3.1 skip it for plans with dynamic partition
    // pruning subqueries, and AQE never applies to some plans (commands, cached plans, no
    // exchange at planning time). Setting it again would change nothing.
    if (plan.facts.aqe == true) return;
    const int minor = eng.spark_minor.value_or(0);
    const bool v32_or_later = eng.spark_major && (*eng.spark_major > 3 || minor >= 2);
    const bool v30_31 = eng.spark_major && *eng.spark_major == 3 && minor < 2 && !eng.version_inferred;
    std::string version;
    if (v32_or_later || v30_31)
      version = std::to_string(*eng.spark_major) + "." + std::to_string(minor) + (v32_or_later && eng.version_inferred ? "+" : "");
    const Operator* anchor = plan_anchor(plan);
    if (!anchor) anchor = first;
    // The message in one buffer (this rule fires on most plans without AQE: no chain of growing
    // temporaries).
    std::string message;
    message.reserve(256);
    message += "the plan has ";
    message += std::to_string(shuffles);
    message += shuffles == 1 ? " shuffle exchange" : " shuffle exchanges";
    message += " but no AdaptiveSparkPlan: ";
    if (v32_or_later) {
      message += "adaptive query execution was switched off (it is on by default since Spark 3.2)";
    } else if (v30_31) {
      message += "adaptive query execution is off, the default in Spark ";
      message += version;
    } else {
      message += "adaptive query execution is off";
    }
    message += " (no partition coalescing, no skew-join handling, no runtime broadcast)";
    Diagnostic d = ctx.make(*anchor, std::move(message));
    d.evidence.reserve(4);
    if (!version.empty())
      d.evidence.push_back({eng.version_inferred ? "Spark version (from the plan's markers)" : "Spark version", version});
    if (plan.facts.aqe == false) d.evidence.push_back({"spark.sql.adaptive.enabled (environment)", "false"});
    d.evidence.push_back({"shuffle exchanges", static_cast<double>(shuffles), Unit::Count});
    d.evidence.push_back({"first exchange", op_ref(*first)});
    d.evidence.push_back({"AdaptiveSparkPlan", "absent"});
    if (v30_31)
      d.fix = "Enable AQE: `SET spark.sql.adaptive.enabled = true` (off by default before Spark 3.2), with "
              "spark.sql.adaptive.coalescePartitions.enabled and spark.sql.adaptive.skewJoin.enabled on.";
    else if (v32_or_later)
      d.fix = "Remove the `spark.sql.adaptive.enabled = false` override (job, session or cluster config): AQE is "
              "on by default since Spark 3.2; keep spark.sql.adaptive.coalescePartitions.enabled and "
              "spark.sql.adaptive.skewJoin.enabled on.";
    else
      d.fix = "Enable AQE: `SET spark.sql.adaptive.enabled = true` (default since Spark 3.2; remove any "
              "override in the job or cluster config), keeping spark.sql.adaptive.coalescePartitions.enabled "
              "and spark.sql.adaptive.skewJoin.enabled on.";
    ctx.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<Rule> make_aqe_disabled() { return std::make_unique<AqeDisabled>(); }

}  // namespace planlint
