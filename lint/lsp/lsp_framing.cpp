#include "lint/lsp/lsp_framing.hpp"

#include <charconv>
#include <algorithm>
#include <cstring>
#include <optional>

#include "support/strings.hpp"

namespace planlint::lsp {

namespace {


// Where the next frame starts inside `s`: "Content-Length:" followed by digits and a line end
// (raw CR or LF, which JSON never has inside a token or a string), at or after `from`.
std::size_t find_frame_start(std::string_view s, std::size_t from) {
  static constexpr std::string_view kName = "content-length:";
  for (std::size_t i = from; i + kName.size() < s.size(); ++i) {
    if (s[i] != 'C' && s[i] != 'c') continue;
    if (!iequals(s.substr(i, kName.size()), kName)) continue;
    std::size_t j = i + kName.size();
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
    std::size_t digits = j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j > digits && j < s.size() && (s[j] == '\r' || s[j] == '\n')) return i;
  }
  return std::string_view::npos;
}

}  // namespace

bool FrameReader::has_buffered_input() const {
  return pending_pos_ < pending_.size() || in_.rdbuf()->in_avail() > 0;
}

int FrameReader::get() {
  if (pending_pos_ < pending_.size()) return static_cast<unsigned char>(pending_[pending_pos_++]);
  return in_.rdbuf()->sbumpc();
}

std::size_t FrameReader::get(char* dst, std::size_t n) {
  std::size_t got = 0;
  if (pending_pos_ < pending_.size()) {
    got = std::min(n, pending_.size() - pending_pos_);
    std::memcpy(dst, pending_.data() + pending_pos_, got);
    pending_pos_ += got;
    if (pending_pos_ == pending_.size()) {
      pending_.clear();
      pending_pos_ = 0;
    }
  }
  while (got < n) {
    auto r = in_.rdbuf()->sgetn(dst + got, static_cast<std::streamsize>(n - got));
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  return got;
}

// One header line without its line ending; nullopt at end of stream before any byte.
// Over-long lines are cut at kMaxHeaderLine (the rest is consumed and `too_long` set), except that
// a frame header at the end of an over-long line (a long body sent without headers, then a
// frame) is kept: the line then starts with it and `too_long` stays false.
std::optional<std::string> FrameReader::read_line(bool& too_long) {
  std::string line, tail;
  too_long = false;
  bool any = false;
  for (;;) {
    int c = get();
    if (c == std::char_traits<char>::eof()) {
      in_.setstate(std::ios::eofbit);
      if (!any) return std::nullopt;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < FrameReader::kMaxHeaderLine) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;
      tail.push_back(static_cast<char>(c));
      if (tail.size() > 256) tail.erase(0, 128);
    }
  }
  if (too_long) {
    tail += '\n';
    if (std::size_t at = find_frame_start(tail, 0); at != std::string::npos) {
      line = "?" + tail.substr(at, tail.size() - 1 - at);  // "?": bytes came before the header
      too_long = false;
    }
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

Frame FrameReader::read() {
  Frame f;
  std::size_t length = 0;
  bool has_length = false;
  std::string error;
  bool any_header = false;
  for (;;) {
    bool too_long = false;
    auto line = read_line(too_long);
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
    // A body sent without headers runs into the next frame's header on the same line: start
    // reading headers again from there.
    if (std::size_t at = find_frame_start(std::string(l) + "\n", 1); at != std::string_view::npos &&
        !iequals(rtrim_blank_cr(ltrim_blank(l.substr(0, l.find(':')))), "Content-Length")) {
      pending_ = std::string(l.substr(at)) + "\r\n" + pending_.substr(pending_pos_);
      pending_pos_ = 0;
      in_.clear(in_.rdstate() & ~std::ios::eofbit);
      f.status = FrameStatus::BadHeader;
      f.error = "bytes without a Content-Length header before the next frame: '" + std::string(l.substr(0, std::min<std::size_t>(at, 40))) + "'";
      return f;
    }
    auto colon = l.find(':');
    if (colon == std::string_view::npos) {
      if (error.empty()) error = "malformed header line (no ':'): '" + std::string(l.substr(0, 80)) + "'";
      continue;
    }
    std::string_view name = rtrim_blank_cr(ltrim_blank(l.substr(0, colon)));
    std::string_view value = rtrim_blank_cr(ltrim_blank(l.substr(colon + 1)));
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
      auto got = get(sink, std::min(left, sizeof sink));
      if (got == 0) break;
      left -= got;
    }
    f.status = left == 0 ? FrameStatus::TooLarge : FrameStatus::Truncated;
    f.error = "message of " + std::to_string(length) + " bytes exceeds the limit of " + std::to_string(max_body_) +
              " bytes";
    return f;
  }
  f.body.resize(length);
  std::size_t got = get(f.body.data(), length);
  f.body.resize(got);
  // A body shorter than its Content-Length swallows the start of the next frame: give those
  // bytes back and report the short body, so that the next request is answered.
  if (std::size_t next = find_frame_start(f.body, 0); next != std::string::npos) {
    pending_ = f.body.substr(next) + pending_.substr(pending_pos_);
    pending_pos_ = 0;
    f.status = FrameStatus::BadBody;
    f.error = "message body of " + std::to_string(next) + " bytes is shorter than its Content-Length " +
              std::to_string(length) + " (the next frame starts inside it)";
    f.body.clear();
    in_.clear(in_.rdstate() & ~std::ios::eofbit);
    return f;
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
