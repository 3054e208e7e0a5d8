// PL102 low-file-pruning: a selective scan (its filters keep a small fraction of the rows it
// scanned) that still read nearly every file of the table: data skipping did not work for the
// predicate, so the files are not clustered on the filtered column(s).
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {


bool is_filter_list(FieldRole r) {
  return r == FieldRole::PushedFilters || r == FieldRole::DataFilters || r == FieldRole::PartitionFilters ||
         r == FieldRole::RequiredDataFilters || r == FieldRole::ScanFilters;
}

// The scan's own predicate lists and the conditions of Filters directly above it.
std::vector<std::string> predicates(const Plan& plan, const Operator& scan) {
  std::vector<std::string> out;
  auto add = [&](const std::string& t) {
    if (t.empty() || mentions_is_not_null(t)) return;
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  for (const Field& f : scan.fields) {
    if (is_filter_list(f.role) && !f.empty_list())
      for (std::string_view t : field_texts(f)) add(std::string(t));
  }
  const Operator* cur = &scan;
  while (cur->parents.size() == 1) {
    const Operator& p = plan.ops[cur->parents[0]];
    if (p.kind != OpKind::Filter && p.kind != OpKind::Transition && p.kind != OpKind::CodegenStage) break;
    if (p.kind == OpKind::Filter) {
      if (const Field* c = p.field(FieldRole::Condition)) {
        for (std::string_view t : field_texts(*c)) add(std::string(t));
      } else if (!p.arguments.empty()) {
        add(p.arguments.str());
      }
    }
    cur = &p;
  }
  return out;
}

// Rows that leave the scan's filter chain: the scan's output, or that of Filters directly above.
std::optional<double> rows_after_filters(const Plan& plan, const Operator& scan) {
  std::optional<double> rows = scan.rows();
  const Operator* cur = &scan;
  while (cur->parents.size() == 1) {
    const Operator& p = plan.ops[cur->parents[0]];
    if (p.kind != OpKind::Filter && p.kind != OpKind::Transition && p.kind != OpKind::CodegenStage) break;
    if (p.kind == OpKind::Filter && p.rows()) rows = rows ? std::min(*rows, *p.rows()) : *p.rows();
    cur = &p;
  }
  return rows;
}

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinReadFraction{"min-read-fraction"};
inline constexpr ThresholdKey kMaxSelectivity{"max-selectivity"};
inline constexpr ThresholdKey kMinFiles{"min-files"};
inline constexpr ThresholdKey kMinBytes{"min-bytes"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "low-file-pruning";
  r.code = "PL102";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "A selective scan read nearly every file: data skipping did not prune";
  r.what =
      "Reports a table scan whose filters keep only a small fraction of the rows it scanned, "
      "while the scan still read nearly all of the table's files (files read versus files "
      "pruned, and the bytes behind them).";
  r.why =
      "Delta and Parquet skip whole files using per-file min/max statistics, partition values "
      "and dynamic file pruning. That only works when the rows matching the predicate are "
      "concentrated in few files -- when the table is partitioned, Z-ordered or liquid-clustered "
      "on the filtered column. Otherwise every file's min/max range contains the value and the "
      "engine reads and decodes the whole table to keep a few rows: the scan costs as much as a "
      "full scan. A function around the column (see non-sargable-predicate) has the same effect "
      "even on a well-clustered table.";
  r.example =
      "SELECT * FROM sales WHERE customer_id = 42   -- table clustered by sale_date\n"
      "Scan sales: Files read 1,950, Files pruned 50, Rows scanned 2.1 B, output 3,200 rows";
  r.use_instead =
      "ALTER TABLE sales CLUSTER BY (customer_id); OPTIMIZE sales;   -- Delta: liquid clustering\n"
      "-- or OPTIMIZE sales ZORDER BY (customer_id), or a partition filter on a partition column\n"
      "ALTER TABLE cat.db.sales WRITE ORDERED BY (customer_id);      -- Iceberg: sort, then rewrite\n"
      "CALL cat.system.rewrite_data_files(table => 'db.sales', strategy => 'sort');\n"
      "df.sortWithinPartitions(\"customer_id\").write.parquet(...)   -- plain Parquet / ORC files";
  r.evidence =
      "Query Profile JSON: scan metrics `Files read`, `Files pruned`, `Size of files read`, "
      "`Size of files pruned`, `Rows scanned` and output rows, the scan's FILTERS and "
      "`Cluster attributes`. Explain text and Spark event logs carry no pruned-file count: no finding.";
  r.thresholds = {
      {kMinReadFraction, 0.9, "ratio",
       "files read / (files read + files pruned) of at least 90% is 'nearly every file'"},
      {kMaxSelectivity, 0.1, "ratio",
       "the filters keep at most 10% of the scanned rows: with good clustering at most ~10% of "
       "the files would need to be read"},
      {kMinFiles, 32, "files", "a table of fewer files has little to prune"},
      {kMinBytes, 1073741824, "bytes", "below 1 GiB read, a full scan costs seconds"},
  };
  return r;
}

// Clustering in the words of the table's format: liquid clustering and ZORDER are Delta's, a sort
// order and rewrite_data_files Iceberg's; plain Parquet / ORC files are written sorted.
std::string clustering_fix(const Operator& scan, const std::string& table) {
  const std::string delta = "`ALTER TABLE " + table + " CLUSTER BY (<filter column>)` then `OPTIMIZE " + table +
                            "` (liquid clustering), or OPTIMIZE ... ZORDER BY";
  const std::string iceberg = "`ALTER TABLE " + table + " WRITE ORDERED BY (<filter column>)` then `" +
                              iceberg_rewrite_call(table, "strategy => 'sort'") + "`";
  const std::string files =
      "write the files sorted on the filtered column(s) (`sortWithinPartitions` or `repartitionByRange` "
      "before the write), so that their min/max statistics skip files and row groups";
  switch (table_kind(scan)) {
    case TableKind::Delta:
      return "Cluster the table on the filtered column(s) so matching rows share few files: " + delta +
             ", or filter on a partition column.";
    case TableKind::Iceberg:
      return "Sort the table on the filtered column(s) so matching rows share few files: " + iceberg +
             ", or filter on a partition column (a partition transform such as `days(ts)`).";
    case TableKind::Files:
      return "Concentrate matching rows in few files: " + files + ", or partition the output by a "
             "low-cardinality filter column (`partitionBy`) and filter on it.";
    case TableKind::Unknown: break;
  }
  return "Cluster the table on the filtered column(s) so matching rows share few files, in its format's way: "
         "Delta " + delta + "; Iceberg " + iceberg + "; plain Parquet/ORC files: " + files +
         "; or filter on a partition column.";
}

class LowFilePruning final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    for (const Operator* active : ctx.active_ops(OpKind::Scan)) {
      const Operator& op = *active;
      auto read = first_metric(op, {Metric::FilesRead});
      auto pruned = first_metric(op, {Metric::FilesPruned});
      if (!read || !pruned) continue;
      double total = *read + *pruned;
      if (total < ctx.threshold(kMinFiles) || total <= 0) continue;
      double fraction = *read / total;
      if (fraction < ctx.threshold(kMinReadFraction)) continue;
      auto bytes = first_metric(op, {Metric::FilesReadBytes});
      if (!bytes || *bytes < ctx.threshold(kMinBytes)) continue;
      auto scanned = first_metric(op, {Metric::RowsScanned});
      auto after = rows_after_filters(plan, op);
      if (!scanned || !after || *scanned <= 0) continue;
      double selectivity = *after / *scanned;
      if (selectivity > ctx.threshold(kMaxSelectivity)) continue;
      std::vector<std::string> preds = predicates(plan, op);

      std::string table = op.table().empty() ? describe_table(op) : op.table().str();
      std::string msg = scan_ref(op) + " read " + format_count(*read) + " of " + format_count(total) +
                        " files (" + format_percent(fraction, PercentDigits::Small) + ", " + format_bytes(*bytes) + ") but its filters keep " +
                        format_count(*after) + " of the " + format_count(*scanned) + " rows scanned (" +
                        format_percent(selectivity, PercentDigits::Small) + "): file skipping did not work for this predicate";
      Diagnostic d = ctx.make(op, std::move(msg));
      d.evidence.push_back({"files read", *read, Unit::Files});
      d.evidence.push_back({"files pruned", *pruned, Unit::Files});
      d.evidence.push_back({"read fraction", fraction, Unit::Share, PercentDigits::Small});
      d.evidence.push_back({"size of files read", *bytes, Unit::Bytes});
      if (auto pb = first_metric(op, {Metric::FilesPrunedBytes}))
        d.evidence.push_back({"size of files pruned", *pb, Unit::Bytes});
      d.evidence.push_back({"rows scanned", *scanned, Unit::Rows});
      d.evidence.push_back({"rows after filters", *after, Unit::Rows});
      for (const std::string& p : preds) d.evidence.push_back({"predicate", p});
      std::string clusters;
      for (const Field& f : op.fields)
        if (f.role == FieldRole::Clustering) {
          clusters = f.is_list ? join(f.items().strings()) : f.value.str();
          d.evidence.push_back({"clustering columns", clusters});
        }
      d.fix = clustering_fix(op, table) +
              " If non-sargable-predicate is reported for this scan, rewrite that predicate as a range first: "
              "a function around the column disables file skipping.";
      if (!clusters.empty())
        d.fix += " The table is clustered by " + clusters + ", which does not match this query's filter.";
      double avoidable = 1.0 - selectivity;
      if (op.duration_ms()) {
        set_impact(d, *op.duration_ms() * avoidable, "ms", " of scan task time", "up to ");
      } else {
        set_impact(d, *bytes * avoidable, "bytes", " less read", "up to ");
      }
      ctx.report(std::move(d));
    }
  }

 private:
  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  }
  static std::string describe_table(const Operator& op) {
    for (const Field& f : op.fields)
      if (f.role == FieldRole::TableIdentifier) return f.value.str();
    return "<table>";
  }
};

}  // namespace

std::unique_ptr<Rule> make_low_file_pruning() { return std::make_unique<LowFilePruning>(); }

}  // namespace planlint
