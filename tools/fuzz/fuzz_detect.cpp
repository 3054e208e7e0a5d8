// libFuzzer target: format detection and reading each input once. The same bytes are checked as
// a regular file (detection opens it for a head, then the reader opens it again) and as a stream
// that can be read only once (a pipe: detection works on the bytes already read). Both must give
// the same findings, and the format detected on a 4 KiB head must agree with the codec sniffers.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/check.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/eventlog/eventlog_codec.hpp"
#include "parser/registry/detect.hpp"

namespace {

std::string signature(const planlint::FileReport& r) {
  std::string s = r.error.empty() ? "" : "error\n";
  for (const auto& d : r.diagnostics)
    s += d.rule + ":" + std::to_string(d.range.line) + ":" + std::to_string(d.range.column) + " " + d.message + "\n";
  return s;
}

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "detection invariant violated: %s\n", why.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string_view head = std::string_view(text).substr(0, 4096);
  planlint::InputFormat by_head = planlint::detect_format(head);
  (void)planlint::detect_format(text);
  const std::string codec = planlint::eventlog::codec_of(head);
  if (planlint::looks_compressed_event_log(head.substr(0, 16)) != !codec.empty())
    fail("looks_compressed_event_log and codec_of disagree");
  if (!codec.empty() && planlint::eventlog::codec_supported(codec) && by_head != planlint::InputFormat::EventLog)
    fail("a compressed event log (" + codec + ") is not detected as an event log");

  static const std::string file = "/tmp/planlint-fuzz-detect-" + std::to_string(::getpid()) + ".txt";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  planlint::Config config;
  planlint::FileReport as_file = planlint::check_input(file, config, "x");
  // The same bytes through a FIFO, which can be read only once.
  static const std::string fifo = "/tmp/planlint-fuzz-detect-" + std::to_string(::getpid()) + ".fifo";
  static const bool made = [] {
    std::signal(SIGPIPE, SIG_IGN);  // the reader may stop early (an error): the writer must not die
    ::unlink(fifo.c_str());
    return ::mkfifo(fifo.c_str(), 0600) == 0;
  }();
  if (!made) fail("cannot make a FIFO");
  // The writer opens without blocking, again and again until the reader has opened the FIFO: if
  // check_input returned without opening it, the writer ends (and the findings differ) instead of
  // waiting for a reader forever.
  std::atomic<bool> reading_done{false};
  std::thread writer([&] {
    int fd = -1;
    while ((fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && !reading_done) ::usleep(50);
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    for (std::size_t off = 0; off < text.size();) {
      const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
      if (n <= 0) break;  // the reader stopped early (EPIPE: SIGPIPE is ignored)
      off += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  planlint::FileReport as_stream = planlint::check_input(fifo, config, "x");
  reading_done = true;
  writer.join();
  if (signature(as_file) != signature(as_stream))
    fail("a file and a stream of the same bytes give different findings:\n" + signature(as_file) + "---\n" +
         signature(as_stream));
  return 0;
}
