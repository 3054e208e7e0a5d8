// The kind of input a reader read, as a person says it ("explain text", "event log", "History
// Server answer"): the one spelling front ends use when they name a kind instead of branching on
// InputFormat themselves.
#pragma once

#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// "explain text" (every explain mode and the Photon Explanation), "Query Profile", "event log",
// "History Server answer".
std::string_view input_kind(InputFormat format);

}  // namespace planlint
