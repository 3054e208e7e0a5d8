// Text that is not a plain plan: markdown / HTML escaping, lost newlines, numbered tree strings,
// double spacing. Rewritten lines carry a byte map to the source.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {

// ---- markdown / HTML escaping -------------------------------------------------------------------
constexpr std::pair<std::string_view, char> kEntities[] = {
    {"&gt;", '>'}, {"&lt;", '<'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''},
    {"&nbsp;", ' '}, {"&#42;", '*'}, {"&#95;", '_'}};

// The entity above that starts at s[p], or nullptr.
const std::pair<std::string_view, char>* entity_at(std::string_view s, std::size_t p) {
  for (const auto& e : kEntities)
    if (s.substr(p, e.first.size()) == e.first) return &e;
  return nullptr;
}

// Whether `s` holds one of the entities above. A bare `&` (Catalyst's bitwise AND,
// `(spark_grouping_id#24 & 1)`) is not one: such a text needs no unescaping.
bool has_entity(std::string_view s) {
  for (std::size_t p = s.find('&'); p != std::string_view::npos; p = s.find('&', p + 1))
    if (entity_at(s, p) != nullptr) return true;
  return false;
}

bool unescape_lines(Normalized& out) {
  bool any = false;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view t = out.text(i);
    bool amp = has_entity(t);
    bool bs = t.find('\\') != std::string_view::npos;
    std::size_t stars = 0;  // only `stars >= 2` matters below
    for (std::size_t p = t.find("**"); p != std::string_view::npos && stars < 2; p = t.find("**", p + 2)) ++stars;
    if (!amp && !bs && stars < 2) continue;
    Mapped m;
    bool hit = false;
    for (std::size_t x = 0; x < t.size(); ++x) {
      SrcPos p = out.pos(i, x);
      if (t[x] == '\\' && x + 1 < t.size() && std::string_view("_*[]#<>|`-").find(t[x + 1]) != std::string_view::npos) {
        ++x;
        m.put(t[x], out.pos(i, x));  // the escaped character's own column
        hit = true;
        continue;
      }
      if (const auto* e = t[x] == '&' ? entity_at(t, x) : nullptr) {
        m.put(e->second, p);
        x += e->first.size() - 1;
        hit = true;
        continue;
      }
      if (stars >= 2 && t[x] == '*' && x + 1 < t.size() && t[x + 1] == '*') {  // **bold**
        ++x;
        hit = true;
        continue;
      }
      m.put(t[x], p);
    }
    if (!hit) continue;
    any = true;
    out.lines[i] = make_line(out, std::move(m), out.lines[i].line);
  }
  return any;
}

// ---- newlines lost: `== Physical Plan == *(2) HashAggregate(...) +- Exchange ... +- ...` --------
// Split before a `== Title ==`, after it, and before every `+- ` / `:- ` with its `:` guides.
// The pieces of line i between the offsets `cuts` (ascending, the last its size), each a rewritten
// line marked `collapsed`, appended to `next`.
void split_at_cuts(Normalized& out, std::size_t i, const std::vector<std::size_t>& cuts, std::vector<NormLine>& next) {
  const std::string_view t = out.text(i);
  std::size_t b = 0;
  for (std::size_t c : cuts) {
    std::size_t e = c;
    std::size_t ee = e;
    while (ee > b && t[ee - 1] == ' ') --ee;
    // A `.show()` table around the collapsed plan: `... | +------+`.
    std::string_view piece = t.substr(b, ee - b);
    std::size_t bar = piece.rfind(" |");
    if (bar != std::string_view::npos) {
      std::string_view tail = ltrim_blank(piece.substr(bar + 2));
      if (tail.empty() || std::all_of(tail.begin(), tail.end(), [](char x) { return x == '+' || x == '-'; }))
        ee = b + bar;
    }
    if (ee > b) {
      Mapped m;
      copy_range(out, i, b, ee, m);
      next.push_back(make_line(out, std::move(m), out.lines[i].line));
      out.extra_of(next.back()).collapsed = true;
    }
    b = e;
  }
}

// `marked`: when not null, the lines are the split's and no line outside `marked` holds two bytes
// that are `-` or `=` (see RepairState::marked): only those are looked at until one is split.
bool split_lost_newlines(Normalized& out, const std::vector<std::uint32_t>* marked) {
  // `next` is built only from the first line that is split (most inputs have none).
  std::vector<NormLine> next;
  bool changed = false;
  std::vector<std::size_t> cuts;
  NextByte dash{out.input, '-'}, eq{out.input, '='};
  std::size_t mk = 0;  // the next entry of *marked
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (!changed && marked != nullptr) {
      // A line with fewer than two of them holds no two markers and no `== ` ... ` ==` header.
      while (mk < marked->size() && (*marked)[mk] < i) ++mk;
      if (mk == marked->size()) break;
      i = (*marked)[mk];
    } else if (!changed) {
      // Until a line is split, skip the plain views that lie between the last '-' / '=' seen and
      // the next one (most lines), with no look at their text.
      const std::size_t lo = std::max(dash.from, eq.from), hi = std::min(dash.at, eq.at);
      for (; i < out.lines.size(); ++i) {
        const NormLine& l = out.lines[i];
        if (l.len != 0 && (l.has_extra() || l.off < lo || std::size_t{l.off} + l.len > hi)) break;
      }
      if (i == out.lines.size()) break;
    }
    std::string_view t = out.text(i);
    const NormLine& l = out.lines[i];
    if (l.len == 0) {
      if (changed) next.push_back(l);
      continue;
    }
    // A marker needs a '-', a header a '=': most lines have neither. A line that is a view into
    // the input finds them through the next of each in the input (one memchr per line that has
    // one, instead of a few per line).
    const bool view = !l.has_extra() || out.extras[l.extra_index()].base == out.input.data();
    auto find_dash = [&](std::size_t d) -> std::size_t {  // the first '-' in t[d, size - 2) or npos
      if (view) {
        const std::size_t at = dash.find(l.off + d) - l.off;
        return at + 2 < t.size() ? at : std::string_view::npos;
      }
      const void* hit = std::memchr(t.data() + d, '-', t.size() - 2 - d);
      return hit == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char*>(hit) - t.data());
    };
    std::size_t first_eq = 0;  // no '=' in t before it
    if (view) {
      first_eq = eq.find(l.off) - l.off;
      if (first_eq >= t.size() && find_dash(std::min<std::size_t>(2, t.size())) == std::string_view::npos) {
        if (changed) next.push_back(l);
        continue;
      }
    }
    cuts.clear();
    std::size_t markers = 0;
    std::size_t lead = std::string_view::npos;  // skip_guides(t), once a marker needs it
    // Markers ` +- ` / ` :- ` at p (p >= 1, p + 3 < size): found through their '-' at p + 1.
    for (std::size_t d = 2; d + 2 < t.size(); ++d) {
      d = find_dash(d);
      if (d == std::string_view::npos) break;
      const std::size_t p = d - 1;
      if (t[p - 1] != ' ' || !is_tree_marker(t, p)) continue;
      // The marker of an ordinary tree line: everything before it is skipped as guides, so the
      // walk back below would reach the start of the line (each `:` skipped by skip_guides has a
      // blank after it, so no `::` and a blank before it).
      if (lead == std::string_view::npos) lead = skip_guides(t);
      if (p == lead) continue;
      std::size_t q = p;
      while (true) {
        while (q > 0 && t[q - 1] == ' ') --q;
        if (q > 0 && t[q - 1] == ':' && (q == 1 || t[q - 2] == ' ')) {
          --q;
          continue;
        }
        break;
      }
      if (q == 0) continue;  // an ordinary tree line
      // The text before must end an operator (not `a +- b` inside an expression).
      ++markers;
      while (q < p && t[q] == ' ') ++q;
      cuts.push_back(q);
    }
    std::size_t h = first_eq < t.size() ? t.find("== ", first_eq) : std::string_view::npos;
    bool header_inside = false;
    if (h != std::string_view::npos) {
      std::size_t he = t.find(" ==", h + 3);
      if (he != std::string_view::npos && he + 3 < t.size() && t.substr(h + 3, he - h - 3).find("Plan") != std::string_view::npos) {
        header_inside = true;
        if (h > 0) cuts.push_back(h);
        std::size_t r = he + 3;
        while (r < t.size() && t[r] == ' ') ++r;
        cuts.push_back(r);
      }
    }
    if (markers < 2 && !(header_inside && markers >= 1) && !(header_inside && !cuts.empty() && cuts.back() < t.size() && markers == 0 && h == 0)) {
      if (changed) next.push_back(out.lines[i]);
      continue;
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    if (!changed) next.assign(out.lines.begin(), out.lines.begin() + static_cast<std::ptrdiff_t>(i));
    changed = true;
    cuts.push_back(t.size());
    split_at_cuts(out, i, cuts, next);
  }
  if (changed) out.lines = std::move(next);
  return changed;
}

// ---- numberedTreeString: `00 Project`, `01 +- Filter` ---------------------------------------------
bool strip_numbers(Normalized& out) {
  bool any = false;
  long expect = -1;
  auto number = [](std::string_view t, std::size_t& len) -> long {
    std::size_t i = 0;
    while (i < t.size() && is_digit(t[i])) ++i;
    // Tree numbers have a handful of digits; longer runs are not a numbered tree (and would not
    // fit a long).
    if (i < 2 || i > 9 || i >= t.size() || t[i] != ' ') return -1;
    len = i + 1;
    long n = 0;
    for (std::size_t k = 0; k < i; ++k) n = n * 10 + (t[k] - '0');
    return n;
  };
  // Nothing happens before the first `0...0 ` line followed by a `0...1 ` line: find it first,
  // by the first byte of each line.
  std::size_t first = 0;
  for (; first + 1 < out.lines.size(); ++first) {
    std::string_view t = out.text(first);
    std::size_t len = 0;
    if (!t.empty() && t[0] == '0' && number(t, len) == 0 && number(out.text(first + 1), len) == 1) break;
  }
  for (std::size_t i = first; i < out.lines.size(); ++i) {
    std::size_t len = 0;
    long n = number(out.text(i), len);
    bool start = n == 0 && i + 1 < out.lines.size();
    if (start) {
      std::size_t len2 = 0;
      start = number(out.text(i + 1), len2) == 1;
    }
    if (!(start || (expect >= 0 && n == expect))) {
      expect = -1;
      continue;
    }
    expect = n + 1;
    NormLine& l = out.lines[i];
    if (is_rewritten(out, l)) {
      strip_shift(out, l, len);
    } else {
      strip_front(out, l, len);
    }
    any = true;
  }
  return any;
}

// ---- double-spaced text (a PDF or a blog that put a blank line after every line) -------------------
bool drop_blank_every_other(Normalized& out) {
  std::size_t nonempty = 0;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (out.text(i).empty()) continue;
    ++nonempty;
    if (i + 1 < out.lines.size() && !out.text(i + 1).empty()) return false;
  }
  if (nonempty < 4) return false;
  std::vector<NormLine> next;
  for (std::size_t i = 0; i < out.lines.size(); ++i)
    if (!out.text(i).empty()) next.push_back(out.lines[i]);
  if (next.size() < 4) return false;
  out.lines = std::move(next);
  return true;
}

}  // namespace

// What the input does not contain, no line does unless a pass before rewrote lines from escapes.
bool may_unescape_markup(const RepairState& s) {
  const std::string_view in = s.out.input;
  return s.json || s.lit || input_has_backslash(s) || has_entity(in) ||
         in.find("**") != std::string_view::npos;
}
bool unescape_markup(RepairState& s) { return s.unescaped = unescape_lines(s.out); }

bool may_split_collapsed_lines(const RepairState&) { return true; }
bool split_collapsed_lines(RepairState& s) {
  // The split's list of lines holds for its line table: no pass before changed a line.
  const bool split_table = s.marked_valid && lines_as_split(s);
  s.collapsed = split_lost_newlines(s.out, split_table ? &s.marked : nullptr);
  // Kept for remove_common_indent while the lines stay where they are (see RepairState::marked).
  s.marked_valid = split_table && !s.collapsed;
  if (!s.marked_valid) std::vector<std::uint32_t>().swap(s.marked);
  return s.collapsed;
}

// A numbered tree starts at a `0...0 ` line: with the split's lines, one the split saw start with `0`.
bool may_strip_tree_numbers(const RepairState& s) { return s.zero_start || !lines_as_split(s); }
bool strip_tree_numbers(RepairState& s) { return s.relaid = strip_numbers(s.out) || s.relaid; }

bool may_undouble_spacing(const RepairState&) { return true; }
bool undouble_spacing(RepairState& s) {
  if (!drop_blank_every_other(s.out)) return false;
  s.marked_valid = false;  // the lines moved
  s.relaid = true;
  return true;
}

}  // namespace planlint::repair
