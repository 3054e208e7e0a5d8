// Whether a parse read anything: explain text from which no operator was read is an error
// (exit 2), never "No findings".
#pragma once

#include <cstddef>

#include "model/plan.hpp"

namespace planlint {

inline std::size_t operator_count(const ParseResult& r) {
  std::size_t n = r.handed_over_ops;  // plans already handed over or dropped once linted
  for (const auto& p : r.plans) n += p.ops.size();
  return n;
}

inline bool read_nothing(const ParseResult& r) {
  if (r.format == InputFormat::QueryProfile || r.format == InputFormat::EventLog || operator_count(r) > 0) return false;
  // A Photon explanation on its own is read (it has no operators); with an error it is not.
  return r.format != InputFormat::PhotonExplanation || r.has_errors();
}

}  // namespace planlint
