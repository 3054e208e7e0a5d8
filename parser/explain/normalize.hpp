// Paste-damage repair for explain text: CRLF, tabs, trailing blanks, a common indent, `|` margins
// from Scala stripMargin, the ASCII table of `.show(truncate=False)`, markdown fences, log lines and
// shell prompts around the plan, Spark's own `... N more characters` cut, Databricks `MAGIC`
// prefixes, .ipynb cell JSON, literal `\n`, lost newlines, markdown / HTML escaping, numbered tree
// strings, flattened indentation, double-spaced lines and hand-wrapped long lines. Every normalised
// line keeps a map back to its ORIGINAL line and column so diagnostics point at the user's text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

// Original position of one normalised byte (1-based line and column of the user's text).
struct SrcPos {
  std::uint32_t line = 1;
  std::uint32_t col = 1;
};

// Where the bytes of a rewritten line come from, as runs: byte x of the line, from `at` up to the
// next run, comes from {pos.line, pos.col + (x - at)}. The first run is at byte 0.
struct MapRun {
  std::uint32_t at = 0;
  SrcPos pos;
};

// The map of one rewritten line of `size` bytes: runs [first, first + count) of Normalized::map_runs.
struct ByteMap {
  std::size_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t size = 0;
};

// One normalised line: 16 bytes, as the table has one entry per input line and lives for the whole
// parse. Its text is `len` bytes at `off` in the input, or, when the line has an extra entry, at
// `off` from that entry's `base`. `aux` holds the common indent removed from a plain line, or
// (kExtra set) the index of the line's entry in Normalized::extras, which holds whatever else
// differs from a plain view into the input. Read the text with Normalized::text().
struct NormLine {
  static constexpr std::uint32_t kExtra = 0x80000000u;
  std::uint32_t off = 0;
  std::uint32_t len = 0;
  std::uint32_t line = 0;  // 1-based line in the original input
  std::uint32_t aux = 0;   // kExtra clear: shift (see LineExtra); set: index into Normalized::extras
  [[nodiscard]] bool has_extra() const { return (aux & kExtra) != 0; }
  [[nodiscard]] std::uint32_t extra_index() const { return aux & ~kExtra; }
};
static_assert(sizeof(NormLine) == 16);

// The rarely set parts of a line (margins, tabs, rewritten text); one entry belongs to one line.
struct LineExtra {
  const char* base = nullptr;     // the text's buffer: the input (a line starting 4 GiB or more into
                                  // the input: the line itself) or a block of Normalized::owned
  std::uint32_t col_base = 1;     // original 1-based column where the kept text starts (after margins)
  std::uint32_t shift = 0;        // normalised columns removed as common indent (after tab expansion)
  std::uint32_t tab_norm_end = 0; // leading tabs were expanded: normalised columns [0, tab_norm_end)
  std::uint32_t tab_orig_end = 0; //   came from original bytes [0, tab_orig_end) after col_base
  std::int32_t map = -1;          // >= 0: rewritten line; Normalized::maps[map] has the source of its bytes
  bool collapsed = false;         // split out of a line whose newlines were lost (tree shape from guides)
};

// Text of rewritten lines, appended into blocks that never move (views into it stay valid).
class TextArena {
 public:
  // Copies `s`; the copy is followed by a NUL, so no two copies (even empty ones) share an address.
  const char* add(std::string_view s);

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t used_ = 0, size_ = 0;  // of the last block
};

// Holds views into the input: the input must outlive it.
//
// The line table has two forms. While normalize() runs it is `lines` (16 bytes a line). When no
// repair changed a line (every line is the input's line of its number, whole: no CR, no trailing
// blank, nothing dropped, shifted or rewritten, the input under 4 GiB; most plans), normalize()
// leaves it as `starts` instead, 4 bytes a line: line i is input[starts[i], starts[i + 1] - 1)
// (the byte before the next start is the newline). The table lives for the whole parse, beside the
// plan being built: 8.8 MB -> 2.2 MB for a plan of 550,000 lines. Readers ask line_count(),
// text(), line_number(), plain(), pos() and range(), which answer the same in either form.
struct Normalized {
  std::string_view input;                // the input (after a byte order mark)
  TextArena owned;                       // rewritten lines (tab expansion, unescaping, rebuilt trees)
  std::vector<ByteMap> maps;             // per rewritten line: the source of every byte
  std::vector<MapRun> map_runs;          //   (their runs)
  std::vector<NormLine> lines;           // the table while normalize() runs (empty once it is `starts`)
  std::unique_ptr<std::uint32_t[]> starts;  // the compact table: one start per line and one past the last
  std::size_t start_lines = 0;           //   (its lines)
  std::vector<LineExtra> extras;         // see NormLine::aux (a line a rewrite replaced leaves its entry)
  std::vector<std::string> repairs;     // what was repaired ("removed a common indent of 4 columns")
  bool cut = false;                      // `... N more characters` (spark.sql.maxPlanStringLength)
  std::size_t cut_line = 0;              // index into lines of the cut
  std::string cut_text;                  // "... 1234 more characters"

  // How many lines there are.
  [[nodiscard]] std::size_t line_count() const { return starts ? start_lines : lines.size(); }
  // The 1-based line of the original input that line `idx` comes from.
  [[nodiscard]] std::uint32_t line_number(std::size_t idx) const {
    return starts ? static_cast<std::uint32_t>(idx + 1) : lines[idx].line;
  }
  // Line `idx` is a view of the input shifted by a common indent (no extra entry): its columns map
  // by that shift alone.
  [[nodiscard]] bool plain(std::size_t idx) const { return starts || !lines[idx].has_extra(); }
  // Normalised content of line `idx`.
  [[nodiscard]] std::string_view text(std::size_t idx) const {
    if (starts) {
      // An empty line's view starts at the input's first byte, as a kept empty line's does.
      const std::uint32_t b = starts[idx], len = starts[idx + 1] - b - 1;
      return {input.data() + (len != 0 ? b : 0), len};
    }
    return text(lines[idx]);
  }
  [[nodiscard]] std::string_view text(const NormLine& l) const {
    return {(l.has_extra() ? extras[l.extra_index()].base : input.data()) + l.off, l.len};
  }
  // The extra parts of a line: its entry, or the defaults of a plain line.
  [[nodiscard]] LineExtra extra(const NormLine& l) const;

  // Source of byte x < m.size of a rewritten line.
  [[nodiscard]] SrcPos map_pos(const ByteMap& m, std::size_t x) const;
  // Original position of 0-based normalised column `col` on line `idx`.
  [[nodiscard]] SrcPos pos(std::size_t idx, std::size_t col) const;
  // Original 1-based column of 0-based normalised column `col` on line `idx`.
  [[nodiscard]] std::uint32_t column(std::size_t idx, std::size_t col) const { return pos(idx, col).col; }
  // Range in the original input of normalised columns [begin, end) on line idx.
  [[nodiscard]] SourceRange range(std::size_t idx, std::size_t begin, std::size_t end) const {
    if (starts) {  // the compact table: line idx + 1 of the input, unshifted
      if (idx >= start_lines) return {};
      const auto line = static_cast<std::uint32_t>(idx + 1);
      const auto b = static_cast<std::uint32_t>(1 + begin), e = static_cast<std::uint32_t>(1 + end);
      return {line, b, line, e < b ? b : e};
    }
    if (idx < lines.size() && !lines[idx].has_extra()) {  // most ranges: a shifted view of the input
      const NormLine& l = lines[idx];
      const auto b = static_cast<std::uint32_t>(1 + begin + l.aux), e = static_cast<std::uint32_t>(1 + end + l.aux);
      return {l.line, b, l.line, e < b ? b : e};
    }
    return range(idx, begin, idx, end);
  }
  [[nodiscard]] SourceRange range(std::size_t first_idx, std::size_t begin, std::size_t last_idx,
                                  std::size_t end) const;

  // For normalize(): make `t` the text of `l`; t is empty or a view into the buffer of l's text
  // (an empty text keeps its address; a text is cut at 4 GiB).
  void set_text(NormLine& l, std::string_view t);
  // For normalize(): make a copy of `t` in `owned` the text of `l`.
  void set_owned_text(NormLine& l, std::string_view t);
  // For normalize(): the extra entry of `l`, created (with l's buffer and shift) when it has none.
  // The reference is valid until the next entry is created.
  LineExtra& extra_of(NormLine& l);
  // For normalize(), when no repair pass changed a line: turn `lines` into `starts` when every line
  // is the input's line of its number, whole (see above). Returns whether it did.
  bool compact();
};

// `compact_lines`: leave the table as `starts` where it can be (tests compare the two forms).
Normalized normalize(std::string_view input, bool compact_lines = true);

}  // namespace planlint
