// stale-broadcast-hint (PL004): a broadcast hint forces the broadcast of a side that is far too big.
// Also reports oversized-broadcast: a huge broadcast with no visible hint.
#include <memory>

#include "model/plan_walk.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"
#include "rules/thresholds.hpp"

namespace planlint {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kStaleHintFactor{"stale-hint-factor"};
inline constexpr ThresholdKey kStaleHintBytes{"stale-hint-bytes"};
inline constexpr ThresholdKey kOversizedBroadcastBytes{"oversized-broadcast-bytes"};

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "stale-broadcast-hint";
  d.code = "PL004";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A BROADCAST hint forces the broadcast of a side that is far larger than a broadcast should be";
  d.also_reports = {{"oversized-broadcast", "PL010",
                     "A broadcast with no visible hint is far larger than a broadcast should be"}};
  d.what =
      "Finds a broadcast join (BroadcastHashJoin, BroadcastNestedLoopJoin, Photon's executor broadcast) "
      "whose broadcast side is forced by a `BROADCAST` / `BROADCASTJOIN` / `MAPJOIN` hint (in the SQL "
      "text of a Query Profile, or `ResolvedHint (strategy=broadcast)` / `rightHint=(strategy=broadcast)` "
      "in a logical plan) and whose measured or estimated size is above `stale-hint-bytes` (1 GiB) or "
      "above `stale-hint-factor` (10) times the broadcast threshold. A broadcast above "
      "`oversized-broadcast-bytes` with no visible hint is reported as `oversized-broadcast`.";
  d.why =
      "A hint is a decision frozen at the time the query was written. Tables grow; the dimension that had "
      "20,000 rows now has 200 million, and the hint still makes Spark collect all of it on the driver, "
      "build a hash table and send a copy to every executor. That costs driver memory (Spark refuses "
      "broadcasts over 8 GB and fails jobs on driver OOM), network (size × executors) and executor "
      "memory, and a timeout (spark.sql.broadcastTimeout) cancels the query. Without the hint, Spark and "
      "AQE pick a shuffle join from current statistics. A huge broadcast with no hint usually means a raised "
      "autoBroadcastJoinThreshold or statistics that badly under-estimate the side.";
  d.example =
      "SELECT /*+ BROADCAST(c) */ o.*, c.segment\n"
      "FROM orders o JOIN customers c ON o.customer_id = c.id\n"
      "\n"
      "BroadcastHashJoin Inner BuildRight (10)\n"
      "+- BroadcastQueryStage (8), Statistics(sizeInBytes=2.4 GiB, rowCount=2.1E+8)";
  d.use_instead =
      "SELECT o.*, c.segment\n"
      "FROM orders o JOIN customers c ON o.customer_id = c.id   -- no hint: AQE chooses\n"
      "\n"
      "-- if only a few customers are needed, shrink the side first and keep the broadcast:\n"
      "... JOIN (SELECT id, segment FROM customers WHERE active) c ...";
  d.evidence =
      "The size of the broadcast side: `Statistics(sizeInBytes=...)` on a BroadcastQueryStage (executed "
      "AQE plan), the data size / shuffle metrics of the broadcast exchange in a Query Profile, or the "
      "`Statistics` of the join input in an `EXPLAIN COST` optimized logical plan (an estimate). The hint "
      "comes from the SQL text (`/*+ BROADCAST(t) */`, matched to the side by table name or alias) or "
      "from the logical plan's join hints. Without a size, nothing is reported.";
  d.thresholds = {
      broadcast_threshold(
          "spark.sql.autoBroadcastJoinThreshold (10 MiB); Databricks' AQE uses 30 MB."),
      {kStaleHintFactor, 10, "ratio",
       "A hinted side 10× over the threshold Spark would pick by itself is no longer a small table."},
      {kStaleHintBytes, kGiB, "bytes",
       "1 GiB: DataFlint's large-broadcast alert; far beyond what a broadcast should carry (Spark's hard limit is 8 GB)."},
      {kOversizedBroadcastBytes, kGiB, "bytes",
       "1 GiB: without a hint a broadcast this large is reported as oversized-broadcast."}};
  return d;
}

class StaleBroadcastHint final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const LogicalJoins& logical = ctx.logical_joins();
    const double threshold = ctx.threshold(kBroadcastThreshold);
    const double stale_limit =
        std::min(ctx.threshold(kStaleHintBytes), ctx.threshold(kStaleHintFactor) * threshold);
    const double oversized = ctx.threshold(kOversizedBroadcastBytes);
    const auto& hints = plan.facts.sql_hints;

    for (const Operator* op : ctx.active_ops()) {
      if (op->kind != OpKind::Join || op->children.size() != 2) continue;
      if (op->join->strategy != JoinStrategy::BroadcastHash && op->join->strategy != JoinStrategy::BroadcastNestedLoop)
        continue;
      if (op->join->build == BuildSide::None) continue;
      std::size_t pos = op->join->build == BuildSide::Left ? 0 : 1;
      const char* side = pos == 0 ? "left" : "right";

      SideSize size = input_size(plan, op->children[pos]);
      const Operator* lj = logical.find(*op);
      if (!size.bytes && lj) {
        const Operator* ch = logical_child(plan, *lj, op->join->build);
        if (ch && ch->stats()->size_bytes && !ch->stats()->masked) {
          size.bytes = ch->stats()->size_bytes;
          size.rows = ch->stats()->row_count;
          size.source = ch;
          size.estimate = true;
          size.what = "estimated Statistics of the logical " + op_ref(*ch);
        }
      }
      if (!size.bytes) continue;

      // Is the broadcast forced by a hint on this side?
      std::string hint;
      auto names = side_names(plan, *op, pos);
      for (const auto& h : hints) {
        if (h.kind != HintKind::Broadcast) continue;
        for (const auto& a : h.args)
          if (names.count(lower(a))) hint = h.name + "(" + a + ") hint in the SQL text";
      }
      if (hint.empty() && lj) {
        for (const auto& h : *lj->hints())
          if (h.kind == HintKind::Broadcast && (h.side == op->join->build || h.side == BuildSide::None))
            hint = std::string(h.side == BuildSide::Left ? "leftHint" : h.side == BuildSide::Right ? "rightHint" : "") +
                   "=(strategy=broadcast) hint in the logical plan";
      }

      const double bytes = *size.bytes;
      std::string src = std::string(size.estimate ? "estimated by the logical " : "") +
                        (size.source ? op_ref(*size.source) : std::string("?"));
      Diagnostic d;
      if (!hint.empty()) {
        if (bytes <= stale_limit) continue;
        d = ctx.make(*op, op_ref(*op) + " broadcasts the " + side + " side although it is " + format_bytes(bytes) + " (" +
                              src + "), " + format_ratio(bytes / threshold) + " the " + format_bytes(threshold) +
                              " broadcast threshold: the " + hint + " forces it");
        d.evidence.push_back({"hint", hint});
        d.fix = "Remove the broadcast hint and let Spark / AQE choose the join from current statistics; if the "
                "side should be small, filter or aggregate it before the join so it fits under the threshold.";
      } else {
        if (bytes <= oversized) continue;
        d = ctx.make_as("oversized-broadcast", *op,
                        op_ref(*op) + " broadcasts " + format_bytes(bytes) + " (" + side + " side, " + src +
                            "): the driver collects it and every executor holds a copy");
        d.fix = "Stop broadcasting this side: lower spark.sql.autoBroadcastJoinThreshold (and "
                "spark.sql.adaptive.autoBroadcastJoinThreshold) if it was raised, refresh the table statistics "
                "(ANALYZE TABLE ... COMPUTE STATISTICS) if the estimate was wrong, or filter the side before the join.";
      }
      d.evidence.push_back({"broadcast side size", bytes, Unit::BytesExact});
      if (size.rows) d.evidence.push_back({"broadcast side rows", *size.rows, Unit::Rows});
      d.evidence.push_back({"size from", size.what});
      d.evidence.push_back({"broadcast threshold", threshold, Unit::BytesExact});
      set_impact(d, bytes, "bytes", " sent to every executor");
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_stale_broadcast_hint() { return std::make_unique<StaleBroadcastHint>(); }

}  // namespace planlint
