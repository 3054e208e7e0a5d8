// read_append (lint/core/read_append.hpp): a file's bytes appended to a string without zero-fill,
// read_fd_once, which reads every regular file `check` is given through it, and open_if_regular,
// which opens the files collected as regular.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include "lint/core/input.hpp"
#include "lint/core/read_append.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {
void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}
}  // namespace

TEST_CASE("read_append: appends what the file holds, up to n, after what the string held") {
  test::Scratch dir("planlint_read_append");
  std::string bytes;
  for (int i = 0; i < 70000; ++i) bytes += static_cast<char>('a' + i % 26);
  write(dir.dir / "f", bytes);
  const std::string path = (dir.dir / "f").string();

  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  std::string data = "head:";
  CHECK(read_append(fd, data, 10) == 10);
  CHECK(data == "head:abcdefghij");
  // More than is left: what is left, and the string ends there.
  CHECK(read_append(fd, data, 100000) == 69990);
  CHECK(data.size() == 5 + 70000);
  CHECK(data.substr(5) == bytes);
  // At the end: nothing.
  CHECK(read_append(fd, data, 16) == 0);
  CHECK(data.size() == 5 + 70000);
  ::close(fd);

  // A read error (a descriptor that is no file): -1, and the string as it was.
  std::string kept = "x";
  CHECK(read_append(-1, kept, 8) == -1);
  CHECK(kept == "x");
}

TEST_CASE("read_fd_once: small and large files read whole, a file shorter than its stat ends at its end") {
  test::Scratch dir("planlint_read_fd_once");
  const auto never = [](std::string_view) { return false; };
  for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                        std::size_t{200000}, std::size_t{kReadWholeBelow - 1}, std::size_t{kReadWholeBelow},
                        std::size_t{kReadWholeBelow + 4097}}) {
    std::string bytes;
    for (std::size_t i = 0; i < n; ++i) bytes += static_cast<char>('0' + i % 10);
    write(dir.dir / "p", bytes);
    const std::string path = (dir.dir / "p").string();
    std::string error;
    INFO("size " << n);
    auto got = read_file_once(path, n, 1e9, 4096, never, error);
    REQUIRE(got);
    CHECK(*got == bytes);
    // The stat said more than there is (a file that shrank): what there is.
    got = read_file_once(path, n + 10, 1e9, 4096, never, error);
    REQUIRE(got);
    CHECK(*got == bytes);
    if (n > 4096) {
      // The stat said less than there is (a file that grew since) and at least the head: all of it.
      got = read_file_once(path, n - 1, 1e9, 4096, never, error);
      REQUIRE(got);
      CHECK(*got == bytes);
    }
    // The head asked is the first 4096 bytes (or the whole of a smaller file), read whole or not;
    // a claimed file is not returned.
    std::string head;
    const auto claim = [&](std::string_view h) {
      head = h;
      return true;
    };
    error.clear();
    CHECK_FALSE(read_file_once(path, n, 1e9, 4096, claim, error));
    CHECK(error.empty());
    CHECK(head == bytes.substr(0, 4096));
  }
}

TEST_CASE("open_if_regular: a regular file is opened with its size, and a FIFO in its place is not waited for") {
  test::Scratch dir("planlint_open_if_regular");
  write(dir.dir / "plan.txt", "0123456789");
  std::uint64_t size = 0;
  const int fd = open_if_regular((dir.dir / "plan.txt").string(), size);
  REQUIRE(fd >= 0);
  CHECK(size == 10);
  std::string data;
  CHECK(read_append(fd, data, 100) == 10);  // opened non-blocking: a regular file reads as before
  CHECK(data == "0123456789");
  ::close(fd);
  size = 0;
  CHECK(open_if_regular((dir.dir / "missing.txt").string(), size) == -1);
  CHECK(open_if_regular(dir.dir.string(), size) == -1);  // a folder
  // A FIFO with no writer: a blocking open would wait until one came. A helper opens the write end
  // once the open returned, or after 3 s (which frees a reader still waiting then), so the test
  // ends either way; the open must have given up long before.
  const std::string fifo = (dir.dir / "plan.fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::promise<void> returned;
  std::thread helper([&fifo, done = returned.get_future()] {
    done.wait_for(std::chrono::seconds(3));
    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // ENXIO when no reader waits
    if (w >= 0) ::close(w);
  });
  const auto t0 = std::chrono::steady_clock::now();
  const int ffd = open_if_regular(fifo, size);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  returned.set_value();
  helper.join();
  CHECK(ffd == -1);
  CHECK(waited < 2.0);
}
