// Opening files that are read whole or streamed by name: regular files only. A FIFO would block
// the open (or the read) forever, /dev/zero and /dev/urandom never end, a directory or a socket
// cannot be read as a file. Used by the readers for the members of a rolling event-log folder and
// by lint/ for inputs, config files and baselines.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>

namespace planlint {

// "a FIFO", "a character device", "a block device", "a socket", "a directory", or "a regular file".
std::string file_type_name(mode_t mode);

// Opens `path` (links followed) for reading when it is a regular file, without blocking: a FIFO is
// opened non-blocking, looked at and closed. The descriptor (close-on-exec), or -1 with `why` set
// to the reason without the name ("is a FIFO, not a regular file" or the system's error text).
// `size` receives the file's size.
int open_regular_file(const std::string& path, std::string& why, std::size_t* size = nullptr);

// Opens a FIFO or another stream `path` names for reading, waiting for a writer as reading a pipe
// does, and again when a signal interrupts the wait (std::ifstream's open gives up with EINTR: a
// profiler's or a fuzzer's timer signal then made a FIFO with a writer on its way unreadable, and
// the writer waited for a reader forever). The descriptor (close-on-exec), or -1 with `why` set to
// the system's error text.
int open_stream(const std::string& path, std::string& why);

// An input stream over a descriptor it owns (closed on destruction). A read error sets badbit.
class FdInputStream : public std::istream {
 public:
  explicit FdInputStream(int fd);
  ~FdInputStream() override;
  FdInputStream(const FdInputStream&) = delete;
  FdInputStream& operator=(const FdInputStream&) = delete;

 private:
  class Buf;
  std::unique_ptr<Buf> buf_;
};

}  // namespace planlint
