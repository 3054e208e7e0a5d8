#include "lint/engine/input.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>

namespace planlint {

std::optional<std::string> read_input(const std::string& path, std::string& error) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    error = path + ": is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  // One read into a buffer of the file's size, then whatever follows (a file that grew, or a
  // pipe / procfs file whose size reads 0). istreambuf_iterator would build a temporary string
  // and copy it: twice the input in memory.
  std::string data;
  if (st.st_size > 0) {
    data.resize(static_cast<std::size_t>(st.st_size));
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    data.resize(static_cast<std::size_t>(in.gcount()));
  }
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    if (in.gcount() <= 0) break;
    data.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    error = path + ": read error";
    return std::nullopt;
  }
  return data;
}

}  // namespace planlint
