// shuffle-join-could-broadcast (PL002): a shuffle join one of whose sides is known to be small.
#include <memory>

#include "model/plan_walk.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"
#include "rules/thresholds.hpp"

namespace planlint {

namespace {

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "shuffle-join-could-broadcast";
  d.code = "PL002";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A SortMergeJoin / ShuffledHashJoin shuffles both sides although one side is small enough to broadcast";
  d.what =
      "Finds a SortMergeJoin (the classic case) or ShuffledHashJoin, Spark's or Photon's, where a side "
      "that the join type allows to be broadcast (either side of an inner or cross join, the right side "
      "of a left outer / semi / anti / existence join, the left side of a right outer join, never a side "
      "of a full outer join) is known to be no larger than the broadcast threshold. When the query's SQL "
      "text carries a `SHUFFLE_HASH` / `MERGE` hint, the message says that the hint forced the shuffle.";
  d.why =
      "A shuffle join repartitions both inputs by the join key: every row of the large side is "
      "serialised, written to local disk, sent over the network and (for a sort-merge join) sorted, "
      "before a single row is joined. When one side is small, a broadcast hash join sends that side once "
      "to every executor and joins the large side where it already is: no shuffle of the large side, no "
      "sort, and no skew on the join key. Spark chooses a broadcast itself only when its size estimate is "
      "below `spark.sql.autoBroadcastJoinThreshold` (10 MiB); estimates are often far too high (no table "
      "statistics, a filter or aggregate it cannot estimate), a hint may force the shuffle, or AQE may "
      "have refused to convert the join at run time. The measured size of the shuffled side is the proof "
      "that the broadcast would have been cheap.";
  d.example =
      "SortMergeJoin Inner (12)\n"
      ":- Sort (5)\n"
      ":  +- AQEShuffleRead (4)\n"
      ":     +- ShuffleQueryStage (3), Statistics(sizeInBytes=48.2 GiB, rowCount=1.2E+9)\n"
      "+- Sort (11)\n"
      "   +- AQEShuffleRead (10)\n"
      "      +- ShuffleQueryStage (9), Statistics(sizeInBytes=3.2 MiB, rowCount=4.1E+4)";
  d.use_instead =
      "SELECT /*+ BROADCAST(d) */ f.*, d.name\n"
      "FROM fact f JOIN dim d ON f.dim_id = d.id\n"
      "\n"
      "-- or let Spark decide with up-to-date statistics / a larger threshold:\n"
      "ANALYZE TABLE dim COMPUTE STATISTICS;\n"
      "SET spark.sql.autoBroadcastJoinThreshold = 64MB;";
  d.evidence =
      "A size for the join input: `Statistics(sizeInBytes=..., rowCount=...)` on the AQE query stage "
      "feeding the join (explain text of an executed adaptive plan), the `Statistics` of the matching "
      "join input in the optimized logical plan of `EXPLAIN COST` (an estimate), or the shuffle metrics of "
      "the exchange feeding the join in a Query Profile (`AQEShuffleRead - Partition data size`, "
      "`Sink - Num bytes written`, `Exchange - Data size`; the largest is used). Below an AQE shuffle read "
      "the uncompressed size Spark compares with the threshold comes first: the query stage's "
      "`sizeInBytes` or the exchange's `data size` (event logs, History Server answers); the read's "
      "`partition data size` (compressed shuffle bytes) only when neither is known. "
      "The size is taken through "
      "operators whose output is never larger than their input (a Filter, a Project that only keeps or renames "
      "columns, a final or merge HashAggregate): the measured size below them is then an upper bound of the "
      "side (\"at most\"), and the evidence names the operator it was taken through. Without a size the rule "
      "reports nothing.";
  d.thresholds = {
      broadcast_threshold(
          "spark.sql.autoBroadcastJoinThreshold (10 MiB), the size under which Spark itself broadcasts a side. "
          "Databricks' AQE uses 30 MB (spark.databricks.adaptive.autoBroadcastJoinThreshold): set 31457280 there.")};
  return d;
}

bool can_broadcast(JoinType t, BuildSide side) {
  switch (t) {
    case JoinType::Inner:
    case JoinType::Cross: return true;
    case JoinType::LeftOuter:
    case JoinType::LeftSemi:
    case JoinType::LeftAnti:
    case JoinType::ExistenceJoin:
    case JoinType::LeftSingle: return side == BuildSide::Right;
    case JoinType::RightOuter: return side == BuildSide::Left;
    default: return false;
  }
}

// The size of one side: runtime evidence first, then the cost-mode estimate.
SideSize side_size(const Plan& plan, const LogicalJoins& logical, const Operator& join, std::size_t pos) {
  SideSize s = input_size_bound(plan, join.children[pos]);
  if (s.bytes) return s;
  if (const Operator* lj = logical.find(join)) {
    const Operator* ch = logical_child(plan, *lj, pos == 0 ? BuildSide::Left : BuildSide::Right);
    if (ch && ch->stats()->size_bytes && !ch->stats()->masked) {
      SideSize e;
      e.bytes = ch->stats()->size_bytes;
      e.rows = ch->stats()->row_count;
      e.source = ch;
      e.estimate = true;
      e.what = "estimated Statistics(sizeInBytes=" + format_bytes(*ch->stats()->size_bytes) + ") of the logical " +
               op_ref(*ch);
      return e;
    }
  }
  return s;
}

class ShuffleJoinCouldBroadcast final : public DocumentedRule<make_doc> {
 public:
  [[nodiscard]] bool explains() const override { return true; }
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const LogicalJoins& logical = ctx.logical_joins();
    const double threshold = ctx.threshold(kBroadcastThreshold);
    const auto& hints = plan.facts.sql_hints;
    for (const Operator* op : ctx.active_ops()) {
      if (op->kind != OpKind::Join || op->children.size() != 2) continue;
      if (op->join->strategy != JoinStrategy::SortMerge && op->join->strategy != JoinStrategy::ShuffledHash) {
        if (ctx.explaining())
          ctx.why(*op, "a SortMergeJoin or ShuffledHashJoin", "it already is a " + std::string(to_string(op->join->strategy)) + " join");
        continue;
      }
      SideSize sizes[2] = {side_size(plan, logical, *op, 0), side_size(plan, logical, *op, 1)};
      int best = -1;
      std::string missing;
      for (int pos = 0; pos < 2; ++pos) {
        const char* side = pos == 0 ? "left" : "right";
        if (!can_broadcast(op->join->type, pos == 0 ? BuildSide::Left : BuildSide::Right)) {
          if (ctx.explaining())
            missing += std::string(missing.empty() ? "" : "; ") + "the " + side + " side cannot be broadcast in a " +
                     (op->join->type_text.empty() ? std::string(to_string(op->join->type)) : op->join->type_text.str()) + " join";
          continue;
        }
        if (!sizes[pos].bytes) {
          if (ctx.explaining())
            missing += std::string(missing.empty() ? "" : "; ") + "no size for the " + side +
                     " side (no Statistics(sizeInBytes), query-stage size or runtime metric)";
          continue;
        }
        if (*sizes[pos].bytes > threshold) {
          if (ctx.explaining())
            missing += std::string(missing.empty() ? "" : "; ") + "the " + side + " side is " + format_bytes(*sizes[pos].bytes) +
                     ", above the threshold";
          continue;
        }
        if (best < 0 || *sizes[pos].bytes < *sizes[best].bytes) best = pos;
      }
      if (best < 0) {
        if (ctx.explaining())
          ctx.why(*op, "a side that may be broadcast with a known size at most " + format_bytes(threshold), missing);
        continue;
      }
      const SideSize& small = sizes[best];
      const SideSize& other = sizes[1 - best];
      const char* side = best == 0 ? "left" : "right";

      // A hint in the SQL text that forced this shuffle join.
      std::string forced;
      std::string hinted_alias;  // the small side's name as the query's hint writes it
      std::set<std::string> names = side_names(plan, *op, 0);
      for (const auto& n : side_names(plan, *op, 1)) names.insert(n);
      for (const auto& h : hints) {
        if (!is_shuffle_hint(h.kind)) continue;
        bool applies = h.args.empty();
        for (const auto& a : h.args) applies = applies || names.count(lower(a)) > 0;
        if (!applies) continue;
        forced = h.name + "(";
        for (std::size_t i = 0; i < h.args.size(); ++i) {
          forced += (i ? ", " : "") + h.args[i];
          if (side_names(plan, *op, best).count(lower(h.args[i]))) hinted_alias = h.args[i];
        }
        forced += ")";
        break;
      }

      if (forced.empty())
        if (const Operator* lj = logical.find(*op))
          for (const auto& h : *lj->hints()) {
            std::string st = lower(h.strategy);
            if (is_shuffle_hint(h.kind))
              forced = std::string(h.side == BuildSide::Left ? "leftHint" : "rightHint") + "=(strategy=" + st + ")";
          }

      std::string join_name = op->join->strategy == JoinStrategy::SortMerge ? "shuffles and sorts both sides"
                                                                           : "shuffles both sides";
      std::string msg = op_ref(*op) + " " + join_name + " although the " + side + " side is " +
                        (small.through ? "at most " : "") + format_bytes(*small.bytes) + " (" +
                        (small.estimate ? "estimated by the logical " : "") +
                        (small.source ? op_ref(*small.source) : std::string("?")) +
                        (small.through ? " below " + op_ref(*small.through) : std::string()) + ", below the " +
                        format_bytes(threshold) + " broadcast threshold)";
      if (other.bytes) msg += " and the other side is " + std::string(other.through ? "at most " : "") + format_bytes(*other.bytes);
      if (!forced.empty())
        msg += "; the " + forced + " hint" + (forced.find('=') == std::string::npos ? " in the SQL text" : "") +
               " forces the shuffle";
      Diagnostic d = ctx.make(*op, msg);
      d.evidence.push_back({std::string(side) + " side size", *small.bytes, Unit::BytesExact});
      if (small.rows)
        d.evidence.push_back({std::string(side) + (small.through ? " side rows (at most)" : " side rows"), *small.rows, Unit::Rows});
      d.evidence.push_back({std::string(side) + " side size from", small.what});
      if (small.through)
        d.evidence.push_back({std::string(side) + " side size bound",
                              "an upper bound: " + op_ref(*small.through) +
                                  " (and any filter, aggregate or narrowing projection above it) outputs at most what it reads"});
      if (other.bytes) d.evidence.push_back({std::string(best == 0 ? "right" : "left") + " side size", *other.bytes, Unit::BytesExact});
      d.evidence.push_back({"broadcast threshold", threshold, Unit::BytesExact});
      d.evidence.push_back({"join type", op->join->type_text.empty() ? std::string(to_string(op->join->type))
                                                                          : op->join->type_text.str()});
      if (!forced.empty()) d.evidence.push_back({"hint", forced});
      if (other.bytes) {
        set_impact(d, *other.bytes, "bytes", " shuffled that a broadcast join would not move", other.through ? "up to " : "");
      }
      std::string target = "the " + std::string(side) + " side";
      if (const Operator* scan = single_scan_under(plan, op->children[best]); scan && !scan->table().empty())
        target = scan->table();
      if (!hinted_alias.empty()) target = hinted_alias;
      if (!forced.empty())
        d.fix = "Remove the " + forced + " hint: with it gone Spark (or AQE) broadcasts " + target +
                " by itself; or replace it with /*+ BROADCAST(" + target + ") */.";
      else
        d.fix = "Broadcast " + target + ": add /*+ BROADCAST(" + target +
                ") */ to the query (broadcast() in the DataFrame API), or raise spark.sql.autoBroadcastJoinThreshold "
                "(and spark.sql.adaptive.autoBroadcastJoinThreshold) above " + format_bytes(*small.bytes) +
                "; refresh the table statistics (ANALYZE TABLE ... COMPUTE STATISTICS) if the estimate was wrong.";
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_shuffle_join_could_broadcast() { return std::make_unique<ShuffleJoinCouldBroadcast>(); }

}  // namespace planlint
