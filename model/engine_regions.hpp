// Where a plan leaves its native engine (Photon, Gluten/Velox, Comet): which operators have native
// output below them, which feed a native operator, and how the operators that run outside the
// native engine group into connected regions. Plan knowledge, not a judgement: the photon-fallback
// rule decides which regions are worth a finding and words them.
//
// `native[i]` says whether operator i runs in the native engine (the caller knows which engine the
// plan targets). Every function is linear in the plan's size, and a reuse link or a parent chain
// that loops in a mangled plan ends the walk rather than hanging it.
#pragma once

#include <cstddef>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

struct NativeFlow {
  // Some descendant of i (children, reused targets) is a native operator.
  std::vector<char> native_below;
  // i's rows reach a native operator, through a row-to-columnar conversion (directly, or through
  // JVM operators above it that do).
  std::vector<char> feeds_native;
};
NativeFlow native_flow(const Plan& plan, const std::vector<char>& native);

// The native operator that consumes i's rows through a row-to-columnar conversion (and transparent
// operators), with that conversion in `*transition`; plan.ops.size() when there is none. A native
// consumer reached without a conversion on the way (a scan Gluten offloaded without renaming it)
// does not count. Native input adapters (Gluten's InputIteratorTransformer, kind Other) are passed
// over when a later native operator names the consumer better.
std::size_t native_consumer(const Plan& plan, const std::vector<char>& native, std::size_t i,
                            std::size_t* transition);

struct EngineRegions {
  // Each region's members in index order; regions ordered by their first member. Members are
  // connected directly or through non-native transparent operators with one child.
  std::vector<std::vector<std::size_t>> regions;
  // i is a member with another member below it (so not the region's entry).
  std::vector<char> has_member_child;
  // The first transition (OpKind::Transition) met on the way down from member i to its member
  // children: how the region reads native output; plan.ops.size() when none.
  std::vector<std::size_t> entry_transition;
};
// Groups the operators marked in `member` (JVM operators that do work next to native ones).
EngineRegions group_engine_regions(const Plan& plan, const std::vector<char>& native, const std::vector<char>& member);

}  // namespace planlint
