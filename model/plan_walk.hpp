// Generic plan walkers over the model: which operators are transparent wrappers, which ones are
// active, where the scan under a filter is, what is known about the size of a join input, which
// predicates are simple enough for a data source to evaluate. Used by the rules and by lint/.
// Everything here reads the plan model only.
#pragma once

#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/column_set.hpp"
#include "model/expr_util.hpp"
#include "model/plan.hpp"

namespace planlint {
// ---- operators -------------------------------------------------------------------------------

// Wrappers that do no work of their own: ColumnarToRow / RowToColumnar / InputAdapter / Photon and
// Velox adapters, whole-stage-codegen and Photon stage nodes, AQE query stages and shuffle reads,
// AdaptiveSparkPlan.
bool is_transparent(const Operator& op);

// True when the plan printed an AQE final or current plan (then the initial plan is history).
bool has_final_plan(const Plan& plan);
// True for operators of the physical plan that is the one that ran (or will run): not logical,
// not an AQE initial plan when a final/current plan exists, not an optimized-out exchange.
bool is_active(const Operator& op, bool final_plan_exists);
// The active physical operators of a plan, in index order.
std::vector<const Operator*> active_ops(const Plan& plan);
// The active operators of one kind.
std::vector<const Operator*> active_ops(const Plan& plan, OpKind kind);

// Follow the single child of `idx` down through transparent operators; the first operator that is
// not transparent (or has several children). nullopt when a transparent operator has no child.
std::optional<std::size_t> skip_transparent_down(const Plan& plan, std::size_t idx);

// The scan under `filter` through transparent operators, other Filters and Projects that only
// pass columns on (OpFacts::passes_columns), or nullptr.
const Operator* scan_below(const Plan& plan, const Operator& filter);

// The scan a join input reads when the input is a single chain (filters, projects, transparent
// operators, exchanges); nullptr when the input joins or unions several sources.
const Operator* single_scan_under(const Plan& plan, std::size_t idx);

// The operator's own engine for fallback purposes (Photon / Gluten / Spark).
bool plan_has_engine(const Plan& plan, Engine e);

// "SortMergeJoin (12)" / "Scan parquet db.t (1)"; the id is omitted when unknown.
std::string op_ref(const Operator& op);

// ---- sizes -----------------------------------------------------------------------------------

// What is known about the size of one join input.
struct SideSize {
  std::optional<double> bytes;
  std::optional<double> rows;
  const Operator* source = nullptr;   // the operator that carried the number
  std::string what;                   // "Statistics on ShuffleQueryStage (9)", "Sink - Num bytes written"
  bool estimate = false;              // an optimizer estimate (cost mode), not a measurement
  const Operator* through = nullptr;  // input_size_bound: the lowest operator the bound was taken through
                                      // (an aggregate, filter or narrowing projection): `bytes` is an upper bound
  [[nodiscard]] bool known() const { return bytes.has_value() || rows.has_value(); }
};

// Size evidence for the input `child` of a join: AQE query-stage Statistics, profile shuffle
// metrics of the exchange feeding the join, through Sort / transparent operators only.
SideSize input_size(const Plan& plan, std::size_t child);

// Like input_size, and also through operators whose output is never larger than their input: a
// Filter, a Project that only keeps or renames columns, and a HashAggregate that is not a partial
// aggregate (a final or merge aggregate, or one without functions: its output holds at most its
// input's rows, each no wider). The nearest measured size below them is then an upper bound of the
// input's size; `through` names the operator it was taken through (nullptr when none was crossed).
SideSize input_size_bound(const Plan& plan, std::size_t child);

// Rows produced by `idx` (or by the first operator below it, through transparent operators and
// exchanges) when the plan has runtime row counts; nullopt otherwise.
std::optional<double> output_rows(const Plan& plan, std::size_t idx);

// In cost / extended modes: pairs each physical join with the optimized-logical Join that matches
// it (same key attributes; else the same position when both plans list as many joins). Built once
// per plan in time linear in the plan; find() then costs O(keys), so a rule that asks for every
// join stays linear (a 100,000-operator plan has thousands of joins).
class LogicalJoins {
 public:
  explicit LogicalJoins(const Plan& plan);
  // The logical Join for `physical_join` (an operator of the same plan), or nullptr.
  [[nodiscard]] const Operator* find(const Operator& physical_join) const;

 private:
  std::vector<const Operator*> logical_;                 // every logical Join, in plan order
  std::vector<const Operator*> physical_;                // every physical Join of the main plan, in order
  std::vector<std::vector<std::string>> cond_attrs_;     // per logical_ entry: sorted condition attributes
  std::unordered_map<std::string, std::vector<std::size_t>> by_attr_;  // attribute -> logical_ entries
  std::unordered_map<const Operator*, std::size_t> physical_pos_;
};

// The child of a logical operator on a side (Left = first child).
const Operator* logical_child(const Plan& plan, const Operator& logical, BuildSide side);

// First value among the labels given, in order.
std::optional<double> first_metric(const Operator& op, std::initializer_list<Metric::Id> ids,
                                   std::string* which = nullptr);

// ---- expressions -----------------------------------------------------------------------------

// The conjuncts of an expression (model/expr_util.hpp split_conjuncts).
std::vector<const Expr*> conjuncts(const Expr& e);

// The text of a sub-expression as printed (outer parentheses and spaces trimmed).
std::string expr_text(const ParsedExpr& pe, const Expr& e);

bool is_attribute(const Expr& e);
// A literal (also through casts and unary minus, model/expr_util.hpp) or a list of literals.
bool is_constant(const Expr& e);
// Lower-case copy (ASCII; support/strings.hpp to_lower). ascii_lower and iequals: support/strings.hpp.
std::string lower(std::string_view s);
// `text` cut to at most `max` bytes (at a UTF-8 boundary) with "…" appended, for quoting long
// predicates or lists in a message; evidence keeps the full text.
std::string abbreviate(std::string_view text, std::size_t max = 120);

// A column key (model/facts.hpp column_key: lower-case, without qualifier) that is a view into the
// attribute's name when the name holds its key as printed (no quote, nothing to lower-case: nearly
// always), else a string of its own. simple_predicate runs for every conjunct of every filter and
// pushed-filter list, and a std::string per call cost as much as finding the key. The view lives
// as long as the expression it was read from (the plan); copies and moves keep view() right.
class ColumnKey {
 public:
  ColumnKey() = default;
  // The key is `part` of a name that outlives this key.
  static ColumnKey viewing(std::string_view part) {
    ColumnKey k;
    k.part_ = part;
    return k;
  }
  static ColumnKey owning(std::string key) {
    ColumnKey k;
    k.own_ = std::move(key);
    k.owned_ = true;
    return k;
  }
  [[nodiscard]] std::string_view view() const noexcept { return owned_ ? std::string_view(own_) : part_; }
  operator std::string_view() const noexcept { return view(); }  // NOLINT: reads like a view (ColumnSet::count)
  friend bool operator==(const ColumnKey& a, std::string_view b) noexcept { return a.view() == b; }

 private:
  std::string_view part_;
  std::string own_;
  bool owned_ = false;
};

// A predicate in the form data sources accept: one bare column compared with constants.
struct SimplePredicate {
  FilterOp op = FilterOp::Other;  // v1 filter: EqualTo, GreaterThan, In, IsNotNull, StringStartsWith, ...
  ColumnKey column;               // lower-case column name without qualifier; a view into `e` mostly
};
// Recognises Catalyst (`(a#1 = 5)`, `isnotnull(a#1)`, `a#1 IN (1,2)`), v1 pushed filters
// (`EqualTo(a,5)`) and SQL (`(t.a IS NOT NULL)`) forms. The column may view into `e`: keep `e`
// (its plan) while the predicate is used.
std::optional<SimplePredicate> simple_predicate(const Expr& e);

// column_key: model/facts.hpp.

// Columns of a scan that are stored in the data files: ReadSchema's top-level names when printed,
// nullptr when the scan has no ReadSchema.
const ColumnSet* data_columns(const Operator& scan);
// Columns the scan outputs (Output list or profile OUTPUT), lower-case without qualifier.
const ColumnSet& output_columns(const Operator& scan);
// Columns that appear in PartitionFilters / PARTITION_FILTERS (partition columns).
const ColumnSet& partition_filter_columns(const Operator& scan);

// Every attribute under `e` (model/expr_util.hpp collect_attributes).
std::vector<const Expr*> attributes_in(const Expr& e);

// The parsed expressions of a field (empty when the field is missing).
std::vector<const ParsedExpr*> field_exprs(const Operator& op, std::initializer_list<FieldRole> roles);

// A field the rules need was abbreviated by Spark (`...`, `... N more fields`) or its item
// count does not match the printed [N].
bool field_untrusted(const Field& f);
}  // namespace planlint
