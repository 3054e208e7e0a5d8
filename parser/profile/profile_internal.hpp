// Internals of the Query Profile reader shared by its files (parser/profile/*.cpp). Not an API.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "model/plan.hpp"
#include "parser/profile/profile_json_scan.hpp"

namespace planlint::profile {

using nlohmann::json;

// `camelKey` or its snake_case spelling (`camel_key`): the export's GraphQL names are camelCase,
// protobuf-JSON dumps of the same messages are snake_case. Null counts as absent.
const json* member(const json& object, std::string_view camel_key);

// A number, or a string holding one (planMetadatas carries int64 as strings).
std::optional<double> number(const json* v);

// A scalar as text ("" for absent values and containers: containers are never dumped, their depth
// is untrusted).
std::string text(const json* v);

inline bool as_bool(const json& v) { return v.get<bool>(); }

// The same three for a value of a LiteDoc (profile_json_scan.hpp): they answer what the json
// overloads answer for nlohmann's document of the same text.
std::optional<LiteRef> member(const LiteRef& object, std::string_view camel_key);
std::optional<double> number(const LiteRef* v);
inline std::optional<double> number(const std::optional<LiteRef>& v) { return number(v ? &*v : nullptr); }
std::string text(const LiteRef* v);
inline std::string text(const std::optional<LiteRef>& v) { return text(v ? &*v : nullptr); }
inline bool as_bool(const LiteRef& v) { return v.boolean(); }

// Operator::tag and Operator::name from a profile tag in any spelling:
//   PHOTON_BROADCAST_HASH_JOIN_EXEC           -> PhotonBroadcastHashJoin
//   UNKNOWN_SPARK_PLAN.ShuffleQueryStage      -> ShuffleQueryStage
//   UNKNOWN.PhotonShuffleExchangeSink         -> PhotonShuffleExchangeSink
//   UNKNOWN_DATA_SOURCE_SCAN_EXEC             -> DataSourceScan (a scan)
//   photon_topk_exec                          -> PhotonTopK
// The tag is normalised to upper case, except the Spark class name after a `.`, which keeps its
// case. Without a tag the display name without spaces stands in ("Hash Aggregate" -> HashAggregate).
struct TagName {
  std::string tag;
  std::string name;
};
TagName tag_and_name(std::string_view tag, std::string_view display_name);

// A metric's value in the model's unit from its metricType: TIMING_METRIC_NS -> ms,
// TIMING_METRIC_MS -> ms, SIZE_METRIC_BYTES -> Bytes, everything else (UNKNOWN_TYPE, SUM_METRIC,
// AVERAGE_METRIC) a Count.
// J is json or LiteRef (instantiated for both in profile_node.cpp).
// The label and key are kept in `names`' store, each distinct one once.
template <class J>
Metric read_metric(MetricNames& names, const J& m);

// One graph node's metadata entry as a Field (key as given; lists split into items; FILTERS,
// PARTITION_FILTERS, CONDITION and join keys also parsed as SQL expressions). The key is kept
// through `names` (a profile repeats a few dozen keys over all its nodes: each kept once), the
// value and items in `st`.
template <class J>
Field read_field(TextStore& st, MetricNames& names, const J& entry);


}  // namespace planlint::profile
