// Spark event logs (spark.eventLog.enabled=true): one Plan per SQL execution, with metric values
// attached through accumulator ids and each stage's task-time distribution.
//
// Inputs: a single log file (plain JSON lines, or compressed with zstd / lz4 / snappy as Spark
// writes them with spark.eventLog.compress=true; the codec is found from the first bytes), or a
// rolling log directory `eventlog_v2_<appId>/` whose `events_<N>_<appId>[.<codec>]` files are read
// in N order as one stream (spark.eventLog.rolling.enabled=true).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

struct EventLogOptions {
  std::optional<long long> execution;  // only this SQL execution id
  // Bounded memory for logs whose executions never end: above this many executions running at
  // once, or this much state kept for them (plan texts, plan-info trees), the oldest one is
  // built and handed on as unfinished (status RUNNING) with a note.
  std::size_t max_open_executions = 1000;
  std::size_t max_open_bytes = 256u << 20;
};

// Receives each SQL execution's plan as soon as the execution has ended (and, at the end of the
// log, the plans of executions that never ended), in that order. With a sink, the reader keeps
// only the state of executions still running: memory does not grow with the length of the log.
using EventLogSink = std::function<void(Plan&&)>;

// What the reader says about event logs (model/plan.hpp): JSON lines, possibly compressed, one plan
// per SQL execution.
inline constexpr InputTraits kEventLogTraits{
    .display_name = "event log", .json = true, .may_be_binary = true, .executions = true};

ParseResult parse_event_log(std::string_view text, const std::string& path, const EventLogOptions& opts);
// The same with the default options (every execution).
ParseResult parse_event_log(std::string_view text, const std::string& path);
// The same, reading one line at a time (plain or compressed). Without a sink the plans are in
// the result, ordered by execution id; with one, the result holds only the messages.
ParseResult parse_event_log_stream(std::istream& in, const std::string& path, const EventLogOptions& opts,
                                   const EventLogSink& sink = {});
// A log file or a rolling log directory at `path`, streamed. `display` names it in the result
// (default: `path`). Line numbers of a rolling directory count through its events files in order.
ParseResult read_event_log(const std::filesystem::path& path, const std::string& display, const EventLogOptions& opts,
                           const EventLogSink& sink = {});

// True for the magic numbers of the codecs Spark writes logs with (zstd, lz4, snappy) and the
// other compressed formats the reader recognises.
bool looks_compressed_event_log(std::string_view head);
// A rolling event-log directory: its name starts with `eventlog_v2_`, or (Databricks) it holds
// rolled hours named `eventlog-<yyyy>-<mm>-<dd>--<hh>-<mm>[.gz]`, read in time order, then `eventlog`.
bool is_rolling_event_log_dir(const std::filesystem::path& path);
// The two halves of that test for a caller that lists the folder anyway (a folder walk): a folder
// named `eventlog_v2_*` is one; so is a folder that holds an entry named like a Databricks rolled
// hour (`is_databricks_rolled_name`).
bool has_rolling_event_log_name(const std::filesystem::path& dir);
bool is_databricks_rolled_name(std::string_view entry_name);
// A rolling directory, or a file that starts like an event log (compressed, or a JSON line with
// an "Event" field): what `planlint check` streams instead of reading whole.
bool is_event_log_path(const std::filesystem::path& path);
// The same for a regular file whose first bytes (up to 4096) are `head`: a Spark event log,
// compressed or not, by its content.
bool is_event_log_head(std::string_view head);

}  // namespace planlint
