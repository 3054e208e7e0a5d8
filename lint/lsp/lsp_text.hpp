// Positions and URIs for the language server. planlint's SourceRange is 1-based line/column in
// bytes (end exclusive); LSP positions are 0-based lines and UTF-16 code-unit columns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint::lsp {

struct Position {
  std::uint32_t line = 0;       // 0-based
  std::uint32_t character = 0;  // UTF-16 code units
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

// Line starts of one document text, for converting between byte offsets and LSP positions.
// The text must outlive the index.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  [[nodiscard]] std::size_t line_count() const { return starts_.size(); }
  // The bytes of 0-based line `line` without its line ending ("" when out of range).
  [[nodiscard]] std::string_view line_text(std::uint32_t line) const;
  // 1-based line / byte column (as in SourceRange) to an LSP position, clamped to the text.
  [[nodiscard]] Position to_position(std::uint32_t line1, std::uint32_t column1) const;
  // A SourceRange to an LSP range; unknown ranges map to the start of the document.
  [[nodiscard]] Range to_range(const SourceRange& r) const;
  // An LSP position to a byte offset in the text, clamped to the line / text.
  [[nodiscard]] std::size_t to_offset(const Position& p) const;
  // An LSP position to the 1-based line / byte column used by SourceRange.
  [[nodiscard]] SourceRange to_source(const Position& p) const;

  // Replaces bytes [begin, end) of `text` (the text this index was built on) by `insert`, in
  // place, and updates the index to match. Costs the edit, plus the number of lines after it
  // (their starts shift); the rest of the text is not read again, except the lines the edit
  // touches when it removes a non-ASCII byte (to know whether they became ASCII). Offsets past
  // the end are clamped; `begin` after `end` is taken as `end`.
  void replace(std::string& text, std::size_t begin, std::size_t end, std::string_view insert);

  // Same text, same line starts, same per-line flags (for tests).
  friend bool operator==(const LineIndex& a, const LineIndex& b) {
    return a.text_ == b.text_ && a.starts_ == b.starts_ && a.ascii_ == b.ascii_;
  }

 private:
  // Recomputes ascii_ for lines [first, last].
  void rescan(std::size_t first, std::size_t last);

  std::string_view text_;
  std::vector<std::size_t> starts_;
  std::vector<bool> ascii_;  // per line: byte columns are UTF-16 columns (the common case, O(1))
};

// `lines.replace(text, begin, end, insert)`: an incremental edit of a document and its index.
inline void replace_text(std::string& text, LineIndex& lines, std::size_t begin, std::size_t end,
                         std::string_view insert) {
  lines.replace(text, begin, end, insert);
}

// UTF-16 length of a UTF-8 byte sequence (invalid bytes count as one unit each).
std::uint32_t utf16_length(std::string_view utf8);

// `file:///a%20b/c.txt` -> `/a b/c.txt`; other schemes are returned unchanged.
std::string uri_to_path(std::string_view uri);
// `/a b/c.txt` -> `file:///a%20b/c.txt`.
std::string path_to_uri(std::string_view path);

}  // namespace planlint::lsp
