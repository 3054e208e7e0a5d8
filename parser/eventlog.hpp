// Spark event logs (spark.eventLog.enabled=true): one Plan per SQL execution, with metric values
// attached through accumulator ids and each stage's task-time distribution.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "parser/plan.hpp"

namespace planlint {

struct EventLogOptions {
  std::optional<long long> execution;  // only this SQL execution id
};

ParseResult parse_event_log(std::string_view text, const std::string& path, const EventLogOptions& opts);
// The same, reading one line at a time: memory stays bounded by the executions' state, not the
// size of the log.
ParseResult parse_event_log_stream(std::istream& in, const std::string& path, const EventLogOptions& opts);
// True for the magic numbers of the codecs Spark writes logs with (zstd, lz4, snappy).
bool looks_compressed_event_log(std::string_view head);

}  // namespace planlint
