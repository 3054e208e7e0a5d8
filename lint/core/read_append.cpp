#include "lint/core/read_append.hpp"

#include <unistd.h>

#include <cerrno>

namespace planlint {

namespace {
// Reads into p[0, n) until it is full or the file ends: the bytes read; `failed` on an error.
std::size_t read_full(int fd, char* p, std::size_t n, bool& failed) {
  std::size_t have = 0;
  while (have < n) {
    const ssize_t got = ::read(fd, p + have, n - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      failed = true;
      break;
    }
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  return have;
}
}  // namespace

long long read_append(int fd, std::string& data, std::size_t n) {
  const std::size_t old = data.size();
  bool failed = false;
  std::size_t have = 0;
#if defined(__cpp_lib_string_resize_and_overwrite)
  data.resize_and_overwrite(old + n, [&](char* p, std::size_t) {
    have = read_full(fd, p + old, n, failed);
    return old + have;
  });
#else
  data.resize(old + n);
  have = read_full(fd, data.data() + old, n, failed);
  data.resize(old + have);
#endif
  return failed ? -1 : static_cast<long long>(have);
}

}  // namespace planlint
