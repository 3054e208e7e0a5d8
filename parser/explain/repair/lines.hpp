// Helpers shared by the repair passes: small text tests, rewritten lines with their byte maps,
// and the tree shape of a line. Internal to parser/explain/repair/.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/normalize.hpp"
#include "support/byte_scan.hpp"
#include "support/strings.hpp"

namespace planlint::repair {

inline std::size_t leading_spaces(std::string_view s) { return s.empty() || s[0] != ' ' ? 0 : leading_run(s, ' ', ' '); }


// ---- lines around a plan: fences, table borders, log lines, prompts -------------------------
// `+------+` borders of Dataset.show().
inline bool is_table_border(std::string_view s) {
  s = rtrim_blank_cr(ltrim_blank(s));
  if (s.size() < 3 || s.front() != '+' || s.back() != '+') return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c == '+' || c == '-'; });
}

inline bool is_fence(std::string_view s) {
  s = ltrim_blank(s);
  return s.starts_with("```") || s.starts_with("~~~");
}

// `INFO core/src/lib.rs: ...`, `WARN CometExecRule: ...`: a level, then a word ending in `: `.
inline bool is_log_level_line(std::string_view s, std::string_view lvl) {
  if (!s.starts_with(lvl)) return false;
  std::size_t colon = s.find(": ", lvl.size());
  std::size_t space = s.find(' ', lvl.size());
  return colon != std::string_view::npos && colon <= space;
}

// log4j / python logging lines and interactive prompts around a pasted plan.
inline bool is_noise(std::string_view s) {
  if (s.empty()) return false;
  const char c = s[0];
  // Hot path (every input line starting at column 0): one switch on the first byte.
  switch (c) {
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      // 25/11/30 10:00:00 INFO ..., 2025-11-30 10:00:00,123 WARN ...
      std::size_t i = 0;
      while (i < s.size() && is_digit(s[i])) ++i;
      return (i == 2 || i == 4) && i + 15 <= s.size() && (s[i] == '/' || s[i] == '-') && is_digit(s[i + 1]) &&
             is_digit(s[i + 2]) && (s[i + 3] == '/' || s[i + 3] == '-') && is_digit(s[i + 4]) && is_digit(s[i + 5]) &&
             (s[i + 6] == ' ' || s[i + 6] == 'T') && is_digit(s[i + 7]) && is_digit(s[i + 8]) && s[i + 9] == ':';
    }
    case '>': return s.starts_with(">>> ") || s == ">>>";
    case 's':
      return s.starts_with("scala> ") || s.starts_with("spark-sql> ") || s.starts_with("spark-sql (") ||
             s.starts_with("sql> ") || s == "scala>";
    // `Input [3]: ...` and `Output [3]: ...` of formatted plans start like these: look at bytes.
    case 'I':
      return s.size() >= 4 && ((s[1] == 'n' && s[2] == ' ' && s[3] == '[') ||
                               (s[1] == 'N' && is_log_level_line(s, "INFO ")));
    case 'O': return s.size() >= 4 && s[1] == 'u' && s[2] == 't' && s[3] == '[';
    case '$': return s.starts_with("$ ");
    case 'T': return s.starts_with("Time taken: ");
    case 'W': return is_log_level_line(s, "WARN ");
    case 'E': return is_log_level_line(s, "ERROR ");
    case 'D': return is_log_level_line(s, "DEBUG ");
    case 'r': {  // `res6: String =` (Scala REPL result)
      if (s.size() <= 4 || !s.starts_with("res") || !is_digit(s[3])) return false;
      std::size_t i = 3;
      while (i < s.size() && is_digit(s[i])) ++i;
      return i < s.size() && s[i] == ':';
    }
    default: return false;
  }
}

// Whether a line starting with c can be noise (a cheap test before the call).
inline bool maybe_noise(char c) {
  switch (c) {
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
    case '>': case 's': case 'I': case 'O': case '$': case 'T': case 'W': case 'E': case 'D': case 'r':
      return true;
    default: return false;
  }
}

// `         > from t` : a continuation prompt of spark-sql / beeline.
inline bool is_continuation_prompt(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return i >= 4 && i + 1 < s.size() && s[i] == '>' && s[i + 1] == ' ';
}


// ---- rewritten lines ----------------------------------------------------------------------------

// A line being rebuilt byte by byte, each byte with its source position.
struct Mapped {
  std::string text;
  std::vector<MapRun> runs;  // see MapRun
  void put(char c, SrcPos p) {
    if (runs.empty() || p.line != runs.back().pos.line ||
        p.col != runs.back().pos.col + static_cast<std::uint32_t>(text.size() - runs.back().at))
      runs.push_back({static_cast<std::uint32_t>(text.size()), p});
    text += c;
  }
  void put(std::string_view s, SrcPos p) {
    for (char c : s) put(c, p);
  }
};

inline NormLine make_line(Normalized& out, Mapped&& m, std::uint32_t line) {
  NormLine l;
  l.line = m.runs.empty() ? line : m.runs.front().pos.line;
  out.set_owned_text(l, m.text);
  out.maps.push_back({out.map_runs.size(), static_cast<std::uint32_t>(m.runs.size()), l.len});
  out.map_runs.insert(out.map_runs.end(), m.runs.begin(), m.runs.end());
  out.extra_of(l).map = static_cast<std::int32_t>(out.maps.size() - 1);
  return l;
}

// Drop the first n bytes of l's text, which are original columns (a margin, a prefix).
inline void strip_front(Normalized& out, NormLine& l, std::size_t n) {
  if (n == 0) return;
  out.set_text(l, out.text(l).substr(n));
  out.extra_of(l).col_base += static_cast<std::uint32_t>(n);
}

// Drop the first n bytes of l's text as normalised columns (a common indent, a tree number).
inline void strip_shift(Normalized& out, NormLine& l, std::size_t n) {
  if (n == 0) return;
  out.set_text(l, out.text(l).substr(n));
  if (!l.has_extra() && std::uint64_t{l.aux} + n < NormLine::kExtra)
    l.aux += static_cast<std::uint32_t>(n);  // a plain line keeps its shift in aux
  else
    out.extra_of(l).shift += static_cast<std::uint32_t>(n);
}

inline bool is_rewritten(const Normalized& out, const NormLine& l) {
  return l.has_extra() && out.extras[l.extra_index()].map >= 0;
}

// Copy normalised bytes [b, e) of line idx with their source positions.
inline void copy_range(const Normalized& out, std::size_t idx, std::size_t b, std::size_t e, Mapped& m) {
  std::string_view t = out.text(idx);
  for (std::size_t x = b; x < e && x < t.size(); ++x) m.put(t[x], out.pos(idx, x));
}

inline bool is_tree_marker(std::string_view s, std::size_t at) {
  return at + 2 < s.size() && (s[at] == '+' || s[at] == ':') && s[at + 1] == '-' && s[at + 2] == ' ';
}
// Skip a tree prefix: blanks and `:` guides (a `:` followed by a blank or the end of the line).
// Returns the offset of what follows.
inline std::size_t skip_guides(std::string_view s) { return skip_blanks_and_lone_colons(s); }

// The last bytes of a line that may_be_elision accepts: 1 for `.` and the last byte of `…`, 2 for
// `)` and `]` (then the byte before must be a 1).
inline constexpr std::array<unsigned char, 256> kElisionEnd = [] {
  std::array<unsigned char, 256> t{};
  for (char c : std::string_view(".\xA6")) t[static_cast<unsigned char>(c)] = 1;
  for (char c : std::string_view(")]")) t[static_cast<unsigned char>(c)] = 2;
  return t;
}();

// Whether a line whose text ends with no blank may be an elision (below): most lines end in none
// of `.`, `.)`, `.]`, `…`, `…)`, `…]`. Both last bytes through one table: split_lines asks it of
// every kept line, most of the golden plans' lines end in `)` or `]` and the byte before settles
// them (compares of both bytes cost 0.60 M instructions more).
inline bool may_be_elision(std::string_view t) {
  if (t.empty()) return false;
  const unsigned e = kElisionEnd[static_cast<unsigned char>(t.back())];
  return e == 1 || (e == 2 && t.size() >= 2 && kElisionEnd[static_cast<unsigned char>(t[t.size() - 2])] == 1);
}

// An author's elision: a line holding only `...`, `…`, `(...)` or `[...]` (after guides and a
// marker), under 200 bytes.
inline bool is_elision_line(std::string_view t) {
  if (t.empty() || t.size() >= 200 || !may_be_elision(rtrim_blank_cr(t))) return false;
  std::size_t g = skip_guides(t);
  if (is_tree_marker(t, g)) g = skip_guides(t.substr(g + 3)) + g + 3;  // `+- ...`
  const std::string_view r = rtrim_blank_cr(t.substr(std::min(g, t.size())));
  return r == "..." || r == "\xE2\x80\xA6" || r == "(...)" || r == "[...]" || r == "(\xE2\x80\xA6)" || r == "....";
}

inline bool is_title_line(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && is_blank(t[i])) ++i;
  if (i + 7 > t.size() || t[i] != '=' || t[i + 1] != '=') return false;  // most lines: one compare
  return t[t.size() - 1] == '=' && t[t.size() - 2] == '=';
}


// ---- tree shape of each line, shared by the two passes of step 7 -------------------------------
// Both passes ask the same questions of every line (its `:` guides, its marker, whether it or the
// text after its marker is a `== Title ==`); they are answered once per line, in one scan of the
// line's tree prefix, instead of once per pass.
struct Shape {
  static constexpr std::uint32_t kEmpty = 1, kTitle = 2, kMarker = 4, kBodyTitle = 8;
  std::uint32_t g = 0;      // skip_guides(t)
  std::uint32_t flags = 0;  // kTitle: is_title_line(t); kBodyTitle: a marker and is_title_line(t.substr(g + 3))
};

inline Shape shape_of(std::string_view t) {
  Shape sh;
  if (t.empty()) {
    sh.flags = Shape::kEmpty;
    return sh;
  }
  const std::size_t g = skip_guides(t);
  sh.g = static_cast<std::uint32_t>(g);
  // is_title_line(t) needs a `=` at its first byte after blanks: that is t[g] unless a tab stopped
  // the guides (a `:` skipped before it makes is_title_line false anyway).
  if (g < t.size() && (t[g] == '=' || t[g] == '\t') && is_title_line(t)) sh.flags |= Shape::kTitle;
  if (is_tree_marker(t, g)) {
    sh.flags |= Shape::kMarker;
    if (is_title_line(t.substr(g + 3))) sh.flags |= Shape::kBodyTitle;
  }
  return sh;
}

inline void shape_lines(const Normalized& out, std::vector<Shape>& shapes) {
  shapes.resize(out.lines.size());
  for (std::size_t i = 0; i < out.lines.size(); ++i) shapes[i] = shape_of(out.text(i));
}

// After the title line t of a section: how many non-empty lines until the section's root (-1: not
// a plan section).
inline int title_root_wait(std::string_view t) {
  std::string_view title = rtrim_blank_cr(ltrim_blank(t));
  bool plan = title.find("Plan ==") != std::string_view::npos || title.find("Subtree ") != std::string_view::npos;
  return plan ? (title.find("Analyzed") != std::string_view::npos ? 1 : 0) : -1;
}

// The questions of may_rebuild_flattened_trees and may_join_continuations, asked of the lines one at
// a time in order (tree_shape.cpp walks the line table with it; split_lines feeds it each line it
// keeps, so that a table no pass changed since needs no walk): sets `flat` when
// rebuild_flattened_trees would find a flattened pair, `join` when join_continuations would find a
// continuation (both stay set). For lines that no split marked `collapsed`:
// - a tree is flattened when a `+-` line is followed by a marker line at the same column, both
//   inside a block. A marker line (its text after the marker no title) is inside a block exactly
//   when the line before it is neither empty nor a title: that line is either inside the block or
//   is its root.
// - a continuation is a line that join_continuations would join (the same walk, without joining).
struct ShapeWalk {
  bool flat = false, join = false;
  // State bits. Of line j - 2: neither empty nor a title (kOpen2). Of line j - 1: the same
  // (kOpen1); a marker line whose text after the marker is no title (kMember1); that, with a `+-`
  // marker (kPlus1); an operator line (kTree: join_continuations' `tree`). One word, so that a
  // line's update is a few operations on it (the split feeds every line).
  static constexpr std::uint32_t kOpen1 = 1, kOpen2 = 2, kMember1 = 4, kPlus1 = 8, kTree = 16;
  std::uint32_t st = 0;
  int root_wait = -1;  // non-empty lines still to see before the section's root (0: the next one)
  std::uint32_t g1 = 0;  // skip_guides of line j - 1

  // The first bytes of a line with guides, a marker or a title (one bit test a line).
  static constexpr std::uint64_t kShaped = std::uint64_t{1} << ' ' | std::uint64_t{1} << ':' |
                                           std::uint64_t{1} << '+' | std::uint64_t{1} << '=' |
                                           std::uint64_t{1} << '\t';
  static bool shaped_lead(unsigned char c) { return c < 64 && ((kShaped >> c) & 1) != 0; }

  void empty_line() { st = (st & kOpen1) << 1; }
  // A non-empty line whose first byte `c` is no shaped_lead (most lines: formatted details,
  // operator lines at column 0): no guides, no marker, no title.
  void plain_line(unsigned char c, std::string_view t) {
    if ((st & kTree) != 0 && !(c == '(' && t.size() > 1 && is_digit(t[1]))) join = true;  // (not a detail)
    st = (st & kOpen1) << 1 | kOpen1 | (root_wait == 0 ? kTree : 0);
    if (root_wait >= 0) --root_wait;
  }
  // A non-empty line that starts with a shaped_lead byte.
  void shaped_line(std::string_view t) {
    constexpr std::uint32_t kMemberMask = Shape::kEmpty | Shape::kMarker | Shape::kBodyTitle;
    const Shape sh = shape_of(t);
    const bool member = (sh.flags & kMemberMask) == Shape::kMarker;
    // rebuild_flattened_trees: lines j - 1 and j are a flattened pair.
    constexpr std::uint32_t kPair = kOpen2 | kMember1 | kPlus1;
    if (member && (st & kPair) == kPair && g1 == sh.g) flat = true;
    // join_continuations
    std::uint32_t next = (st & kOpen1) << 1;
    if ((sh.flags & Shape::kTitle) != 0) {
      root_wait = title_root_wait(t);
    } else {
      const std::size_t g = sh.g;
      const bool marker = (sh.flags & Shape::kMarker) != 0;
      const bool detail = g + 1 < t.size() && t[g] == '(' && is_digit(t[g + 1]);
      if ((st & kTree) != 0 && !marker && !detail) join = true;
      const bool is_root = root_wait == 0;
      if (root_wait >= 0) --root_wait;
      if ((marker || is_root) && (sh.flags & Shape::kBodyTitle) == 0) next |= kTree;
      next |= kOpen1;
      if (member) next |= t[g] == '+' ? kMember1 | kPlus1 : kMember1;
    }
    st = next;
    g1 = sh.g;
  }
  void line(std::string_view t) {
    if (t.empty()) {
      empty_line();
    } else if (const auto c = static_cast<unsigned char>(t[0]); !shaped_lead(c)) {
      plain_line(c, t);
    } else {
      shaped_line(t);
    }
  }
};

}  // namespace planlint::repair
