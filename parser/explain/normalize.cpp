#include "parser/explain/normalize.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "parser/explain/repair/repair.hpp"

namespace planlint {

const char* TextArena::add(std::string_view s) {
  if (size_ - used_ < s.size() + 1) {
    // Blocks grow from 4 KiB to 1 MiB: a few rewritten lines cost little, many cost few blocks.
    size_ = std::max(std::clamp<std::size_t>(2 * size_, 4096, 1 << 20), s.size() + 1);
    blocks_.emplace_back(new char[size_]);
    used_ = 0;
  }
  char* p = blocks_.back().get() + used_;
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  used_ += s.size() + 1;
  return p;
}

LineExtra Normalized::extra(const NormLine& l) const {
  if (l.has_extra()) return extras[l.extra_index()];
  LineExtra e;
  e.base = input.data();
  e.shift = l.aux;
  return e;
}

LineExtra& Normalized::extra_of(NormLine& l) {
  if (l.has_extra()) return extras[l.extra_index()];
  extras.push_back(extra(l));
  l.aux = NormLine::kExtra | static_cast<std::uint32_t>(extras.size() - 1);
  return extras.back();
}

void Normalized::set_text(NormLine& l, std::string_view t) {
  if (t.empty()) {  // keeps its place (the address of an empty line stays inside its buffer)
    l.len = 0;
    return;
  }
  const char* base = l.has_extra() ? extras[l.extra_index()].base : input.data();
  auto off = static_cast<std::size_t>(t.data() - base);
  if (off > UINT32_MAX) {  // a line more than 4 GiB into the input: its own base
    extra_of(l).base = t.data();
    off = 0;
  }
  l.off = static_cast<std::uint32_t>(off);
  l.len = static_cast<std::uint32_t>(std::min<std::size_t>(t.size(), UINT32_MAX));  // (cut at 4 GiB)
}

void Normalized::set_owned_text(NormLine& l, std::string_view t) {
  extra_of(l).base = owned.add(t);
  l.off = 0;
  l.len = static_cast<std::uint32_t>(std::min<std::size_t>(t.size(), UINT32_MAX));
}

SrcPos Normalized::map_pos(const ByteMap& m, std::size_t x) const {
  const auto b = map_runs.begin() + static_cast<std::ptrdiff_t>(m.first);
  auto r = std::upper_bound(b, b + m.count, x, [](std::size_t v, const MapRun& run) { return v < run.at; });
  --r;  // the run holding x (the first run is at 0)
  return {r->pos.line, r->pos.col + static_cast<std::uint32_t>(x - r->at)};
}

SrcPos Normalized::pos(std::size_t idx, std::size_t col) const {
  if (starts) {  // the compact table: line idx + 1 of the input, unshifted
    if (idx >= start_lines) return {};
    return {static_cast<std::uint32_t>(idx + 1), static_cast<std::uint32_t>(1 + col)};
  }
  if (idx >= lines.size()) return {};
  const NormLine& l = lines[idx];
  if (!l.has_extra()) return {l.line, static_cast<std::uint32_t>(1 + col + l.aux)};  // col_base 1, aux the shift
  const LineExtra& e = extras[l.extra_index()];
  std::size_t x = col + e.shift;
  if (e.map >= 0) {
    const ByteMap& m = maps[static_cast<std::size_t>(e.map)];
    if (m.size == 0) return {l.line, e.col_base};
    if (x < m.size) return map_pos(m, x);
    SrcPos p = map_pos(m, m.size - 1);
    p.col += static_cast<std::uint32_t>(x - m.size + 1);
    return p;
  }
  if (x < e.tab_norm_end)
    return {l.line, e.col_base + static_cast<std::uint32_t>(x * e.tab_orig_end / e.tab_norm_end)};
  return {l.line, e.col_base + static_cast<std::uint32_t>(x - e.tab_norm_end + e.tab_orig_end)};
}

SourceRange Normalized::range(std::size_t first_idx, std::size_t begin, std::size_t last_idx, std::size_t end) const {
  SourceRange r;
  if (first_idx >= line_count() || last_idx >= line_count()) return r;
  SrcPos b, e;
  if (starts) {  // the compact table: lines of the input, unshifted
    b = {static_cast<std::uint32_t>(first_idx + 1), static_cast<std::uint32_t>(1 + begin)};
    e = {static_cast<std::uint32_t>(last_idx + 1), static_cast<std::uint32_t>(1 + end)};
  } else if (const NormLine &fl = lines[first_idx], &ll = lines[last_idx]; !fl.has_extra() && !ll.has_extra()) {
    // most ranges: both lines are shifted views of the input
    b = {fl.line, static_cast<std::uint32_t>(1 + begin + fl.aux)};
    e = {ll.line, static_cast<std::uint32_t>(1 + end + ll.aux)};
  } else {
    b = pos(first_idx, begin);
    // The end is exclusive: take the position of the last byte and step past it, so that a range
    // ending on a rewritten byte (an unescaped `&gt;`, a joined line) ends where that byte ends.
    e = end > 0 ? pos(last_idx, end - 1) : pos(last_idx, 0);
    if (end > 0) ++e.col;
    if (!ll.has_extra() || extras[ll.extra_index()].map < 0) e = pos(last_idx, end);
  }
  r.line = b.line;
  r.column = b.col;
  r.end_line = e.line;
  r.end_column = e.col;
  if (r.end_line < r.line || (r.end_line == r.line && r.end_column < r.column)) {
    r.end_line = r.line;
    r.end_column = r.column;
  }
  return r;
}

bool Normalized::compact() {
  // A recorded repair, an extra entry (margins, tabs, a rewritten line), a byte map or a line
  // start that does not fit 32 bits: the line table stays as it is.
  if (lines.empty() || !repairs.empty() || !extras.empty() || !maps.empty() || input.size() >= UINT32_MAX - 1)
    return false;
  // No pass changed a line: line i is split_lines' view of the input's line i + 1 (unshifted, an
  // empty one at the input's first byte, as text() gives it), that line or less (split_lines cuts
  // a CR and trailing blanks, or empties a log line, never adds). So when the lengths and the
  // newlines between them add up to the input (a newline at its end ends the last line), every
  // line is whole and starts where the lines before it end.
  if (lines.back().line != lines.size()) return false;
  std::unique_ptr<std::uint32_t[]> st(new std::uint32_t[lines.size() + 1]);
  std::uint32_t at = 0;  // where the next line starts in the input
  std::uint32_t* w = st.get();
  const NormLine* l = lines.data();
  const NormLine* const end = l + lines.size();
  // Four lines a turn (a line is a load, an add and a store: the loop's own compare and branch
  // were a third of it).
  for (; end - l >= 4; l += 4, w += 4) {
    w[0] = at;
    at += l[0].len + 1;
    w[1] = at;
    at += l[1].len + 1;
    w[2] = at;
    at += l[2].len + 1;
    w[3] = at;
    at += l[3].len + 1;
  }
  for (; l != end; ++l, ++w) {
    *w = at;
    at += l->len + 1;
  }
  const bool newline_at_end = !input.empty() && input.back() == '\n';
  if (at != input.size() + (newline_at_end ? 0 : 1)) return false;
  st[lines.size()] = at;
  start_lines = lines.size();
  starts = std::move(st);
  std::vector<NormLine>().swap(lines);  // its memory goes back now, not at the end of the parse
  return true;
}

// Split the input into lines (step 1), then run the repair passes in order, each only where its
// cheap check says it may change something; each pass that changed something is recorded. The
// line table is then left compact where it can be.
Normalized normalize(std::string_view input, bool compact_lines) {
  repair::RepairState s = repair::split_lines(input);
  bool changed = false;  // a pass changed something (find_cut's is recorded nowhere)
  for (const repair::Repair& r : repair::kRepairs)
    if (r.may_apply(s) && r.run(s)) {
      changed = true;
      if (!r.what.empty()) s.out.repairs.emplace_back(r.what);
    }
  if (compact_lines && !changed) s.out.compact();
  return std::move(s.out);
}

}  // namespace planlint
