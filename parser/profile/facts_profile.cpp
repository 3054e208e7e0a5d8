// Databricks Query Profile JSON -> typed facts: the profile's metadata keys and labels, its metric
// labels, its partitioning type and query-level metric names.
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "parser/common/facts_fill.hpp"
#include "support/text_search.hpp"

namespace planlint {

namespace {

// Metadata keys (and the labels used when an entry has no key).
constexpr std::pair<std::string_view, FieldRole> kProfileFieldRoles[] = {
    {"OUTPUT", FieldRole::Output},
    {"DATA_COLUMNS", FieldRole::DataColumns},
    {"FILTERS", FieldRole::ScanFilters},
    {"Filters", FieldRole::ScanFilters},
    {"PARTITION_FILTERS", FieldRole::PartitionFilters},
    {"Partition filters", FieldRole::PartitionFilters},
    {"CONDITION", FieldRole::Condition},
    {"LEFT_KEYS", FieldRole::LeftKeys},
    {"RIGHT_KEYS", FieldRole::RightKeys},
    {"PARTITIONING_TYPE", FieldRole::Partitioning},
    {"SCAN_CLUSTERS", FieldRole::Clustering},
    {"Cluster attributes", FieldRole::Clustering},
    {"SCAN_IDENTIFIER", FieldRole::TableIdentifier},
    {"Identifier", FieldRole::TableIdentifier},
    {"SCAN_FILE_PATHS", FieldRole::Location},
};

// The AQEShuffleRead counter of partitions that received no data (the export carries it on the
// exchange; Spark's own AQEShuffleRead has no such metric).
constexpr std::string_view kProfileEmptyPartitions = "AQEShuffleRead - Number of empty partitions";

// Operator metric labels of the profile's export.
constexpr std::pair<std::string_view, Metric::Id> kProfileMetrics[] = {
    {"Number of output rows", Metric::OutputRows},
    {"Rows scanned", Metric::RowsScanned},
    {"Sink - Number of output rows", Metric::SinkOutputRows},
    {"Source - Number of output rows", Metric::SourceOutputRows},
    {"Shuffle records written", Metric::ShuffleRecordsWritten},
    {"Exchange - Shuffle records written", Metric::ExchangeShuffleRecordsWritten},
    {"Files read", Metric::FilesRead},
    {"Files pruned", Metric::FilesPruned},
    {"Size of files read", Metric::FilesReadBytes},
    {"Size of files pruned", Metric::FilesPrunedBytes},
    {"Size of the smallest file read", Metric::SmallestFileBytes},
    {"Time spent on fetching FileStatus", Metric::FileStatusTime},
    {"Executor time IO wait - fetch footers", Metric::FooterFetchTime},
    {"Data size", Metric::DataSize},
    {"Exchange - Data size", Metric::ExchangeDataSize},
    {"AQEShuffleRead - Partition data size", Metric::ShuffleReadPartitionDataSize},
    {"Shuffle bytes written", Metric::ShuffleBytesWritten},
    {"Exchange - Shuffle bytes written", Metric::ExchangeShuffleBytesWritten},
    {"Sink - Num bytes written", Metric::SinkBytesWritten},
    {"Sink - Num uncompressed bytes written", Metric::SinkUncompressedBytesWritten},
    {"Sink - Number of partitions", Metric::SinkPartitions},
    {"Exchange - Number of partitions", Metric::ExchangePartitions},
    {"AQEShuffleRead - Number of skewed partitions", Metric::SkewedPartitions},
    {"AQEShuffleRead - Number of skewed partition splits", Metric::SkewedPartitionSplits},
    {"MapStage - Skew max to non-empty median ratio", Metric::MapStageSkewRatio},
    {"MapStage - Skew num skewed partitions", Metric::MapStageSkewedPartitions},
    {"Num bytes spilled to disk due to memory pressure", Metric::SpillBytes},
    {"Sink - Num bytes spilled to disk due to memory pressure", Metric::SinkSpillBytes},
    {"Num bytes spilled from left side", Metric::SpillBytesLeft},
    {"Num bytes spilled from right side", Metric::SpillBytesRight},
    {"Spill size", Metric::SpillSize},
    {"Num spills to disk due to memory pressure", Metric::Spills},
    {"Sink - Num spills to disk due to memory pressure", Metric::SinkSpills},
    {"Num rows spilled to disk due to memory pressure", Metric::SpilledRows},
    {"Sink - Num rows spilled to disk due to memory pressure", Metric::SinkSpilledRows},
    {"Max spill recursion depth", Metric::SpillRecursionDepth},
    {"Sink - Time for merging spill files in shuffle", Metric::SinkSpillMergeTime},
    {"Time in aggregation build", Metric::AggBuildTime},
};

// Query-level metrics (export camelCase; query-history column names as camel-cased by the reader).
constexpr std::pair<std::string_view, Metric::Id> kProfileQueryMetrics[] = {
    {"totalTimeMs", Metric::TotalTime},
    {"totalDurationMs", Metric::TotalTime},
    {"queuedProvisioningTimeMs", Metric::WaitingForComputeTime},
    {"waitingForComputeDurationMs", Metric::WaitingForComputeTime},
    {"queuedOverloadTimeMs", Metric::QueuedAtCapacityTime},
    {"waitingAtCapacityDurationMs", Metric::QueuedAtCapacityTime},
    {"compilationTimeMs", Metric::CompilationTime},
    {"compilationDurationMs", Metric::CompilationTime},
    {"executionTimeMs", Metric::ExecutionTime},
    {"executionDurationMs", Metric::ExecutionTime},
    {"resultFetchTimeMs", Metric::ResultFetchTime},
    {"resultFetchDurationMs", Metric::ResultFetchTime},
    {"metadataTimeMs", Metric::MetadataTime},
    {"taskTotalTimeMs", Metric::TaskTotalTime},
    {"totalTaskDurationMs", Metric::TaskTotalTime},
    {"photonTotalTimeMs", Metric::PhotonTotalTime},
    {"spillToDiskBytes", Metric::QuerySpillBytes},
    {"spilledLocalBytes", Metric::QuerySpillBytes},
    {"readBytes", Metric::QueryReadBytes},
};

}  // namespace

void fill_profile_facts(Plan& plan) {
  fill_photon_explanation_facts(plan.photon);
  {
    // The operators' facts (OutOfLine parts, their lists) live in the plan's store, not a heap block each.
    const BlockScope blocks(plan.text_store());
    for (Operator& op : plan.ops) {
      for (Field& f : op.fields)
        for (const auto& [key, role] : kProfileFieldRoles)
          if (f.key == key) {
            f.role = role;
            break;
          }
      if (op.has_runtime())
        for (Metric& m : op.edit_runtime().metrics) m.id = lookup_metric(kProfileMetrics, m.label);
      fill_operator_name_facts(op);
      for (const Metric& m : op.metrics())
        if (m.value && m.label == kProfileEmptyPartitions) op.facts.edit().shuffle_partitions.edit().empty_partitions = m.value;
      if (op.facts->shuffle_partitions->empty_partitions) {
        ShufflePartitionFacts& sp = op.facts.edit().shuffle_partitions.edit();
        sp.partitions = op.metric_value(Metric::SinkPartitions);
        if (!sp.partitions) sp.partitions = op.metric_value(Metric::ExchangePartitions);
        sp.bytes = op.metric_value(Metric::ShuffleReadPartitionDataSize);
      }
      if (op.kind == OpKind::Exchange) {
        if (const Field* f = op.field(FieldRole::Partitioning); f && f->value == "Single") {
          op.facts.edit().partitioning.kind = PartitioningKind::Single;
          op.facts.edit().partitioning.partitions = 1;
          op.facts.edit().partitioning.single = true;
        }
      }
      std::string t = op.label + "\n" + op.arguments;
      for (const Field& f : op.fields)
        if (f.role == FieldRole::Partitioning) t += "\n" + f.value;
      if (contains(t, "EXECUTOR_BROADCAST")) op.facts.edit().partitioning.executor_broadcast = true;
      if (op.kind == OpKind::Aggregate && op.extra()->tag == "PHOTON_AGG_EXEC") op.facts.edit().global_aggregate = true;
      if (op.kind == OpKind::Scan && op.name.find(' ') == std::string::npos && op.label.rfind("Scan ", 0) == 0)
        op.facts.edit().label_names_table = true;
      if (op.kind == OpKind::Scan) {
        if (!op.scan) op.scan = SharedPart<ScanFacts>::make();
        std::string fmt;
        for (char c : op.scan_format()) fmt += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        op.scan->format = fmt;
        bool delta = false;
        for (const Field& f : op.fields)
          if (f.key == "IS_DELTA" && (f.value == "true" || f.value == "True")) delta = true;
        op.scan->source = delta || fmt == "delta" ? ScanSource::Delta
                          : fmt == "jdbc"         ? ScanSource::Jdbc
                          : fmt.empty()           ? ScanSource::Unknown
                                                  : ScanSource::File;
      }
    }
  }
  for (Metric& m : plan.query.metrics) m.id = lookup_metric(kProfileQueryMetrics, m.label);
  plan.facts.engine.databricks = true;
  derive_common_facts(plan);
}

}  // namespace planlint
