#include "tools/cli/checked_stdout.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <string_view>

#include "tools/cli/block_buf.hpp"

namespace planlint::cli {

namespace {

class CheckedStdout : public BlockBuf {
 public:
  [[nodiscard]] int error() const { return error_; }

 protected:
  // After a failure nothing more is written.
  bool put(std::string_view bytes) override {
    const char* p = bytes.data();
    std::size_t n = bytes.size();
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
    return error_ == 0;
  }

 private:
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
