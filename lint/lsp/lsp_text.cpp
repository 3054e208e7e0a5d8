#include "lint/lsp/lsp_text.hpp"

#include <algorithm>

namespace planlint::lsp {

namespace {

// Bytes of the UTF-8 sequence that starts with `lead` (1 for invalid lead bytes).
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::uint32_t utf16_length(std::string_view s) {
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = sequence_length(static_cast<unsigned char>(s[i]));
    if (i + n > s.size()) n = 1;
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  bool ascii = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
      ascii_.push_back(ascii);
      ascii = true;
    } else if (static_cast<unsigned char>(text[i]) >= 0x80) {
      ascii = false;
    }
  }
  ascii_.push_back(ascii);
}

void LineIndex::rescan(std::size_t first, std::size_t last) {
  for (std::size_t line = first; line <= last && line < starts_.size(); ++line) {
    std::size_t b = starts_[line];
    std::size_t e = line + 1 < starts_.size() ? starts_[line + 1] : text_.size();
    bool ascii = true;
    for (std::size_t i = b; i < e && ascii; ++i) ascii = static_cast<unsigned char>(text_[i]) < 0x80;
    ascii_[line] = ascii;
  }
}

namespace {

bool all_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

void LineIndex::replace(std::string& text, std::size_t begin, std::size_t end, std::string_view insert) {
  end = std::min(end, text.size());
  begin = std::min(begin, end);
  std::size_t removed = end - begin;
  bool removed_ascii = all_ascii(std::string_view(text).substr(begin, removed));
  bool inserted_ascii = all_ascii(insert);
  text.replace(begin, removed, insert);
  text_ = text;
  // The line the edit starts on keeps its start; lines that started inside the removed bytes
  // (after `begin`, up to and including `end`: their '\n' was removed) go away.
  auto first_gone = std::upper_bound(starts_.begin(), starts_.end(), begin);
  auto first_kept = std::upper_bound(first_gone, starts_.end(), end);
  auto line = static_cast<std::size_t>(first_gone - starts_.begin()) - 1;  // the edit's first line
  auto gone = static_cast<std::size_t>(first_kept - first_gone);
  // Were the lines the edit touches all ASCII before it?
  bool touched_ascii = true;
  for (std::size_t l = line; l <= line + gone; ++l) touched_ascii = touched_ascii && ascii_[l];
  // Line starts in the inserted bytes.
  std::vector<std::size_t> added;
  for (std::size_t i = 0; i < insert.size(); ++i)
    if (insert[i] == '\n') added.push_back(begin + i + 1);
  // Lines after the edit move by the size difference.
  for (auto it = first_kept; it != starts_.end(); ++it) *it = *it - removed + insert.size();
  std::size_t at = line + 1;
  auto pos = [](std::size_t i) { return static_cast<std::ptrdiff_t>(i); };
  if (added.size() == gone) {
    std::copy(added.begin(), added.end(), starts_.begin() + pos(at));
  } else {
    starts_.erase(starts_.begin() + pos(at), starts_.begin() + pos(at + gone));
    starts_.insert(starts_.begin() + pos(at), added.begin(), added.end());
    ascii_.erase(ascii_.begin() + pos(at), ascii_.begin() + pos(at + gone));
    ascii_.insert(ascii_.begin() + pos(at), added.size(), true);
  }
  std::size_t last = line + added.size();
  if (touched_ascii) {
    // All ASCII before: ASCII after unless the inserted bytes are not.
    for (std::size_t l = line; l <= last; ++l) ascii_[l] = true;
    if (!inserted_ascii) rescan(line, last);
  } else if (removed_ascii && added.empty()) {
    // One line now, and the non-ASCII bytes it had are still in it.
    ascii_[line] = false;
  } else {
    rescan(line, last);
  }
}

std::string_view LineIndex::line_text(std::uint32_t line) const {
  if (line >= starts_.size()) return {};
  std::size_t b = starts_[line];
  std::size_t e = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
  if (e > b && text_[e - 1] == '\r') --e;
  return text_.substr(b, e - b);
}

Position LineIndex::to_position(std::uint32_t line1, std::uint32_t column1) const {
  if (line1 == 0) return {};
  std::uint32_t line = line1 - 1;
  if (line >= starts_.size()) {
    // Past the end: the end of the last line.
    auto last = static_cast<std::uint32_t>(starts_.size() - 1);
    return to_position(last + 1, UINT32_MAX);
  }
  std::string_view l = line_text(line);
  std::size_t bytes = column1 == 0 ? 0 : std::min<std::size_t>(column1 - 1, l.size());
  if (ascii_[line]) return {line, static_cast<std::uint32_t>(bytes)};
  return {line, utf16_length(l.substr(0, bytes))};
}

Range LineIndex::to_range(const SourceRange& r) const {
  if (!r.known()) return {};
  Range out;
  out.start = to_position(r.line, r.column);
  out.end = r.end_line == 0 ? out.start : to_position(r.end_line, r.end_column);
  if (out.end < out.start) out.end = out.start;
  return out;
}

std::size_t LineIndex::to_offset(const Position& p) const {
  if (p.line >= starts_.size()) return text_.size();
  std::string_view l = line_text(p.line);
  if (ascii_[p.line]) return starts_[p.line] + std::min<std::size_t>(p.character, l.size());
  std::uint32_t units = 0;
  std::size_t i = 0;
  while (i < l.size() && units < p.character) {
    std::size_t n = sequence_length(static_cast<unsigned char>(l[i]));
    if (i + n > l.size()) n = 1;
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return starts_[p.line] + i;
}

SourceRange LineIndex::to_source(const Position& p) const {
  std::size_t off = to_offset(p);
  auto it = std::upper_bound(starts_.begin(), starts_.end(), off);
  auto line = static_cast<std::uint32_t>(it - starts_.begin());  // 1-based
  auto col = static_cast<std::uint32_t>(off - starts_[line - 1] + 1);
  return {line, col, line, col};
}

std::string uri_to_path(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.substr(0, scheme.size()) != scheme) return std::string(uri);
  std::string_view rest = uri.substr(scheme.size());
  // file://host/path: drop a "localhost" authority; keep the path.
  if (!rest.empty() && rest.front() != '/') {
    auto slash = rest.find('/');
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
  }
  std::string out;
  out.reserve(rest.size());
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hex_value(rest[i + 1]) >= 0 && hex_value(rest[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(rest[i + 1]) * 16 + hex_value(rest[i + 2])));
      i += 2;
    } else {
      out.push_back(rest[i]);
    }
  }
  return out;
}

std::string path_to_uri(std::string_view path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "file://";
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                 c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace planlint::lsp
