// Step 1 of normalize(): split the input into lines; strip CR and trailing blanks; drop markdown
// fences, `+----+` table borders, log lines, prompts and a spark-sql error block.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {
// First bytes of a line that none of the checks below looks at: not a blank (the line is not
// indented), not the start of an error block (`E`, `o`), a fence, a table border, a log line or
// prompt (maybe_noise), a continuation prompt, a notebook or comment prefix or a stripMargin
// margin. A line starting with one is a kept, non-empty line and nothing else (most lines of a
// formatted plan: `(1) Scan ...`, `Batched: true`, `Location: ...`, `== Physical Plan ==`).
constexpr std::array<bool, 256> kPlainLead = [] {
  std::array<bool, 256> t{};
  for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<std::size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<std::size_t>(c)] = true;
  for (char c : std::string_view("()[]{}=:,.;_<")) t[static_cast<unsigned char>(c)] = true;
  for (char c : std::string_view("EoIOsTWDr")) t[static_cast<unsigned char>(c)] = false;
  return t;
}();

// The first byte after a line's leading blanks that none of the checks of the slow path below looks
// at (but for the blanks, as kPlainLead): not a fence, a continuation prompt, a comment or quote
// token, a margin, `+` (a table border: see quick_tree_line) or `*` (a comment token before a blank).
// Tree lines of the default format start so (`   :- Project`, `   +- Scan`).
constexpr std::array<bool, 256> kIndentedPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x21; c < 0x7F; ++c) t[static_cast<std::size_t>(c)] = true;
  for (int c = 0x80; c < 0x100; ++c) t[static_cast<std::size_t>(c)] = true;
  for (char c : std::string_view("`~>#%/-*|\"s+")) t[static_cast<unsigned char>(c)] = false;
  return t;
}();

// A line of a tree (`t`, not empty, ending in no blank) that is as plain as those of kPlainLead:
// leading blanks (f: how many, at least one blank first) then a kIndentedPlain byte, or at any
// indent (f == 0: at column 0) a `+` that is no table border (the line does not end in `+`) or a
// `*` before no blank (`*(1) Project`: no comment token).
inline bool quick_tree_line(std::string_view t, std::size_t f) {
  const char c = t[f];
  if (c == '+') return t.back() != '+';
  if (c == '*') return f + 1 < t.size() && !is_blank(t[f + 1]);
  return f > 0 && kIndentedPlain[static_cast<unsigned char>(c)];
}

// A line starting with `I` or `O` that is_noise would not drop: no `In [` / `INFO ` (`I`) or
// `Out[` (`O`), its only noise lines that start so. Such a line is as plain as those of kPlainLead
// (a formatted plan's `Input [3]: ...` and `Output [3]: ...`: a fifth of the golden plans' lines);
// one that starts `IN` is left to is_noise. `t` is not empty.
inline bool plain_io_line(std::string_view t) {
  if (t.size() < 4) return true;
  if (t[0] == 'I') return t[1] != 'N' && !(t[1] == 'n' && t[2] == ' ' && t[3] == '[');
  return !(t[1] == 'u' && t[2] == 't' && t[3] == '[');
}
}  // namespace

RepairState split_lines(std::string_view input) {
  RepairState s;
  Normalized& out = s.out;
  if (input.starts_with("\xEF\xBB\xBF")) input.remove_prefix(3);
  out.input = input;
  auto& lines = out.lines;

  // Lines are views into `input`; only the few rewritten lines (tabs) are stored in `out.owned`.
  // One entry per input line at most. A large input's lines are counted first (16 bytes at a time)
  // so the table is allocated once and no larger than needed (a doubling holds both copies at the
  // peak). A small one (under kCountFrom: every golden plan) takes a guess of a line per 32 bytes
  // (theirs average 51) and grows if it must: the count cost 2.08 M instructions on the golden
  // plans, the copy of a small table far less, and its size does not matter.
  constexpr std::size_t kCountFrom = 256 * 1024;
  const bool counted = input.size() >= kCountFrom;
  const std::size_t newlines = counted ? count_newlines(input) : 0;
  lines.reserve(counted ? newlines + 1 : input.size() / 32 + 16);
  std::size_t pos = 0;
  std::uint32_t lineno = 0;
  bool any_noise = false, any_fence = false, any_crlf = false;
  std::size_t& nonempty = s.nonempty;
  std::size_t& margin = s.margin;
  std::vector<std::size_t>& borders = s.borders;
  bool& magic_start = s.magic_start;
  bool& any_tab = s.any_tab;
  bool in_error = false;
  // One search of the whole input instead of one per line (most inputs have no tab).
  const bool input_tab = input.find('\t') != std::string_view::npos;
  // The line `t` (a view into `input`, or empty) as the next line: its offset and length, or its
  // own copy where they do not fit 32 bits (out.set_text for a new line, its base the input).
  // Inlined by force: a call per line here cost 3.6 M instructions on the golden plans.
  // Lines that hold two bytes or more that are `-` or `=` (the only lines collapsed_lines may
  // split), while they are few.
  unsigned marks = 0;
  std::vector<std::uint32_t>& marked = s.marked;
  // (uncounted: checked once all lines are seen, below)
  const std::size_t max_marked = counted ? newlines / 8 + 64 : SIZE_MAX;
  const bool offsets_fit = input.size() <= UINT32_MAX;  // every line's offset and length (most inputs)
  // The tree-shape questions of may_rebuild_flattened_trees and may_join_continuations, asked of
  // each kept line here (its first byte is at hand) instead of in a walk over the table later.
  ShapeWalk walk;
  auto keep = [&](std::string_view t) __attribute__((always_inline)) {
    if (t.empty()) {
      walk.empty_line();
      lines.emplace_back().line = lineno;
      return;
    }
    walk.line(t);
    if (marks >= 2 && s.marked_valid) {
      if (marked.size() < max_marked) {
        marked.push_back(static_cast<std::uint32_t>(lines.size()));  // (the line added below)
      } else {
        s.marked_valid = false;
        std::vector<std::uint32_t>().swap(marked);
      }
    }
    const auto off = static_cast<std::size_t>(t.data() - input.data());
    if (offsets_fit || (off <= UINT32_MAX && t.size() <= UINT32_MAX)) {
      lines.push_back({static_cast<std::uint32_t>(off), static_cast<std::uint32_t>(t.size()), lineno, 0});
    } else {
      NormLine& l = lines.emplace_back();
      l.line = lineno;
      out.set_text(l, t);
    }
  };
  // A kept line with text: counted, and asked whether it holds a tab or may be an elision. `t`
  // ends in no blank: its last bytes say whether it may be an elision (inline, where a call of
  // is_elision_line per line cost 2.5 M instructions on the golden plans). may_be_elision before
  // the flag: most of the golden plans' kept lines end in `)` or `]` (`Output [2]: [a#1, b#2]`),
  // and the byte before it settles most (the flag first: 0.60 M instructions more).
  auto count_text = [&](std::string_view t) __attribute__((always_inline)) {
    ++nonempty;
    if (input_tab && !any_tab && t.find('\t') != std::string_view::npos) any_tab = true;
    if (may_be_elision(t) && !s.elision && is_elision_line(t)) s.elision = true;
  };
  LineCursor line_ends(input);  // the line ends in order, and each line's marks
  for (;;) {  // (each turn ends at the last line's break or sets pos to at most input.size())
    const std::size_t nl = line_ends.next(marks);
    const std::string_view raw(input.data() + pos, nl - pos);
    ++lineno;
    std::string_view t = raw;
    if (!raw.empty() && static_cast<unsigned char>(raw.back()) <= ' ') {  // most lines end in text
      if (raw.back() == '\r') any_crlf = true;
      t = rtrim_blank_cr(raw);
    }
    if (t.empty() && !in_error) {  // an empty line: kept, nothing to count
      walk.empty_line();
      lines.emplace_back().line = lineno;
      if (nl == input.size()) break;
      pos = nl + 1;
      continue;
    }
    if (!in_error &&  // (so `t` is not empty)
        (kPlainLead[static_cast<unsigned char>(t[0])] || ((t[0] == 'I' || t[0] == 'O') && plain_io_line(t)))) {
      // A plain line (see kPlainLead): kept as it is.
      count_text(t);
      keep(t);
      if (nl == input.size()) break;
      pos = nl + 1;
      continue;
    }
    if (!in_error && quick_tree_line(t, t[0] == ' ' ? leading_run(t, ' ', '\t') : 0)) {
      // A tree line (see quick_tree_line): kept as it is, as the slow path below would.
      count_text(t);
      keep(t);
      if (nl == input.size()) break;
      pos = nl + 1;
      continue;
    }
    const std::string_view none = raw.substr(0, 0);  // an emptied line (stays at its place)
    // A trailing `Error in query: ...` block (spark-sql) up to the next prompt or header.
    const char c0 = t.empty() ? '\0' : t[0];
    if ((c0 == 'E' && t.starts_with("Error in query")) ||
        (c0 == 'o' && t.starts_with("org.apache.spark.sql.AnalysisException")))
      in_error = true;
    else if (in_error && (t.starts_with("== ") || is_noise(t))) in_error = false;
    if (in_error) {
      any_noise = true;
      t = none;
    }
    const std::size_t f = t.empty() || !is_blank(t[0]) ? 0 : leading_run(t, ' ', '\t');
    if (f < t.size()) {
      char c = t[f];
      if ((c == '`' || c == '~') && is_fence(t)) {
        t = none;
        any_fence = true;
      } else if (c == '+' && t.back() == '+' && is_table_border(t)) {  // (t ends in no blank: `+- ` lines end in text)
        t = none;
        borders.push_back(lines.size());
      } else if (f == 0 && maybe_noise(c) && is_noise(t)) {
        t = none;
        any_noise = true;
      } else if (c == '>' && is_continuation_prompt(t)) {
        t = none;
        any_noise = true;
      } else {
        count_text(t);
        if (f == 0 && (c == '#' || c == '-' || c == '/')) magic_start = true;
        if (f == 0 && c == '0') s.zero_start = true;
        if (!s.comment_vote) {  // `#`, `%`, `//`, `--`, `* ` / `*`, `>` (not `>>`): a comment or quote prefix
          const char d = f + 1 < t.size() ? t[f + 1] : ' ';
          if (c == '#' || c == '%' || ((c == '/' || c == '-') && d == c) || (c == '*' && is_blank(d)) ||
              (c == '>' && d != '>')) {
            // Formatted plans start lines with `* ` (`* Sort (90)`): the prefix pass runs only
            // where a line after its token carries a plan marker (its vote).
            s.comment_start = true;
            s.comment_vote = comment_line_votes(t);
          }
        }
        if (c == '|' || ((c == '"' || c == 's') && (t.substr(f).starts_with("\"\"\"|") || t.substr(f).starts_with("s\"\"\"|"))))
          ++margin;
      }
    }
    keep(t);
    if (nl == input.size()) break;
    pos = nl + 1;
  }
  // A trailing newline gives one empty last line: drop it.
  if (!lines.empty() && lines.back().len == 0 && !input.empty() && input.back() == '\n') lines.pop_back();
  s.split_flat = walk.flat;
  s.split_join = walk.join;
  if (any_crlf) out.repairs.emplace_back("converted CRLF line ends");
  if (any_fence) out.repairs.emplace_back("removed markdown fences");
  if (any_noise) out.repairs.emplace_back("removed log or prompt lines");
  // Too many marked lines (lineno - 1: the input's newlines), or lines for 32-bit indices.
  if ((s.marked_valid && marked.size() > (lineno - 1) / 8 + 64) || lines.size() > UINT32_MAX) {
    s.marked_valid = false;
    std::vector<std::uint32_t>().swap(marked);
  }
  return s;
}

}  // namespace planlint::repair
