// filter-not-pushed-down (PL001): a simple predicate on a scan column that the scan did not get.
#include <algorithm>
#include <memory>
#include <string_view>

#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "filter-not-pushed-down";
  d.code = "PL001";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A simple predicate on a scan column is evaluated after the scan instead of inside it";
  d.what =
      "Finds a Filter directly above a file or DSv2 scan (only ColumnarToRow, InputAdapter or Photon / "
      "Velox adapters in between) whose condition has a conjunct of the form `column <op> literal` "
      "(=, <=>, <, <=, >, >=, IN, IS [NOT] NULL, StartsWith / EndsWith / Contains) on a data column of "
      "that scan, where the scan's list of pushed predicates does not contain it: `PushedFilters` for "
      "Spark scans, `DataFilters` / `RequiredDataFilters` for Photon scans, the `[filters=...]` list an "
      "Iceberg scan prints in its description, `FILTERS` in a Databricks Query Profile.";
  d.why =
      "A predicate the scan receives is used to skip data before it is decoded: Parquet and ORC row "
      "groups and Delta files whose min/max statistics exclude the value are never read, and JDBC or "
      "other DSv2 sources filter on the remote side. A predicate that stays in the Filter above the scan "
      "is evaluated only after every row has been read, decompressed and turned into a row, so the "
      "query reads (and pays for) the whole table. A simple comparison of a column with a literal is "
      "normally always pushed; when it is not, filter pushdown is disabled for the format "
      "(`spark.sql.parquet.filterPushdown`, `spark.sql.orc.filterPushdown`, ...), the connector does not "
      "support that predicate, or the literal's type does not match the column. Predicates that wrap "
      "the column in a function are reported by `non-sargable-predicate` instead; runtime filters "
      "(`dynamicpruningexpression`, bloom-filter `might_contain`) are never pushed and never reported.";
  d.example =
      "(1) Scan parquet spark_catalog.sales.orders\n"
      "Output [3]: [id#1L, status#2, amount#3]\n"
      "PushedFilters: [IsNotNull(status)]\n"
      "ReadSchema: struct<id:bigint,status:string,amount:decimal(10,2)>\n"
      "\n"
      "(3) Filter [codegen id : 1]\n"
      "Input [3]: [id#1L, status#2, amount#3]\n"
      "Condition : (isnotnull(status#2) AND (status#2 = SHIPPED))";
  d.use_instead =
      "(1) Scan parquet spark_catalog.sales.orders\n"
      "PushedFilters: [IsNotNull(status), EqualTo(status,SHIPPED)]\n"
      "\n"
      "-- re-enable pushdown for the format, or compare with a literal of the column's type:\n"
      "SET spark.sql.parquet.filterPushdown = true;";
  d.evidence =
      "Explain text (formatted, default, extended, cost; Spark, Photon and Gluten): the Filter's "
      "`Condition` and the scan's `PushedFilters` / `DataFilters` / `RequiredDataFilters`, `ReadSchema` "
      "and `PartitionFilters` (partition columns are pruned, not pushed, and are skipped), an Iceberg "
      "scan's `[filters=...]` (what Iceberg accepted, in its own words); event logs, History Server and "
      "live driver (`/api/v1` of the running application) answers: the same fields in the plan "
      "description Spark stored. Query Profile: "
      "a filter node's condition and the scan's `FILTERS` metadata; `Size of files read` / `Rows scanned` "
      "give the impact. A list that Spark abbreviated (`...`) is never used: `truncated-metadata` is "
      "reported instead.";
  return d;
}

struct PushedSet {
  // (v1 filter, column); a few, searched in order. The keys view into the scan's expressions
  // mostly (simple_predicate): the plan outlives the set.
  std::vector<std::pair<FilterOp, ColumnKey>> preds;
  [[nodiscard]] bool has(FilterOp op, std::string_view column) const {
    return std::any_of(preds.begin(), preds.end(), [&](const auto& p) { return p.first == op && p.second == column; });
  }
  bool trusted = true;
  bool present = false;
};

// The fields that list what the scan evaluates itself. Spark scans print what the source accepted
// as PushedFilters (their DataFilters are only what it was offered); Photon scans evaluate
// DataFilters / RequiredDataFilters themselves; profiles FILTERS.
template <class Fn>
void for_each_pushed_field(const Operator& scan, Fn&& fn) {
  const bool pushed = scan.field(FieldRole::PushedFilters) != nullptr;
  const bool photon = !pushed && scan.engine == Engine::Photon;
  auto wanted = [pushed, photon](FieldRole r) {
    if (pushed) return r == FieldRole::PushedFilters;
    if (photon) return r == FieldRole::DataFilters || r == FieldRole::RequiredDataFilters || r == FieldRole::ScanFilters;
    return r == FieldRole::ScanFilters;
  };
  for (const auto& f : scan.fields)
    if (wanted(f.role)) fn(f);
}

PushedSet pushed_set(const Operator& scan) {
  PushedSet ps;
  for_each_pushed_field(scan, [&ps](const Field& f) {
    ps.present = true;
    if (field_untrusted(f)) ps.trusted = false;
    if (f.exprs.empty() && !(f.is_list && f.item_spans.empty())) {
      // A non-empty value that was not parsed: nothing can be said about it.
      if (!f.empty_value()) ps.trusted = false;
    }
    for (const auto& pe : f.exprs) {
      if (!pe.root) {
        ps.trusted = false;
        continue;
      }
      for_each_conjunct(*pe.root, [&ps](const Expr& c) {
        if (auto sp = simple_predicate(c)) {
          if (ps.preds.empty()) ps.preds.reserve(8);  // a scan's list: one block instead of four
          if (sp->op == FilterOp::In && !ps.has(FilterOp::EqualTo, sp->column)) ps.preds.emplace_back(FilterOp::EqualTo, sp->column);
          if (!ps.has(sp->op, sp->column)) ps.preds.emplace_back(sp->op, std::move(sp->column));
        }
      });
    }
  });
  return ps;
}

class FilterNotPushedDown final : public DocumentedRule<make_doc> {
 public:
  [[nodiscard]] bool explains() const override { return true; }
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    for (const Operator* op : ctx.active_ops()) {
      if (op->kind != OpKind::Filter) continue;
      const Operator* scan = scan_below(plan, *op);
      static const std::string looked = "a simple predicate on a scan column, missing from the scan's pushed filters";
      if (!scan) {
        ctx.why(*op, looked, "no scan directly below the filter (only projections may sit between them)");
        continue;
      }
      PushedSet pushed = pushed_set(*scan);
      if (!pushed.trusted) {
        if (ctx.explaining())
          ctx.why(*op, looked, op_ref(*scan) + "'s pushed-filter list is cut or unreadable (see truncated-metadata)");
        continue;
      }
      // Absent list: Spark drops empty metadata in formatted mode, so "nothing pushed" -- but only
      // trust that where the scan printed its details (ReadSchema): explain text, and the plan
      // description an event log or a History Server answer stores (the same text). A Query
      // Profile has no ReadSchema and no empty FILTERS.
      if (!pushed.present) {
        if (plan.format == InputFormat::QueryProfile || !scan->field(FieldRole::ReadSchema)) {
          if (ctx.explaining())
            ctx.why(*op, looked, op_ref(*scan) + " shows no pushed-filter list and no ReadSchema, so an empty list cannot be told from an absent one");
          continue;
        }
      }
      const ColumnSet* data = data_columns(*scan);
      const ColumnSet& parts = partition_filter_columns(*scan);
      const ColumnSet& outputs = output_columns(*scan);

      std::vector<std::string> missing;
      bool untrusted = false;
      for (const auto& f : op->fields) {
        if (f.role != FieldRole::Condition) continue;
        if (field_untrusted(f)) untrusted = true;
        for (const auto& pe : f.exprs) {
          if (!pe.root) continue;
          for_each_conjunct(*pe.root, [&](const Expr& c) {
            auto sp = simple_predicate(c);
            if (!sp) return;
            // The pushed list first: most predicates are in it (a few entries, compared in
            // order), and then the scan's column sets (searches of sorted lists) are not asked.
            if (pushed.has(sp->op, sp->column)) return;
            if (sp->op == FilterOp::EqualTo && pushed.has(FilterOp::EqualNullSafe, sp->column)) return;
            if (data && !data->count(sp->column)) return;   // partition or metadata column
            if (parts.count(sp->column)) return;
            if (!outputs.empty() && !outputs.count(sp->column)) return;
            missing.push_back(expr_text(pe, c));
          });
        }
      }
      if (untrusted || missing.empty()) {
        ctx.why(*op, looked,
                untrusted ? "the condition could not be parsed whole (kept as text)"
                          : "every simple predicate on a data column is already pushed (or none is simple: "
                            "functions, casts and partition columns are other rules' business)");
        continue;
      }

      std::string list;
      for (std::size_t i = 0; i < missing.size(); ++i) list += (i ? ", `" : "`") + missing[i] + "`";
      const bool many = missing.size() > 1;
      std::string where = std::string(many ? "the predicates are" : "the predicate is") +
                          (pushed.present ? " not in its pushed filters" : " not pushed (the scan has no pushed filters)");
      Diagnostic d = ctx.make(*op, op_ref(*op) + " evaluates " + list + " after " + op_ref(*scan) +
                                       " has read every row: " + where);
      for (const auto& m : missing) d.evidence.push_back({"predicate", m});
      d.evidence.push_back({"scan", op_ref(*scan)});
      std::string pushed_text;
      bool first = true;
      for_each_pushed_field(*scan, [&](const Field& f) {
        for (const auto& pe : f.exprs) {
          if (!first) pushed_text += ", ";
          pushed_text += pe.text.view();
          first = false;
        }
      });
      d.evidence.push_back({"pushed filters", "[" + pushed_text + "]"});
      std::string which;
      if (auto b = first_metric(*scan, {Metric::FilesReadBytes}, &which)) {
        d.evidence.push_back({which, *b, Unit::BytesExact});
        set_impact(d, *b, "bytes", " read before filtering");
      } else if (auto r = first_metric(*scan, {Metric::RowsScanned, Metric::OutputRows}, &which)) {
        d.evidence.push_back({which, *r, Unit::Rows});
        set_impact(d, *r, "rows", " rows read before filtering");
      }
      if (scan->scan && scan->scan->source == ScanSource::Jdbc)
        d.fix = "The JDBC source did not accept the predicate: check `pushDownPredicate` on the reader and that "
                "the column type maps to a type the dialect can compare; otherwise filter in the source query.";
      else if (scan->scan && scan->scan->source == ScanSource::Iceberg)
        d.fix = "Iceberg did not accept the predicate (it is missing from the scan's `[filters=...]`): Iceberg "
                "converts comparisons with a literal, IN, IS [NOT] NULL, IS NaN and STARTS WITH (`LIKE 'prefix%'`), "
                "not ENDS WITH or CONTAINS. Where the query allows, express it as one of those on the bare column "
                "so that Iceberg can skip data files by their column bounds.";
      else
        d.fix = "Make the scan evaluate the predicate: keep filter pushdown enabled for the format "
                "(spark.sql.parquet.filterPushdown / spark.sql.orc.filterPushdown, enabled by default), compare the "
                "bare column with a literal of the column's own type, and for DSv2 connectors check that the "
                "connector supports this predicate.";
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_filter_not_pushed_down() { return std::make_unique<FilterNotPushedDown>(); }

}  // namespace planlint
