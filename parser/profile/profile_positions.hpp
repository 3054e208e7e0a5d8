// Source positions for the Query Profile reader. nlohmann_json builds the document but keeps no
// positions, so one linear pass over the raw text records the byte offset of the objects that
// diagnostics point at (graphs, nodes, edges, metadata entries, the SQL text); a line-start table
// turns offsets into 1-based line / column once. The pass is tolerant: on malformed input it
// stops or records nonsense, and the JSON parser reports the error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint::profile {

inline constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

struct GraphPositions {
  std::size_t offset = kNoOffset;                   // the graph object's `{`
  std::vector<std::size_t> nodes;                   // nodes[j] `{`
  std::vector<std::size_t> edges;                   // edges[k] `{`

  // nodes[node].metadata[k] `{`, or kNoOffset when it was not seen.
  [[nodiscard]] std::size_t metadata_at(std::size_t node, std::size_t k) const;
  // Records nodes[node].metadata[k] at `off` (a later record of the same entry replaces it).
  void add_metadata(std::size_t node, std::size_t k, std::size_t off);
  void clear_metadata();
  // fn(std::size_t&) for every metadata offset recorded (to move them all, as past a BOM).
  template <class Fn>
  void each_metadata_offset(Fn&& fn) {
    for (std::size_t& o : meta_offsets_) fn(o);
    for (std::vector<std::size_t>& v : meta_by_node_)
      for (std::size_t& o : v) fn(o);
  }

 private:
  // The order an export has (node after node, each node's entries in turn) is kept flat: node j's
  // entries are meta_offsets_[meta_begin_[j]] up to the next node's start. 10,000 nodes otherwise
  // hold 10,000 small lists through the whole read. Any other order (a key repeated in a damaged
  // export) turns the record into one list per node, filled as it comes.
  std::vector<std::size_t> meta_offsets_;
  std::vector<std::size_t> meta_begin_;
  std::vector<std::vector<std::size_t>> meta_by_node_;  // when `irregular_`
  bool irregular_ = false;
  void to_lists();
};

struct Positions {
  std::vector<GraphPositions> graphs;               // by index in `graphs` (or the single `graph`)
  std::size_t query = kNoOffset;                    // the `query` object
  std::size_t query_text = kNoOffset;               // opening quote of query.queryText
  std::size_t query_text_end = kNoOffset;           // closing quote
  std::size_t depth_exceeded_at = kNoOffset;        // nesting deeper than the limit starts here
};

// Byte offset -> 1-based line and column.
class LineTable {
 public:
  LineTable() = default;  // an empty text; feed() adds what follows
  explicit LineTable(std::string_view text);
  // The text goes on with `more`.
  void feed(std::string_view more);
  [[nodiscard]] SourceRange at(std::size_t offset) const;             // a point (end = start + 1)
  [[nodiscard]] SourceRange span(std::size_t begin, std::size_t end) const;  // [begin, end)

 private:
  std::vector<std::size_t> starts_{0};
  std::size_t size_ = 0;
};

// A regular file read in pieces through one buffer, for the scanners (scan_positions,
// JsonScanner): [p, end) is what the scanner has not consumed of the piece in hand; more() keeps
// those bytes, moves them to the buffer's front and reads what follows behind them (the buffer
// doubles when the kept bytes fill it: a token longer than a piece). So the file is never held
// whole: a scanner holds one piece and the token it is reading.
class FileWindow {
 public:
  static constexpr bool kPieces = true;
  // `fd` stays the caller's. More than `max_bytes` in all is a failure (the file grew past the
  // limit the caller checked its size against). `piece`: the bytes a read asks for (at least 16).
  FileWindow(int fd, double max_bytes, std::size_t piece = std::size_t{1} << 16);
  // From the file's first byte again: the first piece in [p, end). Each byte read afterwards goes
  // to `lines` too, when given. False when nothing could be read (failed(), or an empty file).
  bool start(LineTable* lines, const char*& p, const char*& end);
  // Keeps [p, end) and reads more behind it: false at the end of the file, or on a failure.
  bool more(const char*& p, const char*& end);
  // The file offset of the byte at `p` (inside the buffer, or its end).
  [[nodiscard]] std::size_t offset_of(const char* p) const { return base_ + static_cast<std::size_t>(p - buf_.get()); }
  // A read error, or more bytes than the limit.
  [[nodiscard]] bool failed() const { return failed_; }
  // The bytes read since start().
  [[nodiscard]] std::size_t total() const { return base_ + filled_; }

 private:
  // Reads behind the buffer's first `filled_` bytes (growing it when they fill it): false when
  // nothing more came.
  bool read_more();
  int fd_;
  double max_bytes_;
  std::size_t piece_;
  std::unique_ptr<char[]> buf_;
  std::size_t capacity_ = 0;
  std::size_t filled_ = 0;  // buf_[0, filled_) holds file bytes [base_, base_ + filled_)
  std::size_t base_ = 0;
  LineTable* lines_ = nullptr;
  bool failed_ = false;
};

// One pass, no recursion; nesting deeper than `max_depth` stops the scan (and is reported by the
// caller, before the document is built).
Positions scan_positions(std::string_view text, std::size_t max_depth);
// The same over a file read in pieces, from [p, end) on (the window's first piece, past a byte-order
// mark): offsets are the file's.
Positions scan_positions(FileWindow& window, const char* p, const char* end, std::size_t max_depth);

}  // namespace planlint::profile
