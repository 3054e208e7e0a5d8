// Typed facts of the plan model. Each reader fills them from its own spellings (one name table per
// reader: parser/facts_explain.cpp, facts_profile.cpp, facts_eventlog.cpp); rules read only these
// enums and structs, never a field key, a metric label or an operator-name fragment.
#pragma once

#include "model/column_set.hpp"
#include "support/out_of_line.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

// What a detail field of an operator means, whatever the input called it (`PushedFilters`,
// `FILTERS`, `Condition`, `CONDITION`, ...). Set by the reader that created the field.
enum class FieldRole : std::uint8_t {
  None,
  Output,               // Output [N] / OUTPUT
  Input,                // Input [N]
  ReadSchema,           // ReadSchema: struct<...>
  DataColumns,          // profile DATA_COLUMNS
  Location,             // Location: InMemoryFileIndex [...]
  PushedFilters,        // what the source accepted (PushedFilters)
  DataFilters,          // DataFilters (offered to the source; Photon evaluates them in the scan)
  RequiredDataFilters,  // Photon
  OptionalDataFilters,  // Photon
  DictionaryFilters,    // Photon
  PartitionFilters,     // PartitionFilters / PARTITION_FILTERS / "Partition filters"
  ScanFilters,          // profile FILTERS / "Filters", Iceberg's `[filters=...]`: the filters the scan node evaluates
  Condition,            // Filter / join condition: Condition / CONDITION
  LeftKeys,
  RightKeys,
  JoinCondition,
  GroupingKeys,         // aggregate Keys
  Arguments,            // Arguments: (formatted mode)
  Partitioning,         // Partitioning / PARTITIONING_TYPE
  Clustering,           // SCAN_CLUSTERS / Cluster attributes / ClusteringColumns
  TableIdentifier,      // SCAN_IDENTIFIER / Identifier
};
std::string_view to_string(FieldRole r);

// ---- partitioning and shuffle reads ------------------------------------------------------------

enum class PartitioningKind : std::uint8_t { Unknown, Hash, Range, RoundRobin, Single, Broadcast, Coalesce, Other };

// Why Spark planned the shuffle (Spark 3.1+ prints it after the partitioning: `ENSURE_REQUIREMENTS`,
// `REPARTITION_BY_NUM`, ...): which setting or call decides its partition count.
enum class ShuffleOrigin : std::uint8_t {
  Unknown,             // not printed (Spark 2.x / 3.0, Query Profiles)
  EnsureRequirements,  // a join / aggregate / window needs it: spark.sql.shuffle.partitions
  RepartitionByNum,    // repartition(n) / coalesce with shuffle: the number in the code
  RepartitionByCol,    // repartition(col) / DISTRIBUTE BY without a number: spark.sql.shuffle.partitions
  Rebalance,           // REBALANCE hint / rebalance(): AQE sizes it
};

struct Partitioning {
  PartitioningKind kind = PartitioningKind::Unknown;
  std::optional<std::uint32_t> partitions;  // hashpartitioning(k, 200) -> 200; Coalesce 1 -> 1
  bool single = false;                      // everything goes to one partition (SinglePartition,
                                            // RoundRobinPartitioning(1), Coalesce 1, profile "Single")
  bool executor_broadcast = false;          // Photon's executor-side broadcast (one partition on purpose)
  ShuffleOrigin origin = ShuffleOrigin::Unknown;
};

// How a shuffle's data spread over its partitions, when the source counts it (Query Profiles: the
// AQEShuffleRead and sink counters of the exchange). Set on the exchange that carries the counters.
struct ShufflePartitionFacts {
  std::optional<double> partitions;        // partitions the map side wrote (before AQE coalescing)
  std::optional<double> empty_partitions;  // of them, the partitions that received no data
  std::optional<double> bytes;             // bytes the reduce side read from all partitions
};

struct ShuffleReadFacts {
  bool coalesced = false;     // AQE coalesced small partitions
  bool skew_handled = false;  // AQE split skewed partitions here
  bool local = false;         // local shuffle read (after a runtime switch to broadcast)
};

// ---- scans -------------------------------------------------------------------------------------

enum class ScanSource : std::uint8_t {
  Unknown,
  File,          // parquet, orc, csv, json, text, avro (v1 file source or DSv2 file scan)
  Delta,
  Iceberg,
  Hive,          // HiveTableScan / Scan hive
  Jdbc,
  Cassandra,
  DataSourceV2,  // another DSv2 connector (BatchScan of a non-file table)
  Cache,         // InMemoryTableScan / InMemoryRelation
  Local,         // LocalTableScan / Range / RDD
};
std::string_view to_string(ScanSource s);

struct ScanFacts {
  ScanSource source = ScanSource::Unknown;
  std::string format;                         // lower-case file format when known: parquet, orc, csv, ...
  std::optional<ColumnSet> data_columns;      // stored columns (ReadSchema / DATA_COLUMNS), key form
  ColumnSet output_columns;                   // Output / OUTPUT, key form (lower-case, no qualifier)
  ColumnSet partition_columns;                // columns named by partition filters
  bool output_truncated = false;
  bool data_columns_truncated = false;
  bool location_truncated = false;            // Location / file list abbreviated: it cannot be compared
  std::optional<std::uint32_t> source_partitions;  // JDBC [numPartitions=N]
  // Pushed filters the source marked as fully handled (`*IsNotNull(x)`: JDBC), by printed text.
  std::vector<std::string> handled_by_source;
  // Does the source keep min/max statistics it can skip data with (Parquet, ORC, Delta, Iceberg)?
  [[nodiscard]] bool has_min_max_stats() const;
};

// ---- UDFs --------------------------------------------------------------------------------------

enum class UdfKind : std::uint8_t { None, PythonRow, PythonArrow, Pandas, Jvm };
std::string_view to_string(UdfKind k);

struct UdfFacts {
  UdfKind kind = UdfKind::None;
  std::string calls;   // the UDF call(s) as printed ("[my_udf(name#2)#5]"), when the reader saw them
  bool in_python_worker() const { return kind == UdfKind::PythonRow || kind == UdfKind::PythonArrow || kind == UdfKind::Pandas; }
};

// ---- hints -------------------------------------------------------------------------------------

enum class HintKind : std::uint8_t { Other, Broadcast, ShuffleHash, Merge, ShuffleReplicateNl };
std::string_view to_string(HintKind k);
// BROADCAST / BROADCASTJOIN / MAPJOIN -> Broadcast, SHUFFLE_HASH -> ShuffleHash, MERGE /
// SHUFFLE_MERGE / MERGEJOIN -> Merge, SHUFFLE_REPLICATE_NL -> ShuffleReplicateNl (any case).
HintKind hint_kind(std::string_view name);

// A `/*+ NAME(a, b) */` hint of the query's SQL text, parsed by the reader that carried the text.
struct SqlHint {
  std::string name;               // upper-case as written: BROADCAST, MAPJOIN, SHUFFLE_HASH, ...
  HintKind kind = HintKind::Other;
  std::vector<std::string> args;  // relation names / aliases as written
};

// ---- per operator ------------------------------------------------------------------------------

struct OpFacts {
  Partitioning partitioning;    // exchanges and Coalesce
  ShuffleReadFacts shuffle_read;
  OutOfLine<ShufflePartitionFacts> shuffle_partitions;  // exchanges whose source counts empty partitions
  OutOfLine<std::string> fallback_reason;  // the engine's own note on why this operator was not
                                           // offloaded (Comet's `[COMET: ...]` annotation in an explain tree)
  OutOfLine<UdfFacts> udf;      // UDF operators (out of line: 40 bytes most operators with facts lack)
  bool comet = false;           // an Apache Comet (DataFusion) native operator, or a transition into Comet
  bool row_to_columnar = false; // converts JVM rows into a native engine's columnar batches (RowToColumnar,
                                // RowToVeloxColumnar, GlutenRowToArrowColumnar, CometSparkRowToColumnar, ...)
  bool streaming = false;       // a stateful streaming operator (state store, watermark, ...)
  bool result_stage = false;    // ResultQueryStage: wraps the final result, not a shuffle stage
  bool logical_join = false;    // a logical Join node (extended / cost modes)
  bool global_aggregate = false;  // an aggregate with no grouping keys (at most one row)
  bool join_has_condition = false; // a join with keys or a condition (not `None`)
  bool passes_columns = false;     // a Project that only passes its input columns on (no expression, no rename)
  bool runtime_filter_agg = false; // an aggregate building a bloom filter for a runtime filter (bloom_filter_agg)
  bool runtime_filter_side = false; // below such an aggregate: the creation side Spark's InjectRuntimeFilter
                                    // reads once more on purpose (its own plumbing, not a user's repeat);
                                    // derive_common_facts sets it from runtime_filter_agg
  bool label_names_table = false;  // the label, not the generic name, says which table (profile scans)
};

// ---- per plan ----------------------------------------------------------------------------------

struct EngineFacts {
  std::optional<int> spark_major;  // when known (event log) or inferable from the plan's markers
  std::optional<int> spark_minor;
  bool version_inferred = false;   // from markers, not stated by the source
  bool databricks = false;
  bool photon = false;             // Photon operators present
  bool gluten = false;             // Gluten / Velox operators present
  bool comet = false;              // Comet operators present
  bool gpu = false;                // NVIDIA RAPIDS (Gpu*) operators present
};

// Per-task shuffle-read distribution of one Spark stage (event logs: the tasks' shuffle read
// metrics), keyed by StageInfo::id. Only stages that read a shuffle.
struct StageShuffleReadFacts {
  std::string stage_id;
  double tasks = 0;
  double bytes_max = 0, bytes_median = 0, bytes_total = 0;   // bytes read per task
  double records_max = 0, records_median = 0;                // records read per task
  double empty_tasks = 0;                                    // tasks that read no record
};

struct PlanFacts {
  EngineFacts engine;
  // Adaptive execution: true when the plan shows it (an AdaptiveSparkPlan, a query stage or an AQE
  // shuffle read: derive_common_facts), or, in an event log, when the application's environment set
  // spark.sql.adaptive.enabled=true (a plan without AQE operators was then planned without AQE for a
  // reason of Spark's own, such as dynamic partition pruning in 3.0/3.1); false only when that
  // setting is false and the plan shows no adaptive operator; unknown otherwise.
  std::optional<bool> aqe;
  bool streaming = false;          // any streaming operator
  std::vector<SqlHint> sql_hints;  // hints of QueryInfo::sql_text
  std::vector<StageShuffleReadFacts> stage_shuffle_reads;  // event logs
  bool final_plan_collapsed = false;  // the AQE final plan is only a LocalTableScan <empty> (or the like):
                                      // the initial plan's stages are what ran
};

// Facts every reader derives the same way from the typed parts of the model (field roles, kinds,
// engines): scan columns, partition columns, list truncation, engine presence, AQE, SQL hints.
// Readers call it after their own fill_*_facts.
struct Plan;
void derive_common_facts(Plan& plan);

// `/*+ NAME(a, b), NAME2 */` hints of a SQL text.
std::vector<SqlHint> parse_sql_hints(std::string_view sql);

// Printed text with expression ids and plan ids dropped, so that two printings of the same subtree
// compare equal: "a#12L" -> "a", "[id=#45]" / "[plan_id=7]" -> "". Subquery references keep their
// ids: two scans pruned by different dynamic-pruning subqueries read different files.
std::string without_ids(std::string_view text);
// As without_ids, appended to `out` (no temporary string: signatures are built from many texts).
void append_without_ids(std::string& out, std::string_view text);

// Column name without qualifier, lower-case ("T2.ID" -> "id", "d_year#2" -> "d_year").
std::string column_key(std::string_view name);
// column_key(name) without a copy where none is needed: the key as a view into `name` when it is a
// part of the name as printed (no quote, nothing to lower-case: nearly every name), nullopt when
// column_key(name) has to build it.
std::optional<std::string_view> column_key_view(std::string_view name);
// The same, kept: a view into `name` when the key is a part of it as printed (no quotes, already
// lower-case), else a copy in `store`.
Text column_key(TextStore& store, Text name);

}  // namespace planlint
