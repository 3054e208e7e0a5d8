// Reading inputs: files or standard input ("-"), never modified, each read once, within limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace planlint {

// The default largest input read whole (explain text, Query Profile JSON): 2 GiB.
inline constexpr double kDefaultMaxInputBytes = 2.0 * 1024 * 1024 * 1024;

// What a path names, so that each input is opened once.
enum class InputKind {
  Stdin,        // "-"
  File,         // a regular file: can be opened again, its size is known
  Directory,    // a folder (a rolling event-log directory)
  Stream,       // a pipe, FIFO, socket, /dev/stdin, <(...): read once, from the start
  Unreadable,   // missing, a character device (/dev/zero, a terminal), ...: `error` says why
};
InputKind input_kind(const std::string& path, std::string& error);
// The same; `size` receives a regular file's size from the same `stat`.
InputKind input_kind(const std::string& path, std::string& error, std::uint64_t& size);

// A regular file (InputKind::File, `size` from its stat) read with one open: its first bytes (up to
// `head_bytes`) go to `claimed`, which says whether a reader that opens such files itself takes it
// (then the file is closed and nullopt returned with `error` empty); else the whole file, within
// `max_bytes`. nullopt with `error` set ("<path>: <why>") when it cannot be read or is too large.
std::optional<std::string> read_file_once(const std::string& path, std::uint64_t size, double max_bytes,
                                          std::size_t head_bytes,
                                          const std::function<bool(std::string_view head)>& claimed,
                                          std::string& error);
// The same for a regular file already open as `fd` (closed before returning; `path` names it in
// errors and `size` is its fstat's). A file below kReadWholeBelow is read whole before its head is
// asked (one read, no copy of the head); a larger one head first.
inline constexpr std::uint64_t kReadWholeBelow = std::uint64_t{1} << 20;
std::optional<std::string> read_fd_once(int fd, const std::string& path, std::uint64_t size, double max_bytes,
                                        std::size_t head_bytes,
                                        const std::function<bool(std::string_view head)>& claimed,
                                        std::string& error);
// Opens `path` for reading and `fstat`s the descriptor: the descriptor when it is a regular file
// (`size` its size), else -1 (nothing left open; the caller takes the usual way, which says why).
// Opened non-blocking: a FIFO put where a regular file was listed does not wait for a writer here.
int open_if_regular(const std::string& path, std::uint64_t& size);

// Appends what is left of `in` to `data`, up to `max_bytes` in all; false with `error` set when
// there is more (the input is too large) or on a read error. `name` names the input in the error.
bool read_rest(std::istream& in, std::string& data, double max_bytes, const std::string& name, std::string& error);

// The message for an input over the limit.
std::string too_large_message(const std::string& name, double max_bytes);

// The largest config file (.planlint.toml, pyproject.toml) or baseline read: 16 MiB.
inline constexpr std::size_t kMaxSmallFileBytes = 16u << 20;

// A small file read whole by name (a config file, a baseline): regular files only (FIFOs, devices,
// directories and sockets are refused without blocking), at most `max_bytes`. nullopt with `error`
// set to the reason (without the name) otherwise.
std::optional<std::string> read_regular_file(const std::string& path, std::string& error,
                                             std::size_t max_bytes = kMaxSmallFileBytes);

// The whole file (or stdin for "-"); nullopt with `error` set when it cannot be read, is a
// character device, or is larger than `max_bytes`.
std::optional<std::string> read_input(const std::string& path, std::string& error,
                                      double max_bytes = kDefaultMaxInputBytes);

}  // namespace planlint
