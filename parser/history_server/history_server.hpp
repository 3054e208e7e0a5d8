// Spark History Server / live UI REST answers for SQL executions:
// `GET /api/v1/applications/<app>/sql[/<execution>]?details=true` (Spark's SqlResource). One
// `ExecutionData` object or a list of them; each gives one Plan: its `planDescription` (the
// formatted explain text of the final plan) read by the explain-text reader, with the SQL tab's
// per-node metric values (`nodes`, display strings like "1.2 MiB" or
// "total (min, med, max (stageId: taskId))\n10.0 s (...)") attached to the matching operators
// through the graph (`edges`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

struct HistoryServerOptions {
  std::optional<long long> execution;  // only this SQL execution id
};

// True when `text` starts like an ExecutionData object or a list of them: a JSON object (or array
// whose first object) opens with `"id": <number>, "status"`, or has "planDescription" with the
// SqlResource's job-id fields in its head. Needs only the first bytes (a long description is fine).
bool looks_like_history_server(std::string_view text);

// True when `text` starts like a node object of an answer's `nodes` list (or a list of them)
// pasted without its execution: `{"nodeId": 14, "nodeName": ...` and no planDescription.
bool looks_like_history_server_fragment(std::string_view text);

// What the reader says about History Server answers (model/plan.hpp): JSON, one plan per SQL
// execution.
inline constexpr InputTraits kHistoryServerTraits{
    .display_name = "History Server answer", .json = true, .executions = true};

ParseResult parse_history_server(std::string_view text, const std::string& path,
                                 const HistoryServerOptions& opts = {});

// A fragment (looks_like_history_server_fragment): the pasted node objects, with an author's
// elision lines (`...`) and dropped closing brackets tolerated, as one plan of unconnected
// operators with their metrics and a warning naming the shape and each elision; an error naming
// the shape when no operator is left (a lone WholeStageCodegen node).
ParseResult parse_history_server_fragment(std::string_view text, const std::string& path);

// One metric display string of SQLMetrics.stringValue to a value in Count / Bytes / Millis:
// "10,000", "1.2 MiB", "44 ms", "2.3 m", "total (min, med, max (stageId: taskId))\n5 s (...)",
// Spark 3.0's "\n5 s (1 s, 2 s, 2 s)". nullopt when not a number. The label is kept by `names`.
std::optional<Metric> history_server_metric(MetricNames& names, std::string_view name, std::string_view value);

}  // namespace planlint
