#include "parser/profile/profile_positions.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <utility>

#include "parser/profile/profile_json_scan.hpp"

namespace planlint::profile {

namespace {

// One open container. For an object, `key` is the key of the member being read (as written, up
// to kKeyBytes bytes: the keys looked for are shorter; a longer one equals none of them); for an
// array, `index` is the position of the element being read.
constexpr std::size_t kKeyBytes = 15;
struct Frame {
  bool array = false;
  bool want_key = true;
  std::uint8_t key_len = 0;  // kKeyBytes + 1: longer
  char key[kKeyBytes] = {};
  std::size_t index = 0;
  void set_key(std::string_view k) {
    key_len = static_cast<std::uint8_t>(std::min(k.size(), kKeyBytes + 1));
    if (k.size() <= kKeyBytes) std::memcpy(key, k.data(), k.size());
  }
};

bool key_is(const Frame& f, std::string_view k) {
  return !f.array && f.key_len == k.size() && std::string_view(f.key, f.key_len) == k;
}

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

namespace {

// The scan over [p, end) and whatever `src` reads behind it (WholeText: nothing).
// A whole text, whose offsets count from its first byte.
struct TextSource : WholeText {
  const char* base;
  [[nodiscard]] std::size_t offset_of(const char* at) const { return static_cast<std::size_t>(at - base); }
};

template <class Source>
Positions scan(Source& src, const char* p, const char* end, std::size_t max_depth) {
  Positions pos;
  std::vector<Frame> fr;
  for (;;) {
    if (p == end && !src.more(p, end)) break;
    const char c = *p;
    switch (c) {
      case ' ': case '\t': case '\r': case '\n': case ':':
        ++p;
        break;
      case '{':
      case '[':
        on_container(pos, fr, c, src.offset_of(p));
        if (fr.size() >= max_depth) {
          pos.depth_exceeded_at = src.offset_of(p);
          return pos;
        }
        fr.push_back(Frame{c == '[', c == '{', 0, {}, 0});
        ++p;
        break;
      case '}':
      case ']':
        if (!fr.empty()) fr.pop_back();
        ++p;
        break;
      case ',':
        if (!fr.empty()) {
          if (fr.back().array) ++fr.back().index;
          else fr.back().want_key = true;
        }
        ++p;
        break;
      case '"': {
        // To the closing quote (a backslash skips the byte after it), or the end of the text.
        std::size_t j = 1;
        for (;;) {
          const auto have = static_cast<std::size_t>(end - p);
          while (j < have && p[j] != '"') j += p[j] == '\\' ? 2 : 1;
          if (j < have || !src.more(p, end)) break;
        }
        const auto have = static_cast<std::size_t>(end - p);
        if (j > have) j = have;
        if (!fr.empty() && !fr.back().array && fr.back().want_key) {
          fr.back().set_key(std::string_view(p + 1, j - 1));
          fr.back().want_key = false;
        } else if (fr.size() == 2 && key_is(fr[0], "query") &&
                   (key_is(fr[1], "queryText") || key_is(fr[1], "query_text"))) {
          pos.query_text = src.offset_of(p);
          pos.query_text_end = src.offset_of(p + j);
        }
        p = j < have ? p + j + 1 : end;
        break;
      }
      default:  // number, true, false, null, or garbage: skip to the next delimiter
        for (;;) {
          while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != '"' && *p != '{' && *p != '[' && *p != ' ' &&
                 *p != '\n' && *p != '\r' && *p != '\t')
            ++p;
          if (p < end || !src.more(p, end)) break;
        }
        break;
    }
  }
  return pos;
}

}  // namespace

Positions scan_positions(std::string_view text, std::size_t max_depth) {
  TextSource whole{{}, text.data()};
  return scan(whole, text.data(), text.data() + text.size(), max_depth);
}

Positions scan_positions(FileWindow& window, const char* p, const char* end, std::size_t max_depth) {
  return scan(window, p, end, max_depth);
}

LineTable::LineTable(std::string_view text) { feed(text); }

void LineTable::feed(std::string_view more) {
  for (std::size_t i = 0; i < more.size(); ++i)
    if (more[i] == '\n') starts_.push_back(size_ + i + 1);
  size_ += more.size();
}

FileWindow::FileWindow(int fd, double max_bytes, std::size_t piece)
    : fd_(fd), max_bytes_(max_bytes), piece_(std::max<std::size_t>(piece, 16)) {}

bool FileWindow::start(LineTable* lines, const char*& p, const char*& end) {
  lines_ = lines;
  base_ = filled_ = 0;
  failed_ = false;
  if (!buf_) buf_ = std::make_unique_for_overwrite<char[]>(capacity_ = piece_);
  const bool got = read_more();
  p = buf_.get();
  end = p + filled_;
  return got;
}

bool FileWindow::more(const char*& p, const char*& end) {
  // Keep [p, end): move it to the front.
  const auto keep = static_cast<std::size_t>(end - p);
  const auto from = static_cast<std::size_t>(p - buf_.get());
  if (from > 0 && keep > 0) std::memmove(buf_.get(), p, keep);
  base_ += from;
  filled_ = keep;
  const bool got = read_more();
  p = buf_.get();
  end = p + filled_;
  return got;
}

bool FileWindow::read_more() {
  if (failed_) return false;
  if (capacity_ - filled_ < piece_ / 2) {  // room for half a piece at least
    const std::size_t bigger = std::max(capacity_ * 2, filled_ + piece_);
    auto grown = std::make_unique_for_overwrite<char[]>(bigger);
    if (filled_) std::memcpy(grown.get(), buf_.get(), filled_);
    buf_ = std::move(grown);
    capacity_ = bigger;
  }
  for (;;) {
    const ssize_t n = ::pread(fd_, buf_.get() + filled_, capacity_ - filled_, static_cast<off_t>(base_ + filled_));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      failed_ = true;
      return false;
    }
    if (n == 0) return false;
    if (static_cast<double>(base_ + filled_) + static_cast<double>(n) > max_bytes_) {
      failed_ = true;
      return false;
    }
    if (lines_) lines_->feed({buf_.get() + filled_, static_cast<std::size_t>(n)});
    filled_ += static_cast<std::size_t>(n);
    return true;
  }
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
