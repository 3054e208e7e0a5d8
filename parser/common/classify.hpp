// One operator vocabulary for every reader: a Spark / Photon / Gluten operator name (as printed
// in explain text, or derived from a profile tag) to its normalised kind, engine and join strategy.
#pragma once

#include <string_view>

#include "model/plan.hpp"

namespace planlint {

struct Classification {
  OpKind kind = OpKind::Unknown;
  Engine engine = Engine::Spark;
  JoinStrategy strategy = JoinStrategy::None;  // joins only
};

// `name` is the bare node name without join type / build side / id: "BroadcastHashJoin",
// "PhotonShuffleExchangeSink", "Scan parquet spark_catalog.db.t", "FileScan parquet db.t",
// "ColumnarToRow", "BroadcastHashJoinExecTransformer", "SortMergeJoin(skew=true)".
Classification classify_operator(std::string_view name);
// The same without the per-thread cache of answers classify_operator keeps (for tests).
Classification classify_operator_uncached(std::string_view name);

// JoinType from the printed spelling: "Inner", "LeftOuter", "Left Outer", "left_outer",
// "ExistenceJoin(exists#1)", "Left Semi", ... Unknown for anything else.
JoinType parse_join_type(std::string_view text);

// The base operator name of the vocabulary above that equals `name` when case, spaces, '_', '.'
// and '-' are ignored: "TOPK" -> "TopK", "shuffle_query_stage" -> "ShuffleQueryStage". Used to
// turn profile tags (PHOTON_TOPK_EXEC, UNKNOWN.photonShuffleExchangeSink) into printed names.
// Empty when no name matches. `name` must not carry a Photon prefix or an Exec suffix.
std::string_view canonical_operator_name(std::string_view name);

}  // namespace planlint
