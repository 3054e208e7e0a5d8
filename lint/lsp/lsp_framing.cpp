#include "lint/lsp/lsp_framing.hpp"

#include <charconv>
#include <optional>

namespace planlint::lsp {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// One header line without its line ending; nullopt at end of stream before any byte.
// Over-long lines are cut at kMaxHeaderLine (the rest is consumed and `too_long` set).
std::optional<std::string> read_line(std::istream& in, bool& too_long) {
  std::string line;
  too_long = false;
  auto* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (!any) return std::nullopt;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < FrameReader::kMaxHeaderLine)
      line.push_back(static_cast<char>(c));
    else
      too_long = true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace

bool FrameReader::has_buffered_input() const { return in_.rdbuf()->in_avail() > 0; }

Frame FrameReader::read() {
  Frame f;
  std::size_t length = 0;
  bool has_length = false;
  std::string error;
  bool any_header = false;
  for (;;) {
    bool too_long = false;
    auto line = read_line(in_, too_long);
    if (!line) {
      if (!any_header) return f;  // Eof
      f.status = FrameStatus::Truncated;
      f.error = "stream ended inside the frame headers";
      return f;
    }
    if (line->empty()) {
      if (!any_header) continue;  // stray blank line between frames
      break;
    }
    any_header = true;
    if (too_long) {
      error = "header line longer than " + std::to_string(kMaxHeaderLine) + " bytes";
      continue;
    }
    std::string_view l = *line;
    auto colon = l.find(':');
    if (colon == std::string_view::npos) {
      if (error.empty()) error = "malformed header line (no ':'): '" + std::string(l.substr(0, 80)) + "'";
      continue;
    }
    std::string_view name = trim(l.substr(0, colon));
    std::string_view value = trim(l.substr(colon + 1));
    if (!iequals(name, "Content-Length")) continue;  // Content-Type and others are ignored
    std::size_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size() || value.empty()) {
      error = "invalid Content-Length '" + std::string(value.substr(0, 40)) + "'";
      has_length = false;
      continue;
    }
    length = n;
    has_length = true;
  }
  if (!has_length) {
    f.status = FrameStatus::BadHeader;
    f.error = error.empty() ? "frame without a Content-Length header" : error;
    return f;
  }
  if (length > max_body_) {
    // Skip the body so the next frame is read in sync.
    std::size_t left = length;
    char sink[65536];
    while (left > 0) {
      auto got = in_.rdbuf()->sgetn(sink, static_cast<std::streamsize>(std::min(left, sizeof sink)));
      if (got <= 0) break;
      left -= static_cast<std::size_t>(got);
    }
    f.status = left == 0 ? FrameStatus::TooLarge : FrameStatus::Truncated;
    f.error = "message of " + std::to_string(length) + " bytes exceeds the limit of " + std::to_string(max_body_) +
              " bytes";
    return f;
  }
  f.body.resize(length);
  std::size_t got = 0;
  while (got < length) {
    auto n = in_.rdbuf()->sgetn(f.body.data() + got, static_cast<std::streamsize>(length - got));
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < length) {
    f.body.clear();
    f.status = FrameStatus::Truncated;
    f.error = "stream ended after " + std::to_string(got) + " of " + std::to_string(length) + " body bytes";
    in_.setstate(std::ios::eofbit);
    return f;
  }
  f.status = FrameStatus::Message;
  return f;
}

void write_frame(std::ostream& out, std::string_view body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n";
  out.write(body.data(), static_cast<std::streamsize>(body.size()));
  out.flush();
}

}  // namespace planlint::lsp
