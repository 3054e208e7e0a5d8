// Source positions for the Query Profile reader. nlohmann_json builds the document but keeps no
// positions, so one linear pass over the raw text records the byte offset of the objects that
// diagnostics point at (graphs, nodes, edges, metadata entries, the SQL text); a line-start table
// turns offsets into 1-based line / column once. The pass is tolerant: on malformed input it
// stops or records nonsense, and the JSON parser reports the error.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint::profile {

inline constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

struct GraphPositions {
  std::size_t offset = kNoOffset;                   // the graph object's `{`
  std::vector<std::size_t> nodes;                   // nodes[j] `{`
  std::vector<std::size_t> edges;                   // edges[k] `{`
  std::vector<std::vector<std::size_t>> metadata;   // nodes[j].metadata[k] `{`
};

struct Positions {
  std::vector<GraphPositions> graphs;               // by index in `graphs` (or the single `graph`)
  std::size_t query = kNoOffset;                    // the `query` object
  std::size_t query_text = kNoOffset;               // opening quote of query.queryText
  std::size_t query_text_end = kNoOffset;           // closing quote
  std::size_t depth_exceeded_at = kNoOffset;        // nesting deeper than the limit starts here
};

// One pass, no recursion; nesting deeper than `max_depth` stops the scan (and is reported by the
// caller, before the document is built).
Positions scan_positions(std::string_view text, std::size_t max_depth);

// Byte offset -> 1-based line and column.
class LineTable {
 public:
  explicit LineTable(std::string_view text);
  [[nodiscard]] SourceRange at(std::size_t offset) const;             // a point (end = start + 1)
  [[nodiscard]] SourceRange span(std::size_t begin, std::size_t end) const;  // [begin, end)

 private:
  std::vector<std::size_t> starts_;
  std::size_t size_ = 0;
};

}  // namespace planlint::profile
