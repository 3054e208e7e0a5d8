// PL108 aqe-disabled: a physical plan with shuffles but without AdaptiveSparkPlan: adaptive query
// execution (partition coalescing, skew-join splitting, runtime broadcast) is off for it.
#include <algorithm>

#include "parser/model/phases.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

// Streaming micro-batch plans never use AQE: not a configuration problem.
bool is_streaming(const Operator& op) {
  return contains(op.name, "StateStore") || contains(op.name, "StreamingSymmetricHashJoin") ||
         contains(op.name, "MicroBatch") || contains(op.name, "StreamingDeduplicate") ||
         contains(op.name, "EventTimeWatermark") || contains(op.name, "FlatMapGroupsWithState") ||
         contains(op.name, "TransformWithState") || contains(op.name, "StreamingGlobalLimit");
}

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "aqe-disabled";
  r.code = "PL108";
  r.severity = Severity::Warning;
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
      "from `spark.sql.adaptive.enabled=false` left in a job or session, or an old runtime.";
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
      "the absence of AdaptiveSparkPlan. Not reported for Query Profiles (Databricks SQL always runs "
      "adaptively), logical-only inputs or streaming plans.";
  r.thresholds = {
      {"min-shuffles", 1, "exchanges", "one shuffle is enough for partition coalescing to matter"},
  };
  return r;
}

class AqeDisabled final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const bool final_plan = rules::has_final_plan(plan);
    // Databricks SQL always runs adaptively (a profile graph without its Adaptive Plan node is a
    // fragment, not evidence), so only explain text and event logs are judged.
    if (plan.adaptive || plan.format == InputFormat::QueryProfile) return;
    std::size_t shuffles = 0;
    const Operator* first = nullptr;
    for (const Operator& op : plan.ops) {
      if (op.kind == OpKind::AdaptivePlan || op.kind == OpKind::QueryStage || op.kind == OpKind::ShuffleRead)
        return;  // adaptive after all (the flag was not set by the reader)
      if (!rules::is_active(op, final_plan)) continue;
      if (is_streaming(op)) return;
      if (op.kind == OpKind::Exchange) {
        ++shuffles;
        if (!first) first = &op;
      }
    }
    if (!first || static_cast<double>(shuffles) < ctx.threshold("min-shuffles")) return;
    const Operator* anchor = method::plan_anchor(plan);
    if (!anchor) anchor = first;
    Diagnostic d = ctx.make(*anchor, "the plan has " + std::to_string(shuffles) + " shuffle exchange" +
                                         (shuffles == 1 ? "" : "s") +
                                         " but no AdaptiveSparkPlan: adaptive query execution is off "
                                         "(no partition coalescing, no skew-join handling, no runtime broadcast)");
    d.evidence.push_back({"shuffle exchanges", std::to_string(shuffles), static_cast<double>(shuffles), ""});
    d.evidence.push_back({"first exchange", rules::op_ref(*first), std::nullopt, ""});
    d.evidence.push_back({"AdaptiveSparkPlan", "absent", std::nullopt, ""});
    d.fix = "Enable AQE: `SET spark.sql.adaptive.enabled = true` (default since Spark 3.2; remove any "
            "override in the job or cluster config), keeping spark.sql.adaptive.coalescePartitions.enabled "
            "and spark.sql.adaptive.skewJoin.enabled on.";
    ctx.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<Rule> make_aqe_disabled() { return std::make_unique<AqeDisabled>(); }

}  // namespace planlint
