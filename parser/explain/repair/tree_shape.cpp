// Tree shape: flattened indentation (every `+-` at one column), then hand-wrapped continuation
// lines. Both passes ask the same questions of every line, answered once per line (Shape).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {

// ---- flattened indentation: every `+-` at one column -------------------------------------------
// Parents come from the guides: `:-` opens a branch that the next line with fewer `:` guides
// closes; any other line is a child of the line before it.
bool rebuild_tree_blocks(Normalized& out, const std::vector<Shape>& shapes) {
  bool any = false;
  std::size_t i = 0;
  const std::size_t n = out.lines.size();
  while (i < n) {
    // A tree block: a root line, then marker lines.
    if ((shapes[i].flags & (Shape::kEmpty | Shape::kTitle)) != 0 || i + 1 >= n) {
      ++i;
      continue;
    }
    std::size_t e = i + 1;
    while (e < n && (shapes[e].flags & (Shape::kEmpty | Shape::kMarker | Shape::kBodyTitle)) == Shape::kMarker) ++e;
    if (e == i + 1) {
      ++i;
      continue;
    }
    bool flattened = false;
    for (std::size_t k = i; k < e && !flattened; ++k) {
      const NormLine& l = out.lines[k];
      flattened = l.has_extra() && out.extras[l.extra_index()].collapsed;
    }
    for (std::size_t k = i + 1; k + 1 < e && !flattened; ++k) {
      std::size_t ga = shapes[k].g, gb = shapes[k + 1].g;
      if (out.text(k)[ga] == '+' && ga == gb) flattened = true;
    }
    if (!flattened) {
      i = e;
      continue;
    }
    any = true;
    std::vector<std::size_t> depth(e - i, 0), parent(e - i, 0);
    std::vector<std::size_t> branch;  // owners of the open `:-` branches
    for (std::size_t k = 1; k < e - i; ++k) {
      std::string_view s = out.text(i + k);
      std::size_t g = skip_guides(s);
      std::size_t colons = static_cast<std::size_t>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(g), ':'));
      std::size_t par = k - 1;
      if (colons < branch.size()) {
        par = branch[colons];
        branch.resize(colons);
      }
      parent[k] = par;
      depth[k] = depth[par] + 1;
      if (s[g] == ':') branch.push_back(par);
    }
    for (std::size_t k = 1; k < e - i; ++k) {
      std::size_t idx = i + k;
      std::string_view s = out.text(idx);
      std::size_t g = skip_guides(s);
      Mapped m;
      SrcPos at = out.pos(idx, g);
      for (std::size_t d = 1; d < depth[k]; ++d) m.put("   ", at);
      copy_range(out, idx, g, s.size(), m);
      out.lines[idx] = make_line(out, std::move(m), out.lines[idx].line);
    }
    i = e;
  }
  return any;
}

// ---- hand-wrapped long lines: a continuation is not a child operator ---------------------------

bool join_wrapped_lines(Normalized& out, const std::vector<Shape>& shapes) {
  bool any = false;
  // `next` is built only from the first continuation (most inputs have none); until then the kept
  // lines are out.lines[0, i).
  std::vector<NormLine> next;
  bool changed = false;
  std::size_t last = 0;  // index in out.lines of the last kept line (never a joined one)
  int root_wait = -1;  // non-empty lines still to see before the section's root (0: the next one)
  bool tree = false;   // the previous kept line is an operator line (so a line was kept)
  std::optional<Mapped> open;  // the line next.back() with the continuations seen so far
  auto flush = [&] {
    if (!open) return;
    std::uint32_t line = next.back().line;
    next.back() = make_line(out, std::move(*open), line);
    next.back().line = line;
    open.reset();
  };
  auto keep = [&](std::size_t i) {
    flush();
    if (changed) next.push_back(out.lines[i]);
    last = i;
  };
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const Shape sh = shapes[i];
    if ((sh.flags & Shape::kEmpty) != 0) {
      tree = false;
      keep(i);
      continue;
    }
    std::string_view t = out.text(i);
    if ((sh.flags & Shape::kTitle) != 0) {
      root_wait = title_root_wait(t);
      tree = false;
      keep(i);
      continue;
    }
    std::size_t g = sh.g;
    bool marker = (sh.flags & Shape::kMarker) != 0;
    bool detail = g + 1 < t.size() && t[g] == '(' && is_digit(t[g + 1]);  // formatted `(3) Filter`
    if (tree && !marker && !detail) {
      if (!changed) {
        next.reserve(out.lines.size());
        next.assign(out.lines.begin(), out.lines.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      }
      // The whole run of continuation lines is joined once (rebuilding the line per continuation
      // was quadratic in a long run).
      if (!open) {
        std::string_view pt = out.text(last);
        open.emplace();
        for (std::size_t x = 0; x < pt.size(); ++x) open->put(pt[x], out.pos(last, x));
      }
      std::string_view body = t.substr(g);
      char last_char = open->text.empty() ? ' ' : open->text.back();
      bool glue = last_char == '/' || last_char == '(' || last_char == '[' ||
                  (last_char == ')' && !body.empty() && body[0] == '[');
      if (!glue) open->put(' ', out.pos(i, g));
      copy_range(out, i, g, t.size(), *open);
      continue;
    }
    bool is_root = root_wait == 0;
    if (root_wait >= 0) --root_wait;
    // The text after a marker, or the line itself (not a title: see above).
    tree = (marker || is_root) && (sh.flags & Shape::kBodyTitle) == 0;
    keep(i);
  }
  flush();
  if (changed) {
    any = true;
    out.lines = std::move(next);
  }
  return any;
}


// Whether rebuild_flattened_trees (kFlat) or join_continuations (kJoin) would change anything, in
// one pass that keeps no shapes (most inputs need neither): ShapeWalk (lines.hpp) over the line
// table. Sets `flat` / `join` when found; returns once every question asked is answered, or at the
// end.
template <bool kFlat, bool kJoin>
void tree_shape_walk(const Normalized& out, bool& flat, bool& join) {
  ShapeWalk w;
  for (const NormLine& l : out.lines) {
    w.line(out.text(l));
    if ((!kFlat || w.flat) && (!kJoin || w.join)) break;
  }
  flat = kFlat && w.flat;
  join = kJoin && w.join;
}

template <bool kFlat, bool kJoin>
bool tree_shape_work(const Normalized& out) {
  bool flat = false, join = false;
  tree_shape_walk<kFlat, kJoin>(out, flat, join);
  return flat || join;
}

}  // namespace

// A line that collapsed_lines split has its tree rebuilt whatever its shape.
// One walk answers both checks: the answer for join_continuations is kept for may_join_continuations,
// which comes next (when rebuild_flattened_trees runs in between and changes the lines, its check
// is true without a look; s.join_lines says which lines the answer was for).
bool may_rebuild_flattened_trees(const RepairState& s) {
  if (s.collapsed) return true;
  bool flat = false, join = false;
  if (!s.relaid && lines_as_split(s)) {  // the split asked its lines (most inputs): no walk
    flat = s.split_flat;
    join = s.split_join;
  } else {
    tree_shape_walk<true, true>(s.out, flat, join);
  }
  s.join_work = join;
  s.join_lines = s.out.lines.data();
  s.join_count = s.out.lines.size();
  return flat;
}
bool rebuild_flattened_trees(RepairState& s) {
  s.join_lines = nullptr;  // the lines may change: may_join_continuations looks again
  std::vector<Shape> shapes;
  shape_lines(s.out, shapes);
  return s.flattened = rebuild_tree_blocks(s.out, shapes);
}

// After a rebuild the lines have new prefixes: the check would look at the rebuilt text, so a
// rebuild lets the pass run as it did before the passes were split.
bool may_join_continuations(const RepairState& s) {
  if (s.collapsed || s.flattened) return true;
  if (s.join_lines != nullptr && s.join_lines == s.out.lines.data() && s.join_count == s.out.lines.size()) {
    s.join_lines = nullptr;
    return s.join_work;
  }
  return tree_shape_work<false, true>(s.out);
}
bool join_continuations(RepairState& s) {
  std::vector<Shape> shapes;
  shape_lines(s.out, shapes);
  return join_wrapped_lines(s.out, shapes);
}

}  // namespace planlint::repair
