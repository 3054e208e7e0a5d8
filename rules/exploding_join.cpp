// exploding-join (PL005): a join that returns far more rows than it reads.
// Also reports cartesian-product: CartesianProduct / BroadcastNestedLoopJoin without a condition,
// and a CartesianProduct with a (non-equality) condition, evaluated on every pair of rows.
#include <memory>

#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kExplodeFactor{"explode-factor"};
inline constexpr ThresholdKey kExplodeMinRows{"explode-min-rows"};

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "exploding-join";
  d.code = "PL005";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A join returns far more rows than it reads";
  d.also_reports = {{"cartesian-product", "PL009",
                     "A join with no condition pairs every row of one side with every row of the other"}};
  d.what =
      "Finds a join whose output row count is more than `explode-factor` (2) times the sum of its input "
      "row counts and above `explode-min-rows` (1,000,000), from the runtime row counts of a Query Profile "
      "or an event log, or from the `rowCount` estimates of an `EXPLAIN COST` plan. Also reports "
      "`cartesian-product`: a CartesianProduct or BroadcastNestedLoopJoin (inner, cross or outer) with no "
      "join condition, or a CartesianProduct with a condition (never an equality: it evaluates it on every "
      "pair of rows), unless one input is known to hold at most one row (a global aggregate).";
  d.why =
      "A join that multiplies rows almost always has a missing or wrong key: a key that is not unique on "
      "either side (many-to-many), a join on a low-cardinality column, a forgotten key column of a "
      "composite key, or no condition at all. Every extra row is carried through the rest of the plan "
      "(projections, aggregates, shuffles, spills), and the result is usually wrong as well as slow. "
      "Databricks reports the same pattern as the EXPLODING_JOIN performance insight. A cartesian product "
      "pairs every row with every row: n × m rows, evaluated one pair at a time in a nested loop.";
  d.example =
      "SELECT o.id, p.amount\n"
      "FROM orders o JOIN payments p ON o.customer_id = p.customer_id   -- many orders × many payments\n"
      "\n"
      "SortMergeJoin Inner (9): 2,000,000 + 3,000,000 rows in, 840,000,000 rows out";
  d.use_instead =
      "SELECT o.id, p.amount\n"
      "FROM orders o JOIN payments p ON o.id = p.order_id               -- the real one-to-many key\n"
      "\n"
      "-- or aggregate one side to the join key first:\n"
      "... JOIN (SELECT customer_id, sum(amount) AS amount FROM payments GROUP BY customer_id) p ...";
  d.evidence =
      "Row counts of the join and of both inputs: Query Profile `rowsNum` / `Number of output rows`, "
      "event-log SQL metrics, or cost-mode `Statistics(..., rowCount=...)` (estimates, said so in the "
      "message). `cartesian-product` needs only the plan shape (no condition, or a CartesianProduct's "
      "condition), and uses row counts when present to show the product and to stay silent when it is small.";
  d.thresholds = {
      {kExplodeFactor, 2, "ratio", "Output more than twice the rows read: more than any one-to-one or one-to-many join can return."},
      {kExplodeMinRows, 1e6, "rows", "1,000,000 rows: below this a multiplying join costs too little to matter."}};
  return d;
}

bool is_expanding_type(JoinType t) {
  switch (t) {
    case JoinType::Inner:
    case JoinType::Cross:
    case JoinType::LeftOuter:
    case JoinType::RightOuter:
    case JoinType::FullOuter:
    case JoinType::None:  // older outlines print no type for CartesianProduct
      return true;
    default: return false;
  }
}

bool has_condition(const Operator& join) { return join.facts->join_has_condition; }

// True when the input is known to produce at most one row: a global aggregate (no grouping keys)
// reached through projections, filters, exchanges and transparent operators, or a LIMIT 1.
bool at_most_one_row(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.rows() && *op.rows() <= 1) return true;
    if (op.kind == OpKind::Aggregate) return op.facts->global_aggregate;
    if (op.kind == OpKind::ReusedExchange && op.reuses) {
      idx = *op.reuses;
      continue;
    }
    bool pass = is_transparent(op) || op.kind == OpKind::Project || op.kind == OpKind::Filter ||
                op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange || op.kind == OpKind::Sort;
    if (!pass || op.children.size() != 1) return false;
    idx = op.children[0];
  }
  return false;
}

struct Rows {
  std::optional<double> out, left, right;
  bool estimate = false;
  const Operator* logical = nullptr;
  [[nodiscard]] bool complete() const { return out && left && right; }
};

Rows join_rows(const Plan& plan, const LogicalJoins& logical, const Operator& op) {
  Rows r;
  if (op.rows()) r.out = op.rows();
  else r.out = first_metric(op, {Metric::OutputRows});
  r.left = output_rows(plan, op.children[0]);
  r.right = output_rows(plan, op.children[1]);
  if (r.complete()) return r;
  if (const Operator* lj = logical.find(op)) {
    const Operator* l = logical_child(plan, *lj, BuildSide::Left);
    const Operator* rt = logical_child(plan, *lj, BuildSide::Right);
    if (lj->stats()->row_count && l && l->stats()->row_count && rt && rt->stats()->row_count) {
      Rows e;
      e.out = lj->stats()->row_count;
      e.left = l->stats()->row_count;
      e.right = rt->stats()->row_count;
      e.estimate = true;
      e.logical = lj;
      return e;
    }
  }
  return r;
}

class ExplodingJoin final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const LogicalJoins& logical = ctx.logical_joins();
    const double factor = ctx.threshold(kExplodeFactor);
    const double min_rows = ctx.threshold(kExplodeMinRows);
    for (const Operator* op : ctx.active_ops()) {
      if (op->kind != OpKind::Join || op->children.size() != 2) continue;
      Rows rows = join_rows(plan, logical, *op);
      const char* est = rows.estimate ? "estimated " : "";

      bool nested = op->join->strategy == JoinStrategy::Cartesian || op->join->strategy == JoinStrategy::BroadcastNestedLoop;
      // A join whose details the (cut) paste lacks: its condition is unknown, not absent.
      if (nested && op->details_missing) {
        ctx.why(*op, "a nested-loop join", "its details block is missing from the input (cut paste): its condition is unknown");
        continue;
      }
      // A CartesianProduct with a condition (never an equality: Spark would hash or sort on it) still
      // evaluates the condition on every pair of rows: the condition does not make it cheaper.
      const bool pairwise = op->join->strategy == JoinStrategy::Cartesian && has_condition(*op) &&
                            op->left_keys().empty() && op->right_keys().empty() && op->join_condition();
      if (nested && (!has_condition(*op) || pairwise) && is_expanding_type(op->join->type)) {
        bool small = at_most_one_row(plan, op->children[0]) || at_most_one_row(plan, op->children[1]);
        if (rows.left && *rows.left <= 1) small = true;
        if (rows.right && *rows.right <= 1) small = true;
        if (rows.out && *rows.out < min_rows) small = true;
        if (!small) {
          std::string msg = op_ref(*op) + " pairs every row of its left input with every row of its right input: " +
                            (pairwise ? "it evaluates its condition " + std::string(op->join_condition()->text.view()) +
                                            " on every pair (no equality to hash or sort on)"
                                      : std::string("it has no join condition"));
          if (rows.complete())
            msg += " (" + format_count(*rows.left) + " × " + format_count(*rows.right) + " " + est + "rows in, " +
                   format_count(*rows.out) + " out)";
          Diagnostic d = ctx.make_as("cartesian-product", *op, msg);
          d.evidence.push_back({"join", op->name + (op->join->type_text.empty() ? "" : " " + op->join->type_text.str())});
          d.evidence.push_back({"join condition", pairwise ? std::string(op->join_condition()->text.view()) : std::string("none")});
          if (rows.left) d.evidence.push_back({std::string(est) + "left rows", *rows.left, Unit::Rows});
          if (rows.right) d.evidence.push_back({std::string(est) + "right rows", *rows.right, Unit::Rows});
          if (rows.out) {
            d.evidence.push_back({std::string(est) + "output rows", *rows.out, Unit::Rows});
            set_impact(d, *rows.out, "rows", " rows produced");
          }
          if (pairwise)
            d.fix = "Give the join an equality Spark can hash or sort on: a key both sides share (e.g. a grid cell or "
                    "geohash for a spatial predicate, a bucket for a range predicate) ANDed with the condition, or a "
                    "library's range / spatial join (Apache Sedona's RangeJoin); else make one side tiny (filter or "
                    "aggregate it first) so the pairs are few.";
          else
            d.fix = "Add the missing join condition (an ON clause, or the WHERE predicate that links the two tables); "
                    "if the cross join is intended, make sure one side is tiny (aggregate or filter it first) and "
                    "write it as an explicit CROSS JOIN.";
          ctx.report(std::move(d));
          continue;
        }
      }

      if (!rows.complete()) continue;
      double in = *rows.left + *rows.right;
      double out = *rows.out;
      if (out <= min_rows || out <= factor * in) continue;
      std::string msg = op_ref(*op) + " returns " + format_count(out) + " " + est + "rows from " +
                        format_count(*rows.left) + " + " + format_count(*rows.right) + " input rows (" +
                        format_ratio(in > 0 ? out / in : out) + " its inputs)";
      Diagnostic d = ctx.make(*op, msg);
      d.evidence.push_back({std::string(est) + "output rows", out, Unit::Rows});
      d.evidence.push_back({std::string(est) + "left rows", *rows.left, Unit::Rows});
      d.evidence.push_back({std::string(est) + "right rows", *rows.right, Unit::Rows});
      d.evidence.push_back({"output to input ratio", in > 0 ? out / in : out, Unit::Ratio});
      if (rows.logical) d.evidence.push_back({"estimates from", op_ref(*rows.logical)});
      if (!op->left_keys().empty()) {
        std::string keys;
        for (std::size_t i = 0; i < op->left_keys().size(); ++i)
          keys += (i ? ", " : "") + op->left_keys()[i].text;
        keys += " = ";
        for (std::size_t i = 0; i < op->right_keys().size(); ++i)
          keys += (i ? ", " : "") + op->right_keys()[i].text;
        d.evidence.push_back({"join keys", keys});
      }
      set_impact(d, out - in, "rows", " extra rows");
      d.fix = "Check the join keys: the key is not unique on either side (many-to-many). Join on the full key, "
              "de-duplicate or aggregate one side to the key before the join, or filter earlier.";
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_exploding_join() { return std::make_unique<ExplodingJoin>(); }

}  // namespace planlint
