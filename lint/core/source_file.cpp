#include "lint/core/source_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace planlint {

FileIdentity identity_of(const struct stat& st) {
  FileIdentity id;
  id.dev = static_cast<std::uint64_t>(st.st_dev);
  id.ino = static_cast<std::uint64_t>(st.st_ino);
  id.size = static_cast<std::uint64_t>(st.st_size);
  id.mtime_sec = static_cast<std::int64_t>(st.st_mtim.tv_sec);
  id.mtime_nsec = static_cast<std::int64_t>(st.st_mtim.tv_nsec);
  return id;
}

std::optional<FileIdentity> identity_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return identity_of(st);
}

SourceFile::SourceFile(std::string path, FileIdentity identity, std::size_t piece)
    : path_(std::move(path)), identity_(identity), piece_(std::max<std::size_t>(piece, 16)) {}

SourceFile::~SourceFile() { close(); }

void SourceFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void SourceFile::fail() {
  failed_ = true;
  close();
  lines_.clear();
  found_.clear();
  buf_ = std::string();
}

bool SourceFile::usable() {
  if (failed_) return false;
  if (fd_ < 0) {
    // Non-blocking: a FIFO put in the file's place must not stop the output (its identity differs).
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd_ < 0) {
      fail();
      return false;
    }
  }
  const std::optional<FileIdentity> now = identity_of(fd_);
  if (!now || !(*now == identity_)) {
    fail();
    return false;
  }
  return true;
}

bool SourceFile::read_at(std::uint64_t offset, char* buf, std::size_t n) {
  if (offset + n > identity_.size) {
    fail();
    return false;
  }
  while (n > 0) {
    const ssize_t got = ::pread(fd_, buf, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {  // an error, or the file is shorter than it was
      fail();
      return false;
    }
    buf += got;
    n -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
  return true;
}

char* SourceFile::piece() {
  if (buf_.size() < piece_) buf_.resize(piece_);
  return buf_.data();
}

bool SourceFile::find_break(std::uint64_t from, std::uint64_t& at) {
  char* buf = piece();
  while (from < identity_.size) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(piece_, identity_.size - from));
    if (!read_at(from, buf, n)) return false;
    if (const void* nl = std::memchr(buf, '\n', n)) {
      at = from + static_cast<std::uint64_t>(static_cast<const char*>(nl) - buf);
      return true;
    }
    from += n;
  }
  at = identity_.size;
  return true;
}

std::optional<SourceFile::Line> SourceFile::line(std::uint32_t n) {
  if (n == 0 || !usable()) return std::nullopt;
  if (const auto it = lines_.find(n); it != lines_.end()) return it->second;
  if (n < cursor_line_) {
    cursor_line_ = 1;
    cursor_offset_ = 0;
  }
  // Line k starts after the (k-1)-th '\n' (at the file's end when the file ends with one).
  while (cursor_line_ < n) {
    std::uint64_t at = 0;
    if (!find_break(cursor_offset_, at)) return std::nullopt;
    if (at == identity_.size) return std::nullopt;  // fewer lines than n
    ++cursor_line_;
    cursor_offset_ = at + 1;
  }
  const std::uint64_t start = cursor_offset_;
  std::uint64_t end = 0;
  if (!find_break(start, end)) return std::nullopt;
  Line line{start, static_cast<std::size_t>(end - start)};
  if (line.size > 0) {
    char last = 0;
    if (!read_at(end - 1, &last, 1)) return std::nullopt;
    if (last == '\r') --line.size;
  }
  if (end < identity_.size) {
    cursor_line_ = n + 1;
    cursor_offset_ = end + 1;
  }
  lines_.emplace(n, line);
  return line;
}

std::optional<bool> SourceFile::contains(const Line& line, std::string_view needle) {
  if (!usable()) return std::nullopt;
  if (needle.empty()) return true;
  if (needle.size() > line.size) return false;
  std::pair<std::uint64_t, std::string> key{line.offset, std::string(needle)};
  if (const auto it = found_.find(key); it != found_.end()) return it->second;
  // Pieces of the line overlapping by needle.size() - 1 bytes: an occurrence across two pieces is
  // whole in the second.
  std::string chunk(std::max(piece_, 2 * needle.size()), '\0');
  bool hit = false;
  for (std::uint64_t from = 0;;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), line.size - from));
    if (!read_at(line.offset + from, chunk.data(), n)) return std::nullopt;
    const std::string_view got(chunk.data(), n);
    if (got.find('\n') != std::string_view::npos) {  // no line break within a line: the file changed
      fail();
      return std::nullopt;
    }
    if (got.find(needle) != std::string_view::npos) {
      hit = true;
      break;
    }
    if (from + n >= line.size) break;
    from += n - (needle.size() - 1);
  }
  if (!usable()) return std::nullopt;
  found_.emplace(std::move(key), hit);
  return hit;
}

std::optional<std::string> SourceFile::bytes(const Line& line, std::size_t from, std::size_t to) {
  if (!usable()) return std::nullopt;
  to = std::min(to, line.size);
  if (from >= to) return std::string();
  std::string out(to - from, '\0');
  if (!read_at(line.offset + from, out.data(), out.size())) return std::nullopt;
  if (out.find('\n') != std::string::npos) {
    fail();
    return std::nullopt;
  }
  if (!usable()) return std::nullopt;  // changed while it was read
  return out;
}

}  // namespace planlint
