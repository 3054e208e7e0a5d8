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
  if (first_idx >= lines.size() || last_idx >= lines.size()) return r;
  const NormLine& fl = lines[first_idx];
  const NormLine& ll = lines[last_idx];
  SrcPos b, e;
  if (!fl.has_extra() && !ll.has_extra()) {  // most ranges: both lines are shifted views of the input
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

// Split the input into lines (step 1), then run the repair passes in order, each only where its
// cheap check says it may change something; each pass that changed something is recorded.
Normalized normalize(std::string_view input) {
  repair::RepairState s = repair::split_lines(input);
  for (const repair::Repair& r : repair::kRepairs)
    if (r.may_apply(s) && r.run(s) && !r.what.empty()) s.out.repairs.emplace_back(r.what);
  return std::move(s.out);
}

}  // namespace planlint
