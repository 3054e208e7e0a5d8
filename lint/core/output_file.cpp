#include "lint/core/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "parser/common/regular_file.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {

bool same(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// --- the temporary file and fatal signals ---------------------------------------------------------
// While a temporary file exists, SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ (a write over
// `ulimit -f`) unlink it, then kill the process with the signal's default action. The handler only
// calls unlink, sigaction and raise (async-signal-safe) and reads a name written before it was
// installed. SIGKILL cannot be caught: a temporary file can stay behind after it (and after a
// power loss), never a half-written target.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
constexpr std::size_t kNumSignals = sizeof kSignals / sizeof kSignals[0];
char g_temp[PATH_MAX + 1];
volatile sig_atomic_t g_have_temp = 0;

extern "C" void remove_temp_and_die(int sig) {
  if (g_have_temp) ::unlink(g_temp);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // delivered when the handler returns (the signal is blocked in it)
}

}  // namespace

// Named, not unnamed: OutputFile::Temp (its class is declared in the header) holds one.
namespace output_file_detail {

// Installs the handlers for the life of one temporary file; one at a time in the process.
class TempGuard {
 public:
  explicit TempGuard(const std::string& name) : lock_(mutex()) {
    if (name.size() > PATH_MAX) return;
    std::memcpy(g_temp, name.c_str(), name.size() + 1);
    g_have_temp = 1;
    struct sigaction act {};
    act.sa_handler = remove_temp_and_die;
    sigemptyset(&act.sa_mask);
    for (int s : kSignals) sigaddset(&act.sa_mask, s);  // one handler at a time
    for (std::size_t i = 0; i < kNumSignals; ++i) {
      installed_[i] = false;
      if (::sigaction(kSignals[i], nullptr, &old_[i]) != 0) continue;
      if (old_[i].sa_handler == SIG_IGN) continue;  // ignored (nohup, trap ''): a write error instead
      installed_[i] = ::sigaction(kSignals[i], &act, nullptr) == 0;
    }
  }
  // The file is gone (renamed or removed): nothing for a handler to do.
  void release() { g_have_temp = 0; }
  ~TempGuard() {
    for (std::size_t i = 0; i < kNumSignals; ++i)
      if (installed_[i]) ::sigaction(kSignals[i], &old_[i], nullptr);
    g_have_temp = 0;
  }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::lock_guard<std::mutex> lock_;
  struct sigaction old_[kNumSignals] {};
  bool installed_[kNumSignals] {};
};

}  // namespace output_file_detail

namespace {

using output_file_detail::TempGuard;

bool write_all(int fd, std::string_view content, int& err) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string cannot_write(const std::string& path, int err) { return path + ": cannot write (" + std::strerror(err) + ")"; }

// The descriptor that a name for an open descriptor of this process stands for: /dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N and /proc/<own pid>/fd/N.
// -1 for other names.
int own_descriptor(const std::string& abs) {
  if (abs == "/dev/stdin") return 0;
  if (abs == "/dev/stdout") return 1;
  if (abs == "/dev/stderr") return 2;
  std::string pid_prefix = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                   std::string("/proc/thread-self/fd/"), pid_prefix}) {
    if (abs.compare(0, prefix.size(), prefix) != 0) continue;
    std::string n = abs.substr(prefix.size());
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoi(n);
  }
  return -1;
}

// Where `path` leads: links are followed one at a time (up to 40) so that a link into
// /proc/self/fd or /dev/std* is seen before the kernel resolves it to `pipe:[…]` or a terminal.
// `fd` receives the descriptor when the chain reaches such a name.
fs::path follow_links(const fs::path& path, int& fd) {
  fd = -1;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  p = p.lexically_normal();
  for (int hop = 0; hop < 40; ++hop) {
    if ((fd = own_descriptor(p.string())) >= 0) return p;
    // The links of /proc (another process's fd/N) name pipes and sockets as `pipe:[…]`: opened by
    // this name, never followed.
    if (p.string().rfind("/proc/", 0) == 0) return p;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    fs::path target = fs::read_symlink(p, ec);
    if (ec) return p;
    p = (target.is_absolute() ? target : p.parent_path() / target).lexically_normal();
  }
  return p;
}

}  // namespace

std::optional<std::string> output_is_input(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || output == "-" || ::stat(output.c_str(), &out) != 0) return std::nullopt;  // a new file
  // A device or FIFO is written in place, never replaced: reading and writing one is no overwrite.
  if (!S_ISREG(out.st_mode)) return std::nullopt;
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

struct OutputFile::Temp {
  explicit Temp(const std::string& name) : guard(name) {}
  TempGuard guard;
};

OutputFile::OutputFile() = default;

OutputFile::~OutputFile() {
  if (fd_ >= 0 && !own_fd_) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  if (guard_) guard_->guard.release();
}

bool OutputFile::open(const std::string& path, std::string& error) {
  shown_ = path;
  int own_fd = -1;
  fs::path target = follow_links(path, own_fd);
  target_ = target.string();
  if (own_fd >= 0) {
    if (own_fd == STDOUT_FILENO || own_fd == STDERR_FILENO) {  // after what planlint printed there
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
    }
    fd_ = own_fd;
    own_fd_ = true;
    return true;
  }

  struct stat old {};
  const bool exists = ::stat(target.c_str(), &old) == 0;
  // Another process's descriptor (/proc/<pid>/fd/N): its target cannot be renamed over, only opened.
  const bool in_proc = target.string().rfind("/proc/", 0) == 0;
  if (exists && (!S_ISREG(old.st_mode) || in_proc)) {
    if (S_ISCHR(old.st_mode) || S_ISFIFO(old.st_mode) || (in_proc && S_ISREG(old.st_mode))) {
      // A character device, a FIFO or an open descriptor: written in place, from the start. No
      // O_CREAT: the name exists. A FIFO blocks here until a reader opens it, as FIFOs do.
      fd_ = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
      if (fd_ < 0) {
        error = cannot_write(shown_, errno);
        return false;
      }
      return true;
    }
    error = path + ": is " + file_type_name(old.st_mode) + ": refusing to write to it (name a regular file, a new file, a FIFO or a character device)";
    return false;
  }

  // A regular file or a new name: a temporary file in the same folder, then a rename over it.
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".planlint-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  // Signals are blocked from mkstemp until the handlers know the name: a signal in between would
  // leave the file.
  sigset_t fatal, before;
  sigemptyset(&fatal);
  for (int s : kSignals) sigaddset(&fatal, s);
  ::pthread_sigmask(SIG_BLOCK, &fatal, &before);
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    int err = errno;
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    error = cannot_write(path, err);
    return false;
  }
  fd_ = fd;
  temp_ = name.data();
  guard_ = std::make_unique<Temp>(temp_);
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  // mkstemp creates mode 0600; give the file the mode a new file would get (0666 minus umask),
  // or the mode of the file it replaces.
  mode_t mask = ::umask(0);
  ::umask(mask);
  mode_t mode = exists ? (old.st_mode & 07777) : (0666 & ~mask);
  ::fchmod(fd, mode);
  return true;
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0 || err_ != 0) return;
  write_all(fd_, bytes, err_);
}

bool OutputFile::commit(std::string& error) {
  if (fd_ < 0) return error = cannot_write(shown_, EBADF), false;
  int err = err_;
  bool ok = err == 0;
  if (temp_.empty()) {  // written in place
    if (!own_fd_ && ::close(fd_) != 0 && ok) {
      ok = false;
      err = errno;
    }
    fd_ = -1;
    if (!ok) error = cannot_write(shown_, err);
    return ok;
  }
  // On disk before the rename: after a crash the name holds the old content or the new, never an
  // empty file.
  if (ok && ::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
    ok = false;
    err = errno;
  }
  if (::close(fd_) != 0 && ok) {
    ok = false;
    err = errno;
  }
  fd_ = -1;
  if (ok && ::rename(temp_.c_str(), target_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(temp_.c_str());
    error = cannot_write(shown_, err);
  }
  temp_.clear();
  guard_->guard.release();
  guard_.reset();
  return ok;
}

bool write_file_atomically(const std::string& path, std::string_view content, std::string& error) {
  OutputFile file;
  if (!file.open(path, error)) return false;
  file.write(content);
  return file.commit(error);
}

}  // namespace planlint
