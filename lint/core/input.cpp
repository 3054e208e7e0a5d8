#include "lint/core/input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sys/stat.h>

#include "lint/core/read_append.hpp"
#include "parser/common/regular_file.hpp"
#include "model/format.hpp"

namespace planlint {

namespace {

std::string char_device_message(const std::string& name) {
  return name + ": is a character device (like /dev/zero or a terminal), not a plan file: refused";
}

}  // namespace

InputKind input_kind(const std::string& path, std::string& error) {
  std::uint64_t size = 0;
  return input_kind(path, error, size);
}

InputKind input_kind(const std::string& path, std::string& error, std::uint64_t& size) {
  struct stat st {};
  if (path == "-") {
    // Standard input from a terminal is a paste; from /dev/zero or /dev/urandom it never ends.
    if (::fstat(STDIN_FILENO, &st) == 0 && S_ISCHR(st.st_mode) && !::isatty(STDIN_FILENO)) {
      error = char_device_message("standard input");
      return InputKind::Unreadable;
    }
    return InputKind::Stdin;
  }
  if (::stat(path.c_str(), &st) != 0) {
    error = path + ": " + std::strerror(errno);
    return InputKind::Unreadable;
  }
  if (S_ISDIR(st.st_mode)) return InputKind::Directory;
  if (S_ISREG(st.st_mode)) {
    size = st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    return InputKind::File;
  }
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    error = S_ISCHR(st.st_mode) ? char_device_message(path) : path + ": is a block device, not a plan file: refused";
    return InputKind::Unreadable;
  }
  return InputKind::Stream;
}

std::string too_large_message(const std::string& name, double max_bytes) {
  return name + ": larger than the maximum input size of " + format_bytes(max_bytes) +
         " (raise it with --max-input-size or `max-input-size` in .planlint.toml)";
}

std::optional<std::string> read_regular_file(const std::string& path, std::string& error, std::size_t max_bytes) {
  std::string why;
  std::size_t size = 0;
  int fd = open_regular_file(path, why, &size);
  if (fd < 0) {
    error = why;
    return std::nullopt;
  }
  auto too_large = [&] {
    error = "larger than " + format_bytes(static_cast<double>(max_bytes)) +
            ", the limit for config and baseline files: refused";
  };
  std::string data;
  if (size > max_bytes) {
    ::close(fd);
    too_large();
    return std::nullopt;
  }
  // The size read by fstat, then whatever follows (a file that grew, a procfs file whose size
  // reads 0), never more than max_bytes + 1.
  data.resize(std::min(size, max_bytes) + 1);
  std::size_t have = 0;
  while (true) {
    if (have == data.size()) {
      if (data.size() > max_bytes) break;
      data.resize(std::min(data.size() * 2, max_bytes + 1));
    }
    ssize_t n = ::read(fd, data.data() + have, data.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::strerror(errno);
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (have > max_bytes) {
    too_large();
    return std::nullopt;
  }
  data.resize(have);
  return data;
}

bool read_rest(std::istream& in, std::string& data, double max_bytes, const std::string& name, std::string& error) {
  if (static_cast<double>(data.size()) > max_bytes) {  // what was read to detect the format counts too
    error = too_large_message(name, max_bytes);
    return false;
  }
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    auto n = in.gcount();
    if (n <= 0) break;
    if (static_cast<double>(data.size()) + static_cast<double>(n) > max_bytes) {
      error = too_large_message(name, max_bytes);
      return false;
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  if (in.bad()) {
    error = name + ": read error";
    return false;
  }
  return true;
}

std::optional<std::string> read_file_once(const std::string& path, std::uint64_t size, double max_bytes,
                                          std::size_t head_bytes,
                                          const std::function<bool(std::string_view head)>& claimed,
                                          std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return read_fd_once(fd, path, size, max_bytes, head_bytes, claimed, error);
}

int open_if_regular(const std::string& path, std::uint64_t& size) {
  // O_NONBLOCK changes nothing for a regular file's reads; a FIFO (no writer yet) is not waited for.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return -1;
  }
  size = st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  return fd;
}

std::optional<std::string> read_fd_once(int fd, const std::string& path, std::uint64_t size, double max_bytes,
                                        std::size_t head_bytes,
                                        const std::function<bool(std::string_view head)>& claimed,
                                        std::string& error) {
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const auto read_error = [&] { return path + ": read error"; };
  // What follows the bytes `data` holds, to the end (usually one read that finds it): a file that
  // grew since its stat, or a procfs file whose size reads 0, as read_input does. False with
  // `error` set.
  const auto read_to_end = [&](std::string& data) {
    char buf[1 << 16];
    while (true) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return error = read_error(), false;
      if (n == 0) return true;
      if (static_cast<double>(data.size()) + static_cast<double>(n) > max_bytes)
        return error = too_large_message(path, max_bytes), false;
      data.append(buf, static_cast<std::size_t>(n));
    }
  };
  // A file below kReadWholeBelow (every plan but the largest): read up to the size its stat gave
  // straight into the buffer the plans view, in one read, then its first bytes (up to
  // `head_bytes`) asked as the head. A file smaller than the head ends there (no read of 0 bytes
  // to find its end; a shorter file ends at its end); a larger one is read on to its end. A file
  // of kReadWholeBelow or more may be one a reader reads in pieces: no more of it is read before
  // its head is asked.
  if (size > 0 && size < kReadWholeBelow && static_cast<double>(size) <= max_bytes) {
    std::string data;
    if (read_append(fd, data, static_cast<std::size_t>(size)) < 0) return error = read_error(), std::nullopt;
    if (claimed(std::string_view(data).substr(0, head_bytes))) return std::nullopt;
    if (size >= head_bytes && data.size() == size && !read_to_end(data)) return std::nullopt;
    return data;
  }
  // The head into a buffer of its own (one read, one copy, nothing zero-filled first).
  std::string data;
  {
    std::unique_ptr<char[]> head(new char[head_bytes]);
    std::size_t have = 0;
    while (have < head_bytes) {
      ssize_t n = ::read(fd, head.get() + have, head_bytes - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return error = read_error(), std::nullopt;
      if (n == 0) break;
      have += static_cast<std::size_t>(n);
      // A file smaller than the head, read to the size its stat gave: the end (no read of 0
      // bytes to find it; a procfs file, size 0, is read until a read finds nothing).
      if (size > 0 && have == size) break;
    }
    if (claimed(std::string_view(head.get(), have))) return std::nullopt;
    if (have == head_bytes && size > have && static_cast<double>(size) <= max_bytes) data.reserve(static_cast<std::size_t>(size));
    data.assign(head.get(), have);
  }
  // The size from the stat, then whatever follows.
  if (size > 0 && static_cast<double>(size) > max_bytes) return error = too_large_message(path, max_bytes), std::nullopt;
  if (static_cast<double>(data.size()) > max_bytes) return error = too_large_message(path, max_bytes), std::nullopt;
  if (data.size() == head_bytes) {
    std::size_t have = data.size();
    if (size > have) {
      const long long got = read_append(fd, data, static_cast<std::size_t>(size) - have);
      if (got < 0) return error = read_error(), std::nullopt;
      have += static_cast<std::size_t>(got);
    }
    if (have >= size && !read_to_end(data)) return std::nullopt;
  }
  return data;
}

std::optional<std::string> read_input(const std::string& path, std::string& error, double max_bytes) {
  InputKind kind = input_kind(path, error);
  if (kind == InputKind::Unreadable) return std::nullopt;
  if (kind == InputKind::Directory) {
    error = path + ": is a directory";
    return std::nullopt;
  }
  std::string data;
  if (kind == InputKind::Stdin) {
    if (!read_rest(std::cin, data, max_bytes, "standard input", error)) return std::nullopt;
    return data;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (kind == InputKind::File) {
    // One read into a buffer of the file's size, then whatever follows (a file that grew, or a
    // procfs file whose size reads 0). istreambuf_iterator would build a temporary string and
    // copy it: twice the input in memory.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && st.st_size > 0) {
      if (static_cast<double>(st.st_size) > max_bytes) {
        error = too_large_message(path, max_bytes);
        return std::nullopt;
      }
      data.resize(static_cast<std::size_t>(st.st_size));
      in.read(data.data(), static_cast<std::streamsize>(data.size()));
      data.resize(static_cast<std::size_t>(in.gcount()));
    }
  }
  if (!read_rest(in, data, max_bytes, path, error)) return std::nullopt;
  return data;
}

}  // namespace planlint
