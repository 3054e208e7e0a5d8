#include "parser/common/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ios>

namespace planlint {

std::string file_type_name(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

int open_regular_file(const std::string& path, std::string& why, std::size_t* size) {
  // O_NONBLOCK: opening a FIFO with no writer would wait for one. It is dropped again for a regular
  // file (where it changes nothing on Linux, but a reader should not see EAGAIN anywhere).
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    why = "is " + file_type_name(st.st_mode) + ", not a regular file";
    ::close(fd);
    return -1;
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (size) *size = static_cast<std::size_t>(st.st_size);
  return fd;
}

int open_stream(const std::string& path, std::string& why) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) why = std::strerror(errno);
  return fd;
}

class FdInputStream::Buf : public std::streambuf {
 public:
  explicit Buf(int fd) : fd_(fd) {}
  ~Buf() override {
    if (fd_ >= 0) ::close(fd_);
  }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    ssize_t n;
    do n = ::read(fd_, buf_, sizeof buf_);
    while (n < 0 && errno == EINTR);
    // istream turns an exception from its buffer into badbit (without rethrowing by default).
    if (n < 0) throw std::ios_base::failure(std::strerror(errno));
    if (n == 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  int fd_;
  char buf_[1 << 16];
};

FdInputStream::FdInputStream(int fd) : std::istream(nullptr), buf_(std::make_unique<Buf>(fd)) { rdbuf(buf_.get()); }

FdInputStream::~FdInputStream() = default;

}  // namespace planlint
