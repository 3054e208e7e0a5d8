// Helpers of the explain reader that turn printed text into model pieces: operator labels into
// name / kind / join / scan facts, raw field values into split lists with expressions, default-mode
// one-line arguments into the same Fields formatted mode prints. Internal to parser/explain/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/normalize.hpp"
#include "model/plan.hpp"

namespace planlint::explain {

// Index of the bracket closing the one at `open` ('(', '[' or '{', any kind closes any), or npos.
inline std::size_t match_close(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

// Split at top-level `sep` (", " or ","), ignoring separators inside () [] {}. Views into `s`.
std::vector<std::string_view> split_top_level(std::string_view s, std::string_view sep = ", ");
void split_top_level(std::string_view s, std::string_view sep, std::vector<std::string_view>& out);  // reuses `out`
// The same, and in `*seen` whether `s` holds a '.' (kSeenDot) or a newline (kSeenNewline) anywhere,
// read in the same pass (finish_field needs both of a list value: a "..." needs a dot, and a
// value with a newline is no list).
inline constexpr unsigned kSeenDot = 1, kSeenNewline = 2;
void split_top_level(std::string_view s, std::string_view sep, std::vector<std::string_view>& out, unsigned* seen);
// Whether split_top_level reads a text of 32 bytes or more 32 bytes at a time (AVX2): set at start
// when the processor has AVX2 (x86-64 builds); tests turn it off and on to compare both readings.
extern bool split_wide;
// The reading of any separator, one byte look at a time where a separator may end: what
// split_top_level does for a separator other than ", ", "," and " " (those have a reading of
// their own; tests compare the two).
void split_top_level_general(std::string_view s, std::string_view sep, std::vector<std::string_view>& out,
                             unsigned* seen = nullptr);

// Spark abbreviated the value: "...", "... N more fields", "[p, ... k entries]", "(k paths)[...]".
bool is_truncated_value(std::string_view v);
// is_truncated_value's scan, which also tells whether the value holds "..." or "paths)[" at all
// (when not, no part of it can be abbreviated): one pass where finish_field made three.
struct CutMarks {
  bool truncated = false;
  bool marks = false;  // "..." or "paths)[" somewhere (always set when truncated)
};
// `file_index`: whether the value may hold a file index, `InMemoryFileIndex(k paths)[...]` (Spark
// prints one only as a scan's Location): when false, only "..." is looked for.
CutMarks scan_cut_marks(std::string_view v, bool file_index = true);

// Fill name, label, kind, engine, join type / build side / skew, table and scan format from a
// printed label ("BroadcastHashJoin Inner BuildRight", "Scan parquet spark_catalog.db.t",
// "SortMergeJoin(skew=true) Inner"). `header_name` (detail block name) wins for the bare name.
void describe_operator(TextStore& st, Operator& op, std::string_view label, std::string_view header_name);

// After all lines of a field are in: split `[...]` lists, check `[N]`, flag truncation, parse the
// expressions of expression-bearing keys. Messages for expressions that did not parse go to `msgs`.
// `field_at`: the field's range (the field keeps only its start; a message about an expression
// whose place in the value is not known covers the whole field); `value_at`: where the value
// starts in the input (for messages), unknown if not given.
void finish_field(TextStore& st, Field& f, std::vector<ParseMessage>& msgs, const SourceRange& field_at,
                  const SourceRange& value_at = {});

// Copy join keys / condition / type / Arguments from the fields into the operator.
void apply_fields(TextStore& st, Operator& op);

// Maps a view into one normalised line to its range in the original input.
struct LineLocator {
  const Normalized* norm = nullptr;
  std::size_t index = 0;        // line index in norm->lines
  std::string_view line;        // norm->text(index)
  [[nodiscard]] SourceRange of(std::string_view piece) const;
  [[nodiscard]] SourceRange of(std::string_view first, std::string_view last) const;  // first.begin .. last.end
};

// Default-mode node text "Name args": name and the args split into Fields like formatted mode
// (FileScan metadata, Filter condition, Project list, aggregate keys, join keys, Arguments).
// (In default_args.cpp, with LineLocator.)
void describe_default_node(TextStore& st, Operator& op, std::string_view text, const LineLocator& at, std::vector<ParseMessage>& msgs);

// Logical node text (extended / cost modes): name, hints (ResolvedHint, leftHint= / rightHint=),
// join type of a logical Join, arguments.
void describe_logical_node(TextStore& st, Operator& op, std::string_view text, SourceRange loc);

}  // namespace planlint::explain
