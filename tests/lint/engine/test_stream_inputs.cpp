// lint/engine/lint.cpp: inputs that are streams by name (a FIFO): opened, waited for, read once.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/check.hpp"

using namespace planlint;

namespace {

void on_alarm(int) {}

const char* const kPlan =
    "== Physical Plan ==\n"
    "*(1) Project [a#1]\n"
    "+- *(1) Filter (isnotnull(a#1) AND (a#1 > 1))\n"
    "   +- FileScan parquet [a#1] Batched: true, DataFilters: [isnotnull(a#1), (a#1 > 1)], Format: Parquet, "
    "Location: InMemoryFileIndex[file:/t], PartitionFilters: [], PushedFilters: [IsNotNull(a), GreaterThan(a,1)], "
    "ReadSchema: struct<a:int>\n";

// Writes `text` into the FIFO once a reader has opened it, trying from `after` until `give_up`
// (non-blocking opens: a writer that never finds a reader ends instead of hanging the test).
void write_when_read(const std::string& fifo, std::string text, std::chrono::milliseconds after,
                     std::chrono::milliseconds give_up) {
  std::this_thread::sleep_for(after);
  const auto end = std::chrono::steady_clock::now() + give_up;
  int fd = -1;
  while ((fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (fd < 0) return;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  for (std::size_t off = 0; off < text.size();) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

TEST_CASE("check_input: a FIFO whose open a signal interrupts still waits for its writer") {
  // A timer signal (a profiler's, libFuzzer's once a second) handled without SA_RESTART makes a
  // blocking open() fail with EINTR. std::ifstream gave up there: the FIFO was reported unreadable
  // and its writer, which then never found a reader, waited forever.
  register_all_rules();
  const std::string fifo = "/tmp/planlint-test-fifo-eintr-" + std::to_string(::getpid());
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  struct sigaction sa {}, old {};
  sa.sa_handler = on_alarm;  // no SA_RESTART
  sigemptyset(&sa.sa_mask);
  REQUIRE(::sigaction(SIGALRM, &sa, &old) == 0);
  // The writer starts with SIGALRM blocked, so the timer's signal interrupts this thread's open.
  sigset_t alarm_only, before;
  sigemptyset(&alarm_only);
  sigaddset(&alarm_only, SIGALRM);
  ::pthread_sigmask(SIG_BLOCK, &alarm_only, &before);
  std::thread writer(write_when_read, fifo, std::string(kPlan), std::chrono::milliseconds(300),
                     std::chrono::milliseconds(3000));
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  itimerval once {};
  once.it_value.tv_usec = 50'000;  // while the open waits for the writer
  ::setitimer(ITIMER_REAL, &once, nullptr);
  const Config config;
  const FileReport r = check_input(fifo, config, "plan.fifo");
  writer.join();
  ::sigaction(SIGALRM, &old, nullptr);
  ::unlink(fifo.c_str());
  CHECK(r.error == "");
  CHECK(std::string(r.traits.display_name) == "explain text");
}
