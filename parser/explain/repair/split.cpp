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
}  // namespace

RepairState split_lines(std::string_view input) {
  RepairState s;
  Normalized& out = s.out;
  if (input.starts_with("\xEF\xBB\xBF")) input.remove_prefix(3);
  out.input = input;
  auto& lines = out.lines;

  // Lines are views into `input`; only the few rewritten lines (tabs) are stored in `out.owned`.
  // One entry per input line at most: count them (memchr speed) so the table is allocated once
  // and no larger than needed.
  const std::size_t newlines = count_newlines(input);
  lines.reserve(newlines + 1);
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
  const std::size_t max_marked = newlines / 8 + 64;
  auto keep = [&](std::string_view t) __attribute__((always_inline)) {
    NormLine& l = lines.emplace_back();
    l.line = lineno;
    if (t.empty()) return;
    if (marks >= 2 && s.marked_valid) {
      if (marked.size() < max_marked) {
        marked.push_back(static_cast<std::uint32_t>(lines.size() - 1));
      } else {
        s.marked_valid = false;
        std::vector<std::uint32_t>().swap(marked);
      }
    }
    const auto off = static_cast<std::size_t>(t.data() - input.data());
    if (off <= UINT32_MAX && t.size() <= UINT32_MAX) {
      l.off = static_cast<std::uint32_t>(off);
      l.len = static_cast<std::uint32_t>(t.size());
    } else {
      out.set_text(l, t);
    }
  };
  LineCursor line_ends(input);  // the line ends in order, and each line's marks
  while (pos <= input.size()) {
    const std::size_t nl = line_ends.next(marks);
    std::string_view raw = input.substr(pos, nl - pos);
    ++lineno;
    std::string_view t = raw;
    if (!raw.empty() && static_cast<unsigned char>(raw.back()) <= ' ') {  // most lines end in text
      if (raw.back() == '\r') any_crlf = true;
      t = rtrim_blank_cr(raw);
    }
    if (!in_error && !t.empty() && kPlainLead[static_cast<unsigned char>(t[0])]) {
      // A plain line (see kPlainLead): kept as it is.
      ++nonempty;
      if (input_tab && !any_tab && t.find('\t') != std::string_view::npos) any_tab = true;
      // `t` ends in no blank: its last bytes say whether it may be an elision (inline, where a
      // call of is_elision_line per line cost 2.5 M instructions on the golden plans).
      if (!s.elision && may_be_elision(t) && is_elision_line(t)) s.elision = true;
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
        ++nonempty;
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
        if (input_tab && !any_tab && t.find('\t') != std::string_view::npos) any_tab = true;
        if (!s.elision && may_be_elision(t) && is_elision_line(t)) s.elision = true;  // (as above)
      }
    }
    keep(t);
    if (nl == input.size()) break;
    pos = nl + 1;
  }
  // A trailing newline gives one empty last line: drop it.
  if (!lines.empty() && lines.back().len == 0 && !input.empty() && input.back() == '\n') lines.pop_back();
  if (any_crlf) out.repairs.emplace_back("converted CRLF line ends");
  if (any_fence) out.repairs.emplace_back("removed markdown fences");
  if (any_noise) out.repairs.emplace_back("removed log or prompt lines");
  if (lines.size() > UINT32_MAX) {  // (indices of 32 bits)
    s.marked_valid = false;
    std::vector<std::uint32_t>().swap(marked);
  }
  return s;
}

}  // namespace planlint::repair
