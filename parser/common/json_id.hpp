// Ids (executions, stages, jobs, accumulators, graph nodes) that a JSON input writes as numbers.
// A JSON double is converted to long long only inside long long's range: a damaged or hostile
// input's 2.2e+32, 1e308 or NaN would be undefined behaviour to convert, so it is no id. One rule
// for every reader (the event log's events and task-end scanner, the History Server answers).
#pragma once

#include <cmath>
#include <optional>

namespace planlint {

// The id a finite double within (-9e18, 9e18) (below 2^63) names, truncated toward zero; nothing
// for any other value.
[[nodiscard]] inline std::optional<long long> id_from_double(double d) {
  constexpr double kLimit = 9.0e18;
  if (!std::isfinite(d) || d <= -kLimit || d >= kLimit) return std::nullopt;
  return static_cast<long long>(d);
}

}  // namespace planlint
