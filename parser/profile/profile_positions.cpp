#include "parser/profile/profile_positions.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace planlint::profile {

namespace {

// One open container. For an object, `key` is the key of the member being read; for an array,
// `index` is the position of the element being read.
struct Frame {
  bool array = false;
  bool want_key = true;
  std::string_view key;
  std::size_t index = 0;
};

bool key_is(const Frame& f, std::string_view k) { return !f.array && f.key == k; }

// The graph the frames are inside of: (graph index, index of the graph object's frame).
std::optional<std::pair<std::size_t, std::size_t>> graph_of(const std::vector<Frame>& fr) {
  if (fr.size() >= 3 && key_is(fr[0], "graphs") && fr[1].array) return std::pair{fr[1].index, std::size_t{2}};
  if (fr.size() >= 2 && key_is(fr[0], "graph")) return std::pair{std::size_t{0}, std::size_t{1}};
  return std::nullopt;
}

template <class T>
T& slot(std::vector<T>& v, std::size_t i) {
  if (v.size() <= i) v.resize(i + 1);
  return v[i];
}

void set_offset(std::vector<std::size_t>& v, std::size_t i, std::size_t off) {
  if (v.size() <= i) v.resize(i + 1, kNoOffset);
  v[i] = off;
}

// A container (`{` or `[`) starts at `off` inside `fr`: record it when diagnostics need it.
void on_container(Positions& p, const std::vector<Frame>& fr, char c, std::size_t off) {
  const std::size_t n = fr.size();
  if (n == 0) return;
  if (n == 1 && key_is(fr[0], "graphs") && c == '[') {
    p.graphs.clear();
    return;
  }
  if (n == 1 && key_is(fr[0], "query") && c == '{') {
    p.query = off;
    return;
  }
  if (n == 1 && key_is(fr[0], "graph") && c == '{') {
    p.graphs.clear();
    slot(p.graphs, 0).offset = off;
    return;
  }
  if (n == 2 && key_is(fr[0], "graphs") && fr[1].array && c == '{') {
    slot(p.graphs, fr[1].index) = GraphPositions{};
    p.graphs[fr[1].index].offset = off;
    return;
  }
  auto g = graph_of(fr);
  if (!g) return;
  auto [gi, gp] = *g;
  GraphPositions& gpos = slot(p.graphs, gi);
  if (n == gp + 1 && c == '[') {
    if (key_is(fr[gp], "nodes")) gpos.nodes.clear(), gpos.clear_metadata();
    if (key_is(fr[gp], "edges")) gpos.edges.clear();
    return;
  }
  if (n == gp + 2 && fr[gp + 1].array && c == '{') {
    if (key_is(fr[gp], "nodes")) set_offset(gpos.nodes, fr[gp + 1].index, off);
    if (key_is(fr[gp], "edges")) set_offset(gpos.edges, fr[gp + 1].index, off);
    return;
  }
  if (n == gp + 4 && c == '{' && key_is(fr[gp], "nodes") && fr[gp + 1].array && key_is(fr[gp + 2], "metadata") &&
      fr[gp + 3].array) {
    gpos.add_metadata(fr[gp + 1].index, fr[gp + 3].index, off);
  }
}

}  // namespace

std::size_t GraphPositions::metadata_at(std::size_t node, std::size_t k) const {
  if (irregular_) return node < meta_by_node_.size() && k < meta_by_node_[node].size() ? meta_by_node_[node][k] : kNoOffset;
  if (node >= meta_begin_.size()) return kNoOffset;
  const std::size_t begin = meta_begin_[node];
  const std::size_t end = node + 1 < meta_begin_.size() ? meta_begin_[node + 1] : meta_offsets_.size();
  return k < end - begin ? meta_offsets_[begin + k] : kNoOffset;
}

void GraphPositions::add_metadata(std::size_t node, std::size_t k, std::size_t off) {
  if (!irregular_) {
    // Nodes between the last one recorded and this one have no entries: they start where it starts.
    if (meta_begin_.size() <= node) meta_begin_.resize(node + 1, meta_offsets_.size());
    if (node + 1 == meta_begin_.size() && k == meta_offsets_.size() - meta_begin_[node]) {
      meta_offsets_.push_back(off);
      return;
    }
    to_lists();
  }
  set_offset(slot(meta_by_node_, node), k, off);
}

void GraphPositions::clear_metadata() {
  meta_offsets_.clear();
  meta_begin_.clear();
  meta_by_node_.clear();
  irregular_ = false;
}

void GraphPositions::to_lists() {
  meta_by_node_.resize(meta_begin_.size());
  for (std::size_t j = 0; j < meta_begin_.size(); ++j) {
    const std::size_t end = j + 1 < meta_begin_.size() ? meta_begin_[j + 1] : meta_offsets_.size();
    meta_by_node_[j].assign(meta_offsets_.begin() + static_cast<std::ptrdiff_t>(meta_begin_[j]),
                            meta_offsets_.begin() + static_cast<std::ptrdiff_t>(end));
  }
  meta_offsets_ = {};
  meta_begin_ = {};
  irregular_ = true;
}

Positions scan_positions(std::string_view text, std::size_t max_depth) {
  Positions p;
  std::vector<Frame> fr;
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = text[i];
    switch (c) {
      case ' ': case '\t': case '\r': case '\n': case ':':
        ++i;
        break;
      case '{':
      case '[':
        on_container(p, fr, c, i);
        if (fr.size() >= max_depth) {
          p.depth_exceeded_at = i;
          return p;
        }
        fr.push_back(Frame{c == '[', c == '{', {}, 0});
        ++i;
        break;
      case '}':
      case ']':
        if (!fr.empty()) fr.pop_back();
        ++i;
        break;
      case ',':
        if (!fr.empty()) {
          if (fr.back().array) ++fr.back().index;
          else fr.back().want_key = true;
        }
        ++i;
        break;
      case '"': {
        std::size_t j = i + 1;
        while (j < n && text[j] != '"') j += (text[j] == '\\') ? 2 : 1;
        if (j > n) j = n;
        if (!fr.empty() && !fr.back().array && fr.back().want_key) {
          fr.back().key = text.substr(i + 1, j - i - 1);
          fr.back().want_key = false;
        } else if (fr.size() == 2 && key_is(fr[0], "query") &&
                   (key_is(fr[1], "queryText") || key_is(fr[1], "query_text"))) {
          p.query_text = i;
          p.query_text_end = std::min(j, n);
        }
        i = j + 1;
        break;
      }
      default:  // number, true, false, null, or garbage: skip to the next delimiter
        while (i < n && text[i] != ',' && text[i] != '}' && text[i] != ']' && text[i] != '"' && text[i] != '{' &&
               text[i] != '[' && text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t')
          ++i;
        break;
    }
  }
  return p;
}

LineTable::LineTable(std::string_view text) : size_(text.size()) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

SourceRange LineTable::span(std::size_t begin, std::size_t end) const {
  auto pos = [&](std::size_t off) {
    off = std::min(off, size_);
    auto it = std::upper_bound(starts_.begin(), starts_.end(), off);
    std::size_t line = static_cast<std::size_t>(it - starts_.begin());  // 1-based
    std::size_t col = off - starts_[line - 1] + 1;
    return std::pair{static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(col)};
  };
  SourceRange r;
  if (begin == kNoOffset) return r;
  if (end == kNoOffset || end < begin) end = begin + 1;
  auto [l, c] = pos(begin);
  auto [el, ec] = pos(end);
  r.line = l;
  r.column = c;
  r.end_line = el;
  r.end_column = ec;
  return r;
}

SourceRange LineTable::at(std::size_t offset) const {
  return span(offset, offset == kNoOffset ? kNoOffset : offset + 1);
}

}  // namespace planlint::profile
