// lint/core/source_file.hpp: the lines of a file read in pieces, fetched from the file when shown,
// split exactly as the text output splits a text held whole, and none at all once the file is no
// longer the one read (changed, replaced, shortened, removed): never a wrong line.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/source_file.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// The lines of `text` as the text output splits them: after each '\n', a '\r' before it left out.
std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return out;
}

FileIdentity identity_of_path(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return identity_of(st);
}

// Sets the file's modification time (a rewrite within the clock's tick must still be seen).
void set_mtime(const fs::path& p, long sec) {
  const struct timespec times[2] = {{sec, 0}, {sec, 0}};
  REQUIRE(::utimensat(AT_FDCWD, p.c_str(), times, 0) == 0);
}

}  // namespace

TEST_CASE("SourceFile: the lines of a file are those of its text, in any order, through small pieces") {
  const test::Scratch scratch("planlint-test-source-file");
  const std::string long_line(100'000, 'x');
  const std::vector<std::string> texts{
      "",
      "one line, no break",
      "a\nb\n",
      "a\r\nb\r\n\r\nlast",
      "\n\n\n",
      "\r",
      "x\r\r\ny",
      "{\"name\": \"Scan parquet\"}\n" + long_line + "Scan parquet" + long_line + "\r\n  tail\n",
  };
  for (std::size_t piece : {std::size_t{16}, std::size_t{61}, std::size_t{1} << 16}) {
    for (std::size_t t = 0; t < texts.size(); ++t) {
      const std::string& text = texts[t];
      CAPTURE(t);
      CAPTURE(piece);
      const fs::path p = scratch.dir / ("f" + std::to_string(t));
      test::write_file(p, text);
      SourceFile file(p.string(), identity_of_path(p), piece);
      const std::vector<std::string> lines = split(text);
      CHECK_FALSE(file.line(0).has_value());
      // Backwards, then forwards: the scan starts over when a line before the last one is asked.
      std::vector<std::uint32_t> order;
      for (std::uint32_t n = static_cast<std::uint32_t>(lines.size()) + 2; n >= 1; --n) order.push_back(n);
      for (std::uint32_t n = 1; n <= lines.size() + 2; ++n) order.push_back(n);
      for (std::uint32_t n : order) {
        CAPTURE(n);
        const std::optional<SourceFile::Line> line = file.line(n);
        if (n > lines.size()) {
          CHECK_FALSE(line.has_value());
          continue;
        }
        REQUIRE(line.has_value());
        const std::string& want = lines[n - 1];
        CHECK(line->size == want.size());
        const std::optional<std::string> all = file.bytes(*line, 0, line->size);
        REQUIRE(all.has_value());
        CHECK(*all == want);
        const std::optional<std::string> mid = file.bytes(*line, 1, 7);
        REQUIRE(mid.has_value());
        CHECK(*mid == (want.size() > 1 ? want.substr(1, 6) : std::string()));
        for (const std::string needle : {"Scan parquet", "x", "tail", "nowhere", "\r", ""}) {
          CAPTURE(needle);
          const std::optional<bool> in = file.contains(*line, needle);
          REQUIRE(in.has_value());
          CHECK(*in == (want.find(needle) != std::string::npos));
        }
      }
      CHECK_FALSE(file.failed());
      file.close();  // opened again by the next call
      if (!lines.empty()) CHECK(file.line(1).has_value());
    }
  }
}

TEST_CASE("SourceFile: a file that is no longer the one read gives no line at all") {
  const test::Scratch scratch("planlint-test-source-file-changed");
  const std::string text = "first line\nsecond line\nthird line\n";
  const std::string other = "FIRST LINE\nSECOND LINE\nTHIRD LINE\n";  // the same size
  const fs::path p = scratch.dir / "profile.json";

  SUBCASE("rewritten in place, the same size") {
    test::write_file(p, text);
    set_mtime(p, 1'000'000);
    SourceFile file(p.string(), identity_of_path(p));
    const std::optional<SourceFile::Line> first = file.line(1);
    REQUIRE(first.has_value());
    CHECK(file.bytes(*first, 0, first->size) == std::optional<std::string>("first line"));
    test::write_file(p, other);
    set_mtime(p, 1'000'001);
    CHECK_FALSE(file.line(2).has_value());
    CHECK_FALSE(file.bytes(*first, 0, first->size).has_value());
    CHECK_FALSE(file.contains(*first, "LINE").has_value());
    CHECK(file.failed());
    // Even put back as it was, nothing more is read.
    test::write_file(p, text);
    set_mtime(p, 1'000'000);
    CHECK_FALSE(file.line(1).has_value());
  }
  SUBCASE("rewritten with the old modification time: the same identity but for the time's nanoseconds") {
    test::write_file(p, text);
    const FileIdentity read = identity_of_path(p);
    test::write_file(p, other);
    const struct timespec times[2] = {{read.mtime_sec, read.mtime_nsec + (read.mtime_nsec > 0 ? -1 : 1)},
                                      {read.mtime_sec, read.mtime_nsec + (read.mtime_nsec > 0 ? -1 : 1)}};
    REQUIRE(::utimensat(AT_FDCWD, p.c_str(), times, 0) == 0);
    SourceFile file(p.string(), read);
    CHECK_FALSE(file.line(1).has_value());
  }
  SUBCASE("replaced by another file") {
    test::write_file(p, text);
    SourceFile file(p.string(), identity_of_path(p));
    const fs::path q = scratch.dir / "new.json";
    test::write_file(q, text);
    fs::rename(q, p);
    CHECK_FALSE(file.line(1).has_value());
  }
  SUBCASE("shortened") {
    test::write_file(p, text);
    set_mtime(p, 1'000'000);
    SourceFile file(p.string(), identity_of_path(p));
    fs::resize_file(p, 5);
    set_mtime(p, 1'000'000);
    CHECK_FALSE(file.line(1).has_value());
  }
  SUBCASE("removed") {
    test::write_file(p, text);
    SourceFile file(p.string(), identity_of_path(p));
    fs::remove(p);
    CHECK_FALSE(file.line(1).has_value());
    CHECK(file.failed());
  }
  SUBCASE("a FIFO in its place: refused without blocking") {
    test::write_file(p, text);
    SourceFile file(p.string(), identity_of_path(p));
    fs::remove(p);
    REQUIRE(::mkfifo(p.c_str(), 0600) == 0);
    CHECK_FALSE(file.line(1).has_value());
  }
  SUBCASE("changed while open, between two lines") {
    test::write_file(p, text);
    set_mtime(p, 1'000'000);
    SourceFile file(p.string(), identity_of_path(p));
    REQUIRE(file.line(1).has_value());
    {
      const int fd = ::open(p.c_str(), O_WRONLY);
      REQUIRE(fd >= 0);
      REQUIRE(::pwrite(fd, "X", 1, 12) == 1);
      ::close(fd);
    }
    set_mtime(p, 1'000'002);
    CHECK_FALSE(file.line(2).has_value());
  }
}
