// Writing outputs (`check -o`, `--write-baseline`, `report -o`, `diff -o`): never over an input,
// never half a file, never over a device.
#pragma once

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

}  // namespace planlint
