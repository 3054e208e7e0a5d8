// Options that several rules share, declared once: the name, the default and the unit live here
// and each rule's doc adds its own reason. `--set broadcast-threshold=30m`, `[thresholds]` in
// .planlint.toml and the editor's `globalThresholds` then set every rule that has the option.
#pragma once

#include <string>
#include <utility>

#include "rules/rule.hpp"

namespace planlint {

// spark.sql.autoBroadcastJoinThreshold: Spark broadcasts a join side under 10 MiB by itself.
inline constexpr double kSparkBroadcastThresholdBytes = 10.0 * 1024 * 1024;

inline constexpr ThresholdKey kBroadcastThreshold{"broadcast-threshold"};

inline Threshold broadcast_threshold(std::string reason) {
  return Threshold{kBroadcastThreshold, kSparkBroadcastThresholdBytes, "bytes", std::move(reason)};
}

}  // namespace planlint
