// Plans pasted as code comments, docstrings or quotes: `// `, `# `, ` * ` (Scaladoc, Javadoc),
// `-- `, `% `, `> ` on every plan line (with or without a blank after it, after any indentation),
// or a Scala worksheet gutter (`//>` / `//|` at a fixed column, after code). The prefix is found on
// the lines that carry plan markers; it is stripped from every line that has it (locations keep
// pointing at the user's text), and lines without it (the code, the prose around) are left out.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {

enum Tok : unsigned { None, Slash, Hash, Star, Dash, Percent, Quote, Gutter, kToks };

struct Prefix {
  Tok tok = None;
  std::size_t len = 0;  // bytes to strip: indentation (or code before a gutter), the token, one blank
  std::size_t col = 0;  // where the token starts
};

// The comment prefix of line t, if it has one. `gutter`: t may hold a worksheet gutter after code
// (false when the text it is cut from holds no ` //>` and no ` //|`: the two searches are skipped).
Prefix prefix_of(std::string_view t, bool gutter = true) {
  Prefix p;
  std::size_t i = 0;
  while (i < t.size() && is_blank(t[i])) ++i;
  if (i == t.size()) return p;
  const std::string_view r = t.substr(i);
  std::size_t n = 0;
  if (r.starts_with("//>") || r.starts_with("//|")) {
    p.tok = Gutter;
    n = 3;
  } else if (r.starts_with("//")) {
    p.tok = Slash;
    n = 2;
  } else if (r.starts_with("--")) {
    p.tok = Dash;
    n = 2;
  } else if (r[0] == '#') {
    p.tok = Hash;
    n = 1;
  } else if (r[0] == '%') {
    p.tok = Percent;
    n = 1;
  } else if (r[0] == '*' && (r.size() == 1 || is_blank(r[1]))) {  // not `*(1)`, not Spark 2's `*Project`
    p.tok = Star;
    n = 1;
  } else if (r[0] == '>' && (r.size() == 1 || r[1] != '>')) {  // not a `>>>` prompt
    p.tok = Quote;
    n = 1;
  } else {
    // A worksheet gutter after code: `df.explain()        //> == Physical Plan ==`.
    // (searched by their '/' and '|': a search by the first byte stops at every blank)
    if (!gutter) return p;
    std::size_t g = find_by_key(t, " //>", 1);
    if (g == std::string_view::npos) g = find_by_key(t, " //|", 3);
    if (g == std::string_view::npos) return p;
    p.tok = Gutter;
    i = g + 1;
    n = 3;
  }
  p.col = i;
  p.len = i + n;
  if (p.len < t.size() && t[p.len] == ' ') ++p.len;
  return p;
}

// Whether the text after a prefix carries a plan marker: a `== Title ==`, a `+- ` / `:- ` tree
// marker, or a `*(n)` codegen stage at its start.
bool carries_marker(std::string_view r) {
  const std::size_t g = skip_guides(r);
  if (is_tree_marker(r, g) || is_title_line(r)) return true;
  return g + 2 < r.size() && r[g] == '*' && r[g + 1] == '(' && is_digit(r[g + 2]);
}

// A line of a worksheet gutter that Scala IDE wrapped at its width: the gutter lines (after the
// prefix) that reach the widest length were cut there, and the `//|` line after them continues them
// mid-word (`... 10000, Stor` / `ageLevel(disk, ...)`).
bool join_gutter_wraps(Normalized& out, const std::vector<std::size_t>& gutter, const std::vector<bool>& bar) {
  std::size_t width = 0, at_width = 0;
  for (std::size_t i : gutter) width = std::max<std::size_t>(width, out.text(i).size());
  for (std::size_t i : gutter) at_width += out.text(i).size() == width;
  if (width < 40 || at_width < 2) return false;
  bool any = false;
  for (std::size_t k = 0; k + 1 < gutter.size(); ++k) {
    const std::size_t a = gutter[k], b = gutter[k + 1];
    if (b != a + 1 || !bar[k + 1] || out.text(a).size() != width) continue;
    const std::string_view nt = out.text(b);
    if (nt.empty() || is_blank(nt[0]) || carries_marker(nt)) continue;
    Mapped m;
    copy_range(out, a, 0, out.text(a).size(), m);
    copy_range(out, b, 0, nt.size(), m);
    out.lines[a] = make_line(out, std::move(m), out.lines[a].line);
    out.lines[b].line = 0;  // joined: dropped below (an empty line would end the plan)
    any = true;
  }
  if (any) std::erase_if(out.lines, [](const NormLine& l) { return l.line == 0; });
  return any;
}

// An author's sentence between plans in a comment: a bullet (`- ...`) or words ending in a full
// stop (not an elision `...`). It ends the plan above it.
bool is_prose(std::string_view r) {
  if (r.size() < 12 || carries_marker(r) || is_title_line(r)) return false;
  const std::size_t words = static_cast<std::size_t>(std::count(r.begin(), r.end(), ' '));
  if (words < 3) return false;
  if (r.starts_with("- ") || r.starts_with("• ")) return true;
  return r.back() == '.' && r[r.size() - 2] != '.';
}

// A caption naming the plan below it (`Query Plan:`, `Physical plan:`) starts a plan, as a header
// would: the lines under it are a plan tree (a `*(n)` stage, or a root whose next line is a tree
// line). It becomes `== Physical Plan ==` (located at the caption); prose lines become empty.
void mark_captions_and_prose(Normalized& out) {
  const std::size_t n = out.lines.size();
  auto next_nonempty = [&](std::size_t i) {
    while (i < n && out.text(i).empty()) ++i;
    return i;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view r = rtrim_blank_cr(ltrim_blank(out.text(i)));
    if (r.empty()) continue;
    if (is_prose(r)) {
      out.set_text(out.lines[i], {});
      continue;
    }
    if (r.back() != ':' || r.size() > 40 || r.find('[') != std::string_view::npos) continue;
    std::string low(r);
    for (char& c : low) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (low.find("plan") == std::string::npos) continue;
    const std::size_t a = next_nonempty(i + 1);
    if (a >= n || i + 1 != a) continue;
    const std::string_view ta = ltrim_blank(out.text(a));
    if (is_title_line(ta)) continue;
    const bool stage = ta.size() > 2 && ta[0] == '*' && ta[1] == '(' && is_digit(ta[2]);
    const bool tree = a + 1 < n && carries_marker(out.text(a + 1)) && !carries_marker(ta);
    if (!stage && !tree) continue;
    Mapped m;
    const SrcPos at = out.pos(i, static_cast<std::size_t>(r.data() - out.text(i).data()));
    m.put("== Physical Plan ==", at);
    out.lines[i] = make_line(out, std::move(m), out.lines[i].line);
  }
}

bool strip_prefix_lines(Normalized& out, bool input_gutter) {
  // Vote: which prefix do the lines with plan markers carry? (A gutter counts at one column.)
  std::array<std::size_t, kToks> votes{};
  std::size_t gutter_col = std::string_view::npos;
  // A line that is a view into the input can hold a gutter only when the input does (`input_gutter`:
  // input_has_gutter, one walk of the input's `/` bytes) instead of two searches of each line
  // (formatted plans start lines with `* `, so this vote runs on them and finds nothing).
  const auto may_hold_gutter = [&](const NormLine& l) {
    return input_gutter || (l.has_extra() && out.extras[l.extra_index()].base != out.input.data());
  };
  // The lines without a prefix are counted (their votes for None) only when some prefix has a vote:
  // a prefix must outvote them, and without a vote none can.
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const std::string_view t = out.text(i);
    if (t.empty()) continue;
    const Prefix p = prefix_of(t, may_hold_gutter(out.lines[i]));
    if (p.tok == None || !carries_marker(t.substr(p.len))) continue;
    if (p.tok == Gutter) {
      if (gutter_col == std::string_view::npos) gutter_col = p.col;
      if (p.col != gutter_col) continue;
    }
    ++votes[p.tok];
  }
  if (std::all_of(votes.begin() + 1, votes.end(), [](std::size_t v) { return v == 0; })) return false;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const std::string_view t = out.text(i);
    if (t.empty()) continue;
    const Prefix p = prefix_of(t, may_hold_gutter(out.lines[i]));
    if (p.tok == None && carries_marker(t.substr(p.len))) ++votes[None];
  }
  unsigned best = None;
  for (unsigned k = None + 1; k < kToks; ++k)
    if (votes[k] > votes[best]) best = k;
  if (best == None || votes[best] == 0) return false;
  // Strip it where it is; the lines without it are not the plan's.
  std::vector<std::size_t> gutter;
  std::vector<bool> bar;  // a `//|` continuation line of the gutter
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    NormLine& l = out.lines[i];
    const std::string_view t = out.text(l);
    if (t.empty()) continue;
    const Prefix p = prefix_of(t);
    if (p.tok != best || (best == Gutter && p.col != gutter_col)) {
      out.set_text(l, {});
      continue;
    }
    const bool is_bar = best == Gutter && t[p.col + 2] == '|';
    strip_front(out, l, p.len);
    const std::string_view r = rtrim_blank_cr(ltrim_blank(out.text(l)));
    // The end of a block comment (` */`), a fence or a prompt inside the comment.
    if ((best == Star && r == "/") || r == "*/" || is_fence(r) || is_noise(r)) out.set_text(l, {});
    if (best == Gutter) {
      gutter.push_back(i);
      bar.push_back(is_bar);
    }
  }
  if (best == Gutter) join_gutter_wraps(out, gutter, bar);
  mark_captions_and_prose(out);
  return true;
}

}  // namespace

namespace {
// The input's `//`: whether one is a worksheet gutter (` //>`, ` //|`) and whether one is a
// comment after code (`  // `), in one walk over its `/` bytes (instead of three searches).
void search_slashes(const RepairState& s) {
  if (s.gutter >= 0) return;
  const std::string_view in = s.out.input;
  const char* const d = in.data();
  const std::size_t n = in.size();
  bool gutter = false, comment = false;
  for (std::size_t p = 0; p + 1 < n && !(gutter && comment); ++p) {
    const void* hit = std::memchr(d + p, '/', n - 1 - p);  // a `/` with a byte after it
    if (hit == nullptr) break;
    p = static_cast<std::size_t>(static_cast<const char*>(hit) - d);
    if (d[p + 1] != '/' || p + 2 >= n) continue;
    const char after = d[p + 2];
    if (p >= 1 && d[p - 1] == ' ' && (after == '>' || after == '|')) gutter = true;
    if (p >= 2 && d[p - 1] == ' ' && d[p - 2] == ' ' && after == ' ') comment = true;
  }
  s.gutter = gutter ? 1 : 0;
  s.slash_comment = comment;
}
}  // namespace

bool input_has_gutter(const RepairState& s) {
  search_slashes(s);
  return s.gutter != 0;
}

bool comment_line_votes(std::string_view t) {
  const Prefix p = prefix_of(t, false);
  return p.tok != None && carries_marker(t.substr(p.len));
}

// The pass changes lines only when some line votes for a prefix (see strip_prefix_lines). The
// split asked each line that starts with a comment token whether it votes (comment_vote); lines
// the notebook pass rewrote were not asked, so then any comment token (comment_start) may vote.
// A worksheet gutter after code is found by a search of the input.
bool may_strip_comment_prefix(const RepairState& s) {
  return (s.magic ? s.comment_start : s.comment_vote) || input_has_gutter(s);
}
bool strip_comment_prefix(RepairState& s) {
  const bool any = strip_prefix_lines(s.out, input_has_gutter(s));
  s.stripped = s.stripped || any;
  return any;
}

// ---- an author's annotation after a plan line: `<- PUSHED DOWN` (U+2190), `<-- SHUFFLE`, `// here` ----

namespace {

// Where the annotation of line t starts (npos: none): an arrow after a blank, or `//` after two
// blanks (a comment after code; `file://` has none).
std::size_t annotation_at(std::string_view t) {
  std::size_t best = std::string_view::npos;
  // (each searched by a byte other than its leading blank: see find_by_key)
  static constexpr std::pair<std::string_view, std::size_t> kMarks[] = {
      {" \xE2\x86\x90", 1}, {" <--", 1}, {" <- ", 1}, {"  // ", 2}};
  for (const auto& [mark, key] : kMarks) {
    const std::size_t at = find_by_key(t, mark, key);
    if (at != std::string_view::npos && at < best) best = at;
  }
  if (best == std::string_view::npos) return best;
  // Only after plan text: the line must hold something before the annotation.
  return rtrim_blank_cr(t.substr(0, best)).empty() ? std::string_view::npos : best;
}

}  // namespace

bool may_strip_annotations(const RepairState& s) {
  const std::string_view in = s.out.input;
  search_slashes(s);  // `  // `
  return s.slash_comment || in.find("\xE2\x86\x90") != std::string_view::npos ||
         find_by_key(in, " <-", 1) != std::string_view::npos;
}
bool strip_annotations(RepairState& s) {
  bool any = false;
  for (NormLine& l : s.out.lines) {
    const std::string_view t = s.out.text(l);
    if (t.size() < 4) continue;
    const std::size_t at = annotation_at(t);
    if (at == std::string_view::npos) continue;
    s.out.set_text(l, rtrim_blank_cr(t.substr(0, at)));
    any = true;
  }
  s.stripped = s.stripped || any;
  return any;
}

// ---- an author's elision: a line holding only `...`, `…`, `(...)` or `[...]` -------------------
// It is a gap in the tree: never an operator, never a continuation of the line above (it would
// be read as part of that operator's arguments). The line is left out, so the tree around it
// stays one tree (an empty line would end it).

// The split asked each of its lines (RepairState::elision); only the passes before this one that
// rewrite lines (notebook prefixes, comment prefixes, annotations) can make a new one.
bool may_drop_elisions(const RepairState& s) {
  if (!s.magic && !s.stripped) return s.elision;
  const std::string_view in = s.out.input;
  return in.find("...") != std::string_view::npos || in.find("\xE2\x80\xA6") != std::string_view::npos;
}
bool drop_elisions(RepairState& s) {
  const std::size_t before = s.out.lines.size();
  std::erase_if(s.out.lines, [&](const NormLine& l) {
    const std::string_view t = s.out.text(l);
    return is_elision_line(t);
  });
  s.dropped = s.out.lines.size() != before;
  return s.dropped;
}

// For the hint of an input nothing was read from: the comment prefix its plan lines carry, if any
// ("// ", "# ", ...), empty when none.
std::string_view comment_prefix_name(std::string_view text) {
  std::array<std::size_t, kToks> votes{};
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view t = rtrim_blank_cr(text.substr(pos, nl - pos));
    const Prefix p = prefix_of(t);
    if (p.tok != None && carries_marker(t.substr(p.len))) ++votes[p.tok];
    pos = nl + 1;
  }
  static constexpr std::array<std::string_view, kToks> kNames = {"", "//", "#", "*", "--", "%", ">", "//> (worksheet gutter)"};
  unsigned best = None;
  for (unsigned k = None + 1; k < kToks; ++k)
    if (votes[k] > votes[best]) best = k;
  return kNames[best];
}

}  // namespace planlint::repair
