// Paste-damage repair for explain text: CRLF, tabs, trailing blanks, a common indent, `|` margins
// from Scala stripMargin, the ASCII table of `.show(truncate=False)`, markdown fences, log lines and
// shell prompts around the plan, and Spark's own `... N more characters` cut. Every normalised
// line keeps a map back to its ORIGINAL line and column so diagnostics point at the user's text.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "parser/model/plan.hpp"

namespace planlint {

struct NormLine {
  std::string_view text;          // normalised content: a view into the input or into Normalized::owned
  std::uint32_t line = 0;         // 1-based line in the original input
  std::uint32_t col_base = 1;     // original 1-based column where the kept text starts (after margins)
  std::uint32_t shift = 0;        // normalised columns removed as common indent (after tab expansion)
  std::uint32_t tab_norm_end = 0; // leading tabs were expanded: normalised columns [0, tab_norm_end)
  std::uint32_t tab_orig_end = 0; //   came from original bytes [0, tab_orig_end) after col_base
};

// Holds views into the input: the input must outlive it.
struct Normalized {
  std::deque<std::string> owned;         // rewritten lines (tab expansion)
  std::vector<NormLine> lines;
  std::vector<std::string> repairs;     // what was repaired ("removed a common indent of 4 columns")
  bool cut = false;                      // `... N more characters` (spark.sql.maxPlanStringLength)
  std::size_t cut_line = 0;              // index into lines of the cut
  std::string cut_text;                  // "... 1234 more characters"

  // Original 1-based column of 0-based normalised column `col` on line `idx`.
  [[nodiscard]] std::uint32_t column(std::size_t idx, std::size_t col) const;
  // Range in the original input of normalised columns [begin, end) on line idx.
  [[nodiscard]] SourceRange range(std::size_t idx, std::size_t begin, std::size_t end) const;
  [[nodiscard]] SourceRange range(std::size_t first_idx, std::size_t begin, std::size_t last_idx,
                                  std::size_t end) const;
};

Normalized normalize(std::string_view input);

}  // namespace planlint
