// Layout repairs: the ASCII table of Dataset.show(), Scala stripMargin margins, tabs, Spark's own
// `... N more characters` cut, a common indent.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {

// "... 1234 more characters" at the end of a line: position of the "..." or npos.
std::size_t cut_position(std::string_view s) {
  static constexpr std::string_view kTail = " more characters";
  if (s.size() < kTail.size() + 5 || s.substr(s.size() - kTail.size()) != kTail) return std::string_view::npos;
  std::size_t e = s.size() - kTail.size();
  std::size_t b = e;
  while (b > 0 && is_digit(s[b - 1])) --b;
  if (b == e || b < 4 || s.substr(b - 4, 4) != "... ") return std::string_view::npos;
  return b - 4;
}

bool is_mode_header(std::string_view s) {
  s = rtrim_blank_cr(ltrim_blank(s));
  return s.size() >= 7 && s.starts_with("== ") && s.substr(s.size() - 3) == " ==";
}

}  // namespace

// ASCII table of Dataset.show(truncate=False): `|plan|` header row, `|` on the first content line,
// `   |` padding on the last.
bool may_remove_show_table(const RepairState& s) { return !s.borders.empty(); }
bool remove_show_table(RepairState& s) {
  if (s.borders.empty()) return false;
  Normalized& out = s.out;
  auto& lines = out.lines;
  const auto& borders = s.borders;
  std::size_t b = 0;
  for (std::size_t i = borders.front() + 1; i < lines.size(); ++i) {
    while (b < borders.size() && borders[b] < i) ++b;
    NormLine& l = lines[i];
    std::string_view t = ltrim_blank(out.text(l));
    if (b == 1 && !t.empty() && t.front() == '|' && t.size() >= 2 && t.back() == '|' &&
        t.find("==") == std::string_view::npos && (i == 0 || out.text(i - 1).empty())) {
      out.set_text(l, {});  // column header row
      continue;
    }
    if (!t.empty() && t.front() == '|') strip_front(out, l, static_cast<std::size_t>(t.data() - out.text(l).data()) + 1);
    std::string_view rest = out.text(l);
    if (!rest.empty() && rest.back() == '|') out.set_text(l, rtrim_blank_cr(rest.substr(0, rest.size() - 1)));
  }
  return true;
}

// Scala stripMargin: most non-empty lines start with optional blanks and `|`.
bool may_strip_margins(const RepairState& s) { return s.margin >= 2 && s.margin * 10 >= s.nonempty * 8; }
bool strip_margins(RepairState& s) {
  if (!may_strip_margins(s)) return false;
  Normalized& out = s.out;
  auto& lines = out.lines;
  for (auto& l : lines) {
    std::string_view t = ltrim_blank(out.text(l));
    std::size_t bar = t.find('|');
    if (t.empty() || bar > 4 || (bar > 0 && !t.starts_with("\"\"\"") && !t.starts_with("s\"\"\""))) continue;
    strip_front(out, l, static_cast<std::size_t>(t.data() - out.text(l).data()) + bar + 1);
    std::string_view rest = out.text(l);
    for (std::string_view tail : {std::string_view("\"\"\".stripMargin"), std::string_view("\"\"\"")})
      if (rest.size() >= tail.size() && rest.substr(rest.size() - tail.size()) == tail) {
        out.set_text(l, rtrim_blank_cr(rest.substr(0, rest.size() - tail.size())));
        break;
      }
  }
  return true;
}

// Tabs: leading tabs to 8-column stops, other tabs to one space (keeps columns 1:1). Lines that a
// pass rewrote (with a byte map) keep theirs.
bool may_expand_tabs(const RepairState& s) { return s.any_tab; }
bool expand_tabs(RepairState& s) {
  if (!s.any_tab) return false;
  s.marked_valid = false;  // lines rewritten (RepairState::marked is kept only for lines as split)
  s.relaid = true;
  Normalized& out = s.out;
  auto& lines = out.lines;
  std::string buf;  // one buffer for every line
  for (auto& l : lines) {
    const std::string_view t = out.text(l);
    if (is_rewritten(out, l) || t.find('\t') == std::string_view::npos) continue;
    buf.clear();
    std::size_t i = 0;
    for (; i < t.size() && is_blank(t[i]); ++i) {
      if (t[i] == '\t')
        buf.append(8 - buf.size() % 8, ' ');
      else
        buf += ' ';
    }
    const std::size_t orig_end = i, norm_end = buf.size();
    for (; i < t.size(); ++i) buf += t[i] == '\t' ? ' ' : t[i];
    out.set_owned_text(l, buf);
    if (orig_end > 0 && norm_end != orig_end) {
      LineExtra& e = out.extra_of(l);
      e.tab_norm_end = static_cast<std::uint32_t>(norm_end);
      e.tab_orig_end = static_cast<std::uint32_t>(orig_end);
    }
  }
  return true;
}

// Spark's own cut: "... N more characters" (no newline before it) on the last non-empty line.
bool may_find_cut(const RepairState&) { return true; }
bool find_cut(RepairState& s) {
  Normalized& out = s.out;
  auto& lines = out.lines;
  for (std::size_t i = lines.size(); i-- > 0;) {
    const std::string_view t = out.text(i);
    if (t.empty()) continue;
    std::size_t c = cut_position(t);
    if (c != std::string_view::npos) {
      out.cut = true;
      out.cut_line = i;
      out.cut_text = std::string(t.substr(c));
      out.set_text(lines[i], rtrim_blank_cr(t.substr(0, c)));
      s.relaid = true;
    }
    break;
  }
  return out.cut;
}

// A tree whose root line was left out (a page quotes a plan from its second line:
// `   +- CollectLimit (10)` after a sentence and a blank line): its first line is the last child of a
// root that is not there, so the whole tree hangs under it. Taken as the root when the text has no
// mode header, the line before it is blank (a root is never separated from its children), nothing
// but blanks stands left of its `+- ` and every following line of the block is deeper: then the
// block is shifted left past that `+- ` (columns kept). A paste that starts inside a subtree (a
// `:` guide left of the first marker, or a later line as shallow as the first) is left alone.
namespace {
bool is_tree_marker_line(std::string_view t) {
  std::size_t k = 0;
  while (k < t.size() && (t[k] == ' ' || t[k] == ':')) ++k;
  return t.substr(k).starts_with("+- ") || t.substr(k).starts_with(":- ");
}
}  // namespace

bool may_read_cut_root(const RepairState&) { return true; }
bool read_cut_root(RepairState& s) {
  Normalized& out = s.out;
  auto& lines = out.lines;
  std::size_t first = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = out.text(i);
    if (is_mode_header(t)) return false;
    if (first == lines.size() && is_tree_marker_line(t)) first = i;
  }
  if (first == lines.size() || (first > 0 && !out.text(first - 1).empty())) return false;
  const std::string_view root = out.text(first);
  const std::size_t k = leading_spaces(root);
  if (!root.substr(k).starts_with("+- ") || root.size() <= k + 3 || root[k + 3] == ' ') return false;
  const std::size_t shift = k + 3;
  std::size_t end = first + 1;
  for (; end < lines.size() && !out.text(end).empty(); ++end)
    if (leading_spaces(out.text(end)) < shift) return false;
  if (end == first + 1 || !is_tree_marker_line(out.text(first + 1))) return false;
  for (std::size_t i = first; i < end; ++i) strip_shift(out, lines[i], shift);
  s.relaid = true;
  return true;
}

// Common indent, per region: a `== Title ==` header fixes the indent of the lines after it; before
// the first header the smallest indent of the non-empty lines is used.
bool may_remove_common_indent(const RepairState&) { return true; }
bool remove_common_indent(RepairState& s) {
  Normalized& out = s.out;
  auto& lines = out.lines;
  bool any_indent = false;
  auto apply = [&](std::size_t b, std::size_t e, std::size_t indent) {
    if (indent == 0) return;
    for (std::size_t i = b; i < e; ++i) {
      std::size_t n = std::min(indent, leading_spaces(out.text(i)));
      if (n == 0) continue;
      any_indent = true;
      strip_shift(out, lines[i], n);
    }
  };
  auto header_at = [&](std::size_t i) {
    std::string_view t = out.text(i);
    std::size_t k = leading_spaces(t);
    return k < t.size() && t[k] == '=' && is_mode_header(t);
  };
  // The first header at or after line i (lines.size(): none). A header holds four `=`: where the
  // split's list of such lines holds (RepairState::marked: the lines are where the split put them,
  // their text at most shortened since), only the lines in it are looked at; their indices come
  // in ascending order.
  const std::vector<std::uint32_t>* marked = s.marked_valid ? &s.marked : nullptr;
  std::size_t mk = 0;
  auto next_header = [&](std::size_t i) {
    if (marked == nullptr) {
      while (i < lines.size() && !header_at(i)) ++i;
      return i;
    }
    while (mk < marked->size() && (*marked)[mk] < i) ++mk;
    for (; mk < marked->size(); ++mk)
      if (header_at((*marked)[mk])) return static_cast<std::size_t>((*marked)[mk]);
    return lines.size();
  };
  const std::size_t first_header = next_header(0);
  std::size_t m = std::string_view::npos;
  for (std::size_t i = 0; i < first_header; ++i)
    if (!out.text(i).empty()) m = std::min(m, leading_spaces(out.text(i)));
  if (m != std::string_view::npos) apply(0, first_header, m);
  std::size_t region_start = first_header;
  while (region_start < lines.size()) {
    std::size_t indent = leading_spaces(out.text(region_start));
    const std::size_t e = next_header(region_start + 1);
    apply(region_start, e, indent);
    region_start = e;
  }
  s.marked_valid = false;  // no later pass looks at it
  std::vector<std::uint32_t>().swap(s.marked);
  if (any_indent) s.relaid = true;
  return any_indent;
}

}  // namespace planlint::repair
