// Spark event logs -> typed facts: the names of Spark's SQL metrics (as the event-log reader
// spells them: Spark's name with a capital first letter) and the version the log states.
#include <string>
#include <string_view>
#include <utility>

#include "parser/common/facts_fill.hpp"

namespace planlint {

namespace {

constexpr std::pair<std::string_view, Metric::Id> kEventLogMetrics[] = {
    {"Number of output rows", Metric::OutputRows},
    {"Number of rows scanned", Metric::RowsScanned},
    {"Number of files read", Metric::FilesRead},
    {"Number of files pruned", Metric::FilesPruned},
    {"Size of files read", Metric::FilesReadBytes},
    {"Metadata time", Metric::FileStatusTime},
    {"Data size", Metric::DataSize},
    {"Shuffle bytes written", Metric::ShuffleBytesWritten},
    {"Shuffle records written", Metric::ShuffleRecordsWritten},
    {"Number of partitions", Metric::ExchangePartitions},
    {"Partition data size", Metric::ShuffleReadPartitionDataSize},
    {"Number of skewed partitions", Metric::SkewedPartitions},
    {"Number of skewed partition splits", Metric::SkewedPartitionSplits},
    {"Spill size", Metric::SpillSize},
    {"Peak memory", Metric::PeakMemory},
    {"Duration", Metric::Duration},
    {"Time in aggregation build", Metric::AggBuildTime},
    // Iceberg's scan (org.apache.iceberg.spark.source.metrics, reported by the driver): the data
    // files left after planning, and their bytes.
    {"Number of result data files", Metric::FilesRead},
    {"Total data file size (bytes)", Metric::FilesReadBytes},
};

constexpr std::pair<std::string_view, Metric::Id> kEventLogQueryMetrics[] = {
    {"totalTimeMs", Metric::TotalTime},
    {"taskTotalTimeMs", Metric::TaskTotalTime},
};

}  // namespace

void fill_eventlog_facts(Plan& plan, std::string_view spark_version) {
  for (Operator& op : plan.ops)
    if (op.has_runtime())
      for (Metric& m : op.edit_runtime().metrics) m.id = lookup_metric(kEventLogMetrics, m.label);
  for (Metric& m : plan.query.metrics) m.id = lookup_metric(kEventLogQueryMetrics, m.label);
  // "3.5.1", "2.4.8-amzn-0": major and minor as stated by the log.
  int major = 0, minor = 0;
  std::size_t i = 0;
  // A version part has a few digits; a longer run (damage) is no version and would overflow.
  while (i < spark_version.size() && spark_version[i] >= '0' && spark_version[i] <= '9' && i < 6)
    major = major * 10 + (spark_version[i++] - '0');
  if (i > 0 && i < spark_version.size() && spark_version[i] == '.') {
    ++i;
    std::size_t s = i;
    while (i < spark_version.size() && spark_version[i] >= '0' && spark_version[i] <= '9' && i - s < 6)
      minor = minor * 10 + (spark_version[i++] - '0');
    if (i > s) {
      plan.facts.engine.spark_major = major;
      plan.facts.engine.spark_minor = minor;
      plan.facts.engine.version_inferred = false;
    }
  }
}

}  // namespace planlint
