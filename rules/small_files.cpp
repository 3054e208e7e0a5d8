// PL103 small-files: a scan that read many files of a small average size. Each file costs a
// listing entry, an open, a footer read and scheduling work whatever its size.
#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/plan_util.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinFiles{"min-files"};
inline constexpr ThresholdKey kMaxAverageFileBytes{"max-average-file-bytes"};

// Spark's file-split settings at their defaults (Databricks keeps them): a task reads up to
// spark.sql.files.maxPartitionBytes, and split planning counts every file as
// spark.sql.files.openCostInBytes more bytes, "the estimated cost to open a file, measured by the
// number of bytes that could be scanned in the same time".
inline constexpr double kMaxPartitionBytes = 128.0 * 1024 * 1024;
inline constexpr double kOpenCostBytes = 4.0 * 1024 * 1024;

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "small-files";
  r.code = "PL103";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "A scan read many small files";
  r.what =
      "Reports a table scan that read many files whose average size is small. The message says how "
      "small against Spark's split settings: under `spark.sql.files.openCostInBytes` (4 MiB), opening "
      "a file costs more than reading it and per-file overhead dominates; above it, the message gives "
      "the files' share of the `spark.sql.files.maxPartitionBytes` (128 MiB) a task can read and the "
      "open cost as a share on top of an average file.";
  r.why =
      "Per-file costs do not shrink with the file: listing, opening, fetching and decoding the "
      "Parquet footer, and one scheduling share per file split. Thousands of few-MB files spend "
      "more time on that overhead and on cloud-storage latency than on reading data; they also "
      "slow compilation (the driver lists them) and make min/max file skipping less effective. "
      "Small files come from frequent small appends (streaming, micro-batches, row-by-row "
      "INSERTs), over-partitioned tables, and writes with too many shuffle partitions.";
  r.example = "Scan events: Files read 48,000, Size of files read 9.4 GiB (average 205 KiB)";
  r.use_instead =
      "-- Delta: compact to ~1 GB files, and keep compacting on write\n"
      "OPTIMIZE events;\n"
      "ALTER TABLE events SET TBLPROPERTIES ('delta.autoOptimize.optimizeWrite' = 'true',\n"
      "                                      'delta.autoOptimize.autoCompact' = 'true');\n"
      "-- Iceberg: the compaction procedure\n"
      "CALL cat.system.rewrite_data_files(table => 'db.events');\n"
      "-- plain Parquet / ORC files: rewrite them with fewer, larger files, then switch readers over\n"
      "CREATE TABLE events_compacted USING parquet AS SELECT /*+ REBALANCE */ * FROM events;";
  r.evidence =
      "Query Profile JSON: scan metrics `Files read` and `Size of files read` (plus `Size of the "
      "smallest file read`, file-listing and footer-fetch times when present); Spark event logs and History "
      "Server answers: `number of files read` and `size of files read`, or an Iceberg scan's `number of result "
      "data files` and `total data file size (bytes)` (a History Server without the Iceberg classes answers "
      "`N/A` for those). Explain text has no file counts: no finding.";
  r.thresholds = {
      {kMinFiles, 200, "files",
       "fewer files cost at most a few seconds of per-file overhead in total"},
      {kMaxAverageFileBytes, 33554432, "bytes",
       "an average under 32 MiB is a quarter of the 128 MiB Spark reads per task "
       "(spark.sql.files.maxPartitionBytes) and of Delta auto compaction's target; OPTIMIZE "
       "writes ~1 GiB files"},
  };
  return r;
}

// Compaction in the words of the table's format: OPTIMIZE is Delta's, rewrite_data_files Iceberg's;
// plain Parquet / ORC files are rewritten by a Spark job.
std::string compaction_fix(const Operator& scan, const std::string& table) {
  const std::string delta = "`OPTIMIZE " + table + "` (Delta writes ~1 GiB files)";
  const std::string iceberg = "`" + iceberg_rewrite_call(table) + "` (files of `write.target-file-size-bytes`, 512 MiB by default)";
  const std::string files =
      "rewrite them into a new table or path with fewer, larger files (`repartition(n)` / `coalesce(n)` "
      "before the write, or `SELECT /*+ REBALANCE */`), with `spark.sql.files.maxRecordsPerFile` left at 0 "
      "or high enough not to cut files small, and switch readers over (Spark cannot overwrite a path it "
      "reads)";
  switch (table_kind(scan)) {
    case TableKind::Delta:
      return "Compact the table: " + delta + ", and keep it compact with `delta.autoOptimize.optimizeWrite` / "
             "`delta.autoOptimize.autoCompact` or predictive optimization.";
    case TableKind::Iceberg:
      return "Compact the table: " + iceberg + ", then `expire_snapshots` to drop the small files' snapshots.";
    case TableKind::Files:
      return "Compact the files: " + files + ".";
    case TableKind::Unknown: break;
  }
  return "Compact the table in its format's way: Delta " + delta + "; Iceberg " + iceberg + "; plain Parquet/ORC files: " +
         files + ".";
}

class SmallFiles final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    for (const Operator* active : ctx.active_ops(OpKind::Scan)) {
      const Operator& op = *active;
      auto files = first_metric(op, {Metric::FilesRead});
      auto bytes = first_metric(op, {Metric::FilesReadBytes});
      if (!files || !bytes || *files < ctx.threshold(kMinFiles) || *files <= 0) continue;
      double avg = *bytes / *files;
      if (avg >= ctx.threshold(kMaxAverageFileBytes)) continue;
      // What the sizes support: overhead dominates only where opening a file costs more than
      // reading it (files under the open cost); larger small files pay it on top of their data.
      std::string msg = scan_ref(op) + " read " + format_count(*files) + " files of " + format_bytes(avg) +
                        " on average (" + format_bytes(*bytes) + " in total)";
      if (avg < kOpenCostBytes) {
        msg += ": per-file overhead dominates, since Spark counts opening a file as much as reading " +
               format_bytes(kOpenCostBytes) + " (spark.sql.files.openCostInBytes), more than the " + format_bytes(avg) +
               " an average file holds";
      } else {
        msg += ", " + format_percent(avg / kMaxPartitionBytes) + " of the " + format_bytes(kMaxPartitionBytes) +
               " a task can read (spark.sql.files.maxPartitionBytes); Spark counts opening each file as much as reading " +
               format_bytes(kOpenCostBytes) +
               " (spark.sql.files.openCostInBytes), " + format_percent(kOpenCostBytes / avg) +
               " on top of an average file";
      }
      Diagnostic d = ctx.make(op, std::move(msg));
      d.evidence.push_back({"files read", *files, Unit::Files});
      d.evidence.push_back({"size of files read", *bytes, Unit::Bytes});
      d.evidence.push_back({"average file size", avg, Unit::Bytes});
      d.evidence.push_back({"open cost per file (spark.sql.files.openCostInBytes, 4 MiB by default)", kOpenCostBytes,
                            Unit::Bytes});
      if (avg >= kOpenCostBytes) {  // the shares the message quotes
        d.evidence.push_back({"average file to task split (spark.sql.files.maxPartitionBytes, 128 MiB by default)",
                              avg / kMaxPartitionBytes, Unit::Percent});
        d.evidence.push_back({"open cost on top of an average file", kOpenCostBytes / avg, Unit::Percent});
      }
      if (auto s = first_metric(op, {Metric::SmallestFileBytes}))
        d.evidence.push_back({"smallest file", *s, Unit::Bytes});
      if (auto l = first_metric(op, {Metric::FileStatusTime}))
        d.evidence.push_back({"file listing time", *l, Unit::Ms});
      auto footers = first_metric(op, {Metric::FooterFetchTime});
      if (footers) d.evidence.push_back({"footer fetch wait", *footers, Unit::Ms});
      if (auto c = query_metric(plan, {Metric::CompilationTime}))
        d.evidence.push_back({"query compilation time", *c, Unit::Ms});
      std::string table = op.table().empty() ? std::string("<table>") : op.table().str();
      d.fix = compaction_fix(op, table) +
              " Fix the writer too: fewer, larger appends (longer streaming triggers), no partitioning on "
              "high-cardinality columns, and fewer output partitions on write.";
      if (footers && *footers > 0) {
        set_impact(d, *footers, "ms", " of task time waiting for file footers");
      } else {
        set_impact(d, *files, "files", " files opened");
      }
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_small_files() { return std::make_unique<SmallFiles>(); }

}  // namespace planlint
