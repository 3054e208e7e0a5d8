// read_append (lint/core/read_append.hpp): a file's bytes appended to a string without zero-fill,
// and read_fd_once, which reads every regular file `check` is given through it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <string>

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
                        std::size_t{200000}}) {
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
  }
}
