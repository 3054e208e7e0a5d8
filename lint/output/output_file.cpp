#include "lint/output/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace planlint {

namespace fs = std::filesystem;

namespace {

bool same(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

}  // namespace

std::optional<std::string> output_is_input(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || output == "-" || ::stat(output.c_str(), &out) != 0) return std::nullopt;  // a new file
  for (const auto& in : inputs) {
    struct stat st {};
    if (in == "-") {
      if (::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) && same(st, out)) return std::string("standard input");
      continue;
    }
    if (::stat(in.c_str(), &st) != 0) continue;
    if (same(st, out)) return in;
    if (S_ISDIR(st.st_mode)) {
      std::error_code ec;
      for (fs::directory_iterator it(in, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat f {};
        if (::stat(it->path().c_str(), &f) == 0 && same(f, out)) return it->path().string();
      }
    }
  }
  return std::nullopt;
}

bool write_file_atomically(const std::string& path, std::string_view content, std::string& error) {
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(target, ec)) {
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".planlint-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    error = path + ": cannot write (" + std::strerror(errno) + ")";
    return false;
  }
  const std::string tmp(name.data());
  // mkstemp creates mode 0600; give the file the mode a new file would get (0666 minus umask),
  // or the mode of the file it replaces.
  mode_t mask = ::umask(0);
  ::umask(mask);
  mode_t mode = 0666 & ~mask;
  struct stat old {};
  if (::stat(target.c_str(), &old) == 0) mode = old.st_mode & 07777;
  ::fchmod(fd, mode);
  std::size_t done = 0;
  bool ok = true;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    error = path + ": cannot write (" + std::strerror(saved) + ")";
  }
  return ok;
}

}  // namespace planlint
