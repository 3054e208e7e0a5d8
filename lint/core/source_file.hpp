// The lines of an input that was not kept (under `planlint check --format text`, a large Query
// Profile read in pieces, or a large explain file read whole whose outline was given back): the
// text output fetches the few lines its findings show from the file itself when it prints them,
// as long as the file is still the one that was read. Memory: the places of the lines asked for
// and one piece of the file at a time, never the file.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace planlint {

// What says a file is still the one that was read: its device, inode, size and modification time.
struct FileIdentity {
  std::uint64_t dev = 0, ino = 0, size = 0;
  std::int64_t mtime_sec = 0, mtime_nsec = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identity_of(const struct stat& st);
// The identity of an open file; nullopt when fstat fails.
std::optional<FileIdentity> identity_of(int fd);

class SourceFile {
 public:
  // `path` was read as the file `identity` says.
  SourceFile(std::string path, FileIdentity identity, std::size_t piece = std::size_t{1} << 16);
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  // Where a line is in the file.
  struct Line {
    std::uint64_t offset = 0;  // its first byte
    std::size_t size = 0;      // its bytes, without its line break (nor a '\r' before one)
  };
  // Line n (1-based), split as the text output splits a text held whole (after each '\n'; a '\r'
  // before the '\n' left out). nullopt when the file has no line n, or when it cannot be read or
  // is no longer the file read (failed(): then every later call gives nullopt too).
  std::optional<Line> line(std::uint32_t n);
  // Whether `needle` occurs in `line`; nullopt on a failure.
  std::optional<bool> contains(const Line& line, std::string_view needle);
  // The bytes [from, to) of `line` (`to` cut at its size); nullopt on a failure (a line break
  // among them: the file changed).
  std::optional<std::string> bytes(const Line& line, std::size_t from, std::size_t to);
  // The file could not be opened or read, or is no longer the one read: nothing more is shown.
  [[nodiscard]] bool failed() const { return failed_; }
  // Closes the file until the next call (opened again then, and checked again): a run of many
  // files holds no descriptor for those already written.
  void close();

 private:
  // Opened, and still the file read (fstat'ed again at every call); else failed_ for good.
  bool usable();
  // Exactly `n` bytes at `offset` into `buf`; false (and failed_) otherwise.
  bool read_at(std::uint64_t offset, char* buf, std::size_t n);
  // The offset of the first '\n' at or after `from` into `at` (the file's size when none).
  bool find_break(std::uint64_t from, std::uint64_t& at);
  char* piece();  // the buffer of piece_ bytes (made on first use)
  void fail();

  std::string path_;
  FileIdentity identity_;
  std::size_t piece_;
  int fd_ = -1;
  std::string buf_;
  bool failed_ = false;
  // The line scan goes on from here: line cursor_line_ starts at byte cursor_offset_.
  std::uint32_t cursor_line_ = 1;
  std::uint64_t cursor_offset_ = 0;
  std::map<std::uint32_t, Line> lines_;                          // the lines asked for
  std::map<std::pair<std::uint64_t, std::string>, bool> found_;  // contains(), by line and needle
};

}  // namespace planlint
