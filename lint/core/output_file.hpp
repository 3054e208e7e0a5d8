// Writing outputs (`check -o`, `--write-baseline`, `report -o`, `diff -o`): never over an input,
// never half a file, never over a device.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

// The input that `output` is (the same file once links are resolved: same device and inode), or
// nullopt. "-" among the inputs is standard input, which may be a file redirected with `<`. A
// directory input (a rolling event log) counts through the files directly in it.
std::optional<std::string> output_is_input(const std::string& output, const std::vector<std::string>& inputs);

// Writes `content` to `path`, the one way every output file is written (`check -o`,
// `--write-baseline`, `report -o`, `diff -o`, `history -o`). Links are followed.
//  - A regular file or a new name: through a temporary file `.NAME.planlint-XXXXXX` in the same
//    folder, fsync'ed, then renamed over `path`, so that an interrupted run never leaves half a
//    file. SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ remove the temporary file before they end
//    the process (signals that were ignored stay ignored: the write fails with an error instead).
//  - A character device (/dev/null) or a FIFO: opened for writing (no O_CREAT) and written in
//    place, never replaced. Opening a FIFO waits for a reader, as writing to a FIFO does.
//  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or a link to one of them): written to
//    that open descriptor of this process.
//  - A directory, a block device or a socket: refused.
// False with `error` set on failure (the temporary file is removed).
bool write_file_atomically(const std::string& path, std::string_view content, std::string& error);

// The same, written as it is made (a report need not be held whole in memory first): open(), any
// number of write()s, then commit(). A regular file is replaced only by a commit() that succeeds;
// an OutputFile destroyed without one removes its temporary file. A character device or FIFO is
// opened by open() and written by each write().
class OutputFile {
 public:
  OutputFile();
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // False with `error` set when `path` cannot be written (then nothing was created).
  bool open(const std::string& path, std::string& error);
  // Appends `bytes`; the first failure is kept and reported by commit().
  void write(std::string_view bytes);
  // Finishes the file (fsync and rename for a regular file). False with `error` set on failure.
  bool commit(std::string& error);

 private:
  struct Temp;
  std::string shown_;      // the path as given, for errors
  std::string target_;     // where the links lead
  std::string temp_;       // the temporary file ("" when writing in place)
  std::unique_ptr<Temp> guard_;  // the signal handlers while the temporary file exists
  int fd_ = -1;
  bool own_fd_ = false;    // fd_ is one of this process's open descriptors (not closed)
  int err_ = 0;            // the first write error
};

}  // namespace planlint
