#include "tools/cli/checked_stdout.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <streambuf>

namespace planlint::cli {

namespace {

class CheckedStdout : public std::streambuf {
 public:
  CheckedStdout() { setp(buf_, buf_ + sizeof buf_); }
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  // Writes what is buffered; after a failure nothing more is written (and the buffer is dropped).
  bool drain() {
    const char* p = pbase();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    while (n > 0 && error_ == 0) {
      ssize_t w = ::write(STDOUT_FILENO, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        break;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    setp(buf_, buf_ + sizeof buf_);
    return error_ == 0;
  }

  char buf_[1 << 16];
  int error_ = 0;
};

CheckedStdout& buffer() {
  static auto* b = new CheckedStdout;  // never destroyed: std::cout is flushed at exit after statics go
  return *b;
}

}  // namespace

void use_checked_stdout() {
  std::cout.flush();
  std::cout.rdbuf(&buffer());
  // A terminal sees each piece at once, in order with standard error, as line-buffered stdio did.
  if (::isatty(STDOUT_FILENO)) std::cout.setf(std::ios::unitbuf);
}

int stdout_error() {
  if (std::cout.rdbuf() == &buffer()) {
    std::cout.flush();
    if (buffer().error()) return buffer().error();
  } else {
    std::cout.flush();
  }
  return std::cout ? 0 : EIO;
}

}  // namespace planlint::cli
