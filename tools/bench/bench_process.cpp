// `planlint_bench process`: what a user running `planlint check` feels, whole process (start-up,
// config search, file reading, rules, JSON output, teardown), beside `wc -l` of the same inputs in
// the same run as the floor (a process that reads every byte once and does nothing else), and beside
// the one-pass tokenizer floor (`planlint_bench floor --child INPUTS`, tools/bench/bench_floor.cpp:
// reads each file once and splits it into lines, guides, heads and top-level fields).
//
//   golden plans   the Spark golden plans of ../shared/corpus/spark (*.explain.txt), as one argument list
//   small files    10,000 generated 8-operator plans in a temporary folder (the folder is the argument)
//   one 100 MB     one file of ~40-operator plans, 100 MB
//   event log      a generated Spark event log of 1,000 MB (tools/bench/bench_eventlog.cpp)
//
// Each figure: `planlint check --no-config --format json -o /dev/null INPUTS`, `wc -l INPUTS` and
// the floor run alternately (paired) --runs times in fresh processes (with several files, also
// planlint with `-j1` and the floor with planlint's number of workers); the medians of wall time, CPU time (user
// + sys of the child, from wait4) and peak RSS. MB is 10^6 bytes, MiB 2^20 bytes. On a loaded
// machine use the CPU figures: wall time also counts waiting for a core.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/bench/bench_eventlog.hpp"
#include "tools/gen/generate.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kMB = 1e6;  // MB = 10^6 bytes

struct Run {
  int status = -1;
  double wall = 0, cpu = 0;  // seconds
  double peak_mib = 0;
};

// argv in a fresh process, stdout and stderr to /dev/null (`wc` prints per file: not measured).
// fork, not posix_spawn: a child that shares this process's memory until exec (vfork) inherits
// this process's highest RSS ever (the generated inputs) as its own peak; a forked child starts
// from this process's current RSS (a few MiB: see the `wc -l` figure), which is the floor of the
// peak RSS figures.
Run spawn_run(const std::vector<std::string>& args) {
  Run r;
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  auto t0 = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 1), ::dup2(null, 2);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  ::wait4(pid, &status, 0, &ru);
  r.wall = std::chrono::duration<double>(Clock::now() - t0).count();
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; };
  r.cpu = secs(ru.ru_utime) + secs(ru.ru_stime);
  r.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Summary {
  double wall = 0, cpu = 0, peak_mib = 0;
  int status = -1;
};

void print(const std::string& what, const Summary& s, double bytes, std::size_t files) {
  double mb = bytes / kMB;
  std::printf("    %-9s wall %8.3f s (%7.1f MB/s)  CPU %8.3f s (%7.1f MB per CPU-second)  peak RSS %7.1f MiB  exit %d",
              what.c_str(), s.wall, s.wall > 0 ? mb / s.wall : 0.0, s.cpu, s.cpu > 0 ? mb / s.cpu : 0.0, s.peak_mib, s.status);
  if (files > 1) std::printf("  %.1f us CPU per file", s.cpu * 1e6 / static_cast<double>(files));
  std::printf("\n");
}

// planlint and wc -l over the same inputs, alternately, `runs` times (after one warm-up pair that
// fills the page cache), beside the one-pass tokenizer floor.
// `check_inputs` may name a folder where `wc_inputs` lists its files.
// With more than one file, planlint runs with its default workers (one a core) and with `-j1`, and
// the floor with one worker and with as many as planlint: the ratio (planlint as users run
// it against the one-worker floor), the ratio at the same number of workers, and the ratio on one
// core, so that what the second worker costs is told from what the reader costs.
void measure(const std::string& name, const std::string& planlint, const std::vector<std::string>& check_inputs,
             const std::vector<std::string>& wc_inputs, double bytes, std::size_t files, int runs) {
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  const bool several = files > 1 && workers > 1;
  std::vector<std::string> check{planlint, "check", "--no-config", "--format", "json", "-o", "/dev/null"};
  std::vector<std::string> check1{planlint, "check", "-j1", "--no-config", "--format", "json", "-o", "/dev/null"};
  std::vector<std::string> wc{"wc", "-l"};
  std::error_code ec;
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> floor{self, "floor", "--child-jobs", "1", "--child"};
  std::vector<std::string> floorn{self, "floor", "--child-jobs", std::to_string(workers), "--child"};
  check.insert(check.end(), check_inputs.begin(), check_inputs.end());
  check1.insert(check1.end(), check_inputs.begin(), check_inputs.end());
  wc.insert(wc.end(), wc_inputs.begin(), wc_inputs.end());
  floor.insert(floor.end(), check_inputs.begin(), check_inputs.end());
  floorn.insert(floorn.end(), check_inputs.begin(), check_inputs.end());
  std::printf("  %s: %.2f MB in %zu file(s), %d paired runs, medians\n", name.c_str(), bytes / kMB, files, runs);
  std::fflush(stdout);
  struct Series {
    explicit Series(const std::vector<std::string>* a) : args(a) {}
    const std::vector<std::string>* args;
    std::vector<double> wall, cpu, peak;
    int status = -1;
    Summary summary() const { return {median(wall), median(cpu), median(peak), status}; }
  };
  std::vector<Series> series{Series(&check), Series(&wc), Series(&floor)};
  if (several) series.emplace_back(&check1), series.emplace_back(&floorn);
  for (const Series& s : series) spawn_run(*s.args);
  for (int i = 0; i < runs; ++i)
    for (Series& s : series) {
      const Run r = spawn_run(*s.args);
      s.wall.push_back(r.wall), s.cpu.push_back(r.cpu), s.peak.push_back(r.peak_mib), s.status = r.status;
    }
  const Summary ps = series[0].summary(), ws = series[1].summary(), fs_ = series[2].summary();
  print("planlint", ps, bytes, files);
  if (several) print("  -j1", series[3].summary(), bytes, files);
  print("wc -l", ws, bytes, files);
  print("floor", fs_, bytes, files);
  if (several) print("  x" + std::to_string(workers), series[4].summary(), bytes, files);
  if (ws.cpu > 0) std::printf("    planlint / wc -l CPU: %.1fx\n", ps.cpu / ws.cpu);
  if (fs_.cpu > 0) std::printf("    planlint / one-pass tokenizer floor CPU: %.2fx (target <= 2.5x)\n", ps.cpu / fs_.cpu);
  if (several && fs_.cpu > 0) {
    const Summary p1 = series[3].summary(), fn = series[4].summary();
    std::printf("    at the same workers: planlint / floor x%u CPU %.2fx; planlint -j1 / floor CPU %.2fx\n", workers,
                fn.cpu > 0 ? ps.cpu / fn.cpu : 0.0, p1.cpu / fs_.cpu);
    if (p1.cpu > 0 && fs_.cpu > 0)
      std::printf("    what %u workers cost in CPU beside one: planlint %+.1f %%, floor %+.1f %%\n", workers,
                  100.0 * (ps.cpu / p1.cpu - 1.0), 100.0 * (fn.cpu / fs_.cpu - 1.0));
  }
  std::fflush(stdout);
}

double size_of(const std::vector<std::string>& files) {
  double n = 0;
  std::error_code ec;
  for (const auto& f : files) n += static_cast<double>(fs::file_size(f, ec));
  return n;
}

}  // namespace

int bench_process(int argc, char** argv) {
  CLI::App app{"planlint_bench process: whole-process `planlint check --format json` beside `wc -l` of the same inputs"};
  std::string planlint, shared, only;
  int runs = 5, big_runs = 3;
  std::size_t small_files = 10000, big_mb = 100, log_mb = 1000;
  app.add_option("--planlint", planlint, "the planlint executable (default: beside planlint_bench)");
  app.add_option("--shared", shared, "the ../shared directory (holds corpus/spark)");
  app.add_option("--runs", runs, "paired runs of the small inputs")->capture_default_str();
  app.add_option("--big-runs", big_runs, "paired runs of the 100 MB file and the event log")->capture_default_str();
  app.add_option("--small-files", small_files, "how many small files")->capture_default_str();
  app.add_option("--big-mb", big_mb, "size of the one big file, MB (10^6 bytes)")->capture_default_str();
  app.add_option("--eventlog-mb", log_mb, "size of the event log, MB (10^6 bytes)")->capture_default_str();
  app.add_option("--only", only, "golden | small | big | eventlog (default: all)");
  CLI11_PARSE(app, argc, argv);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (planlint.empty()) planlint = (exe.parent_path() / "planlint").string();
  if (shared.empty()) {
    if (const char* env = std::getenv("PLANLINT_SHARED_DIR")) shared = env;
    else
      for (fs::path p = exe.parent_path(); p.has_relative_path(); p = p.parent_path())
        if (fs::is_directory(p.parent_path() / "shared" / "corpus")) {
          shared = (p.parent_path() / "shared").string();
          break;
        }
  }
  fs::path tmp = fs::temp_directory_path() / ("planlint-bench-process-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::printf("== process: `planlint check --no-config --format json -o /dev/null INPUTS` and `wc -l INPUTS`, fresh "
              "processes (MB = 10^6 bytes, MiB = 2^20 bytes; CPU = user + sys)\n");
  auto want = [&](const char* what) { return only.empty() || only == what; };

  if (want("golden")) {
    fs::path dir = fs::path(shared) / "corpus" / "spark";
    std::vector<std::string> files;
    if (!shared.empty() && fs::is_directory(dir))
      for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().string().ends_with(".explain.txt")) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) std::printf("  (../shared/corpus/spark not found: golden plans skipped; --shared DIR)\n");
    else measure("Spark golden plans (*.explain.txt)", planlint, files, files, size_of(files), files.size(), runs);
  }
  if (want("small")) {
    fs::path dir = tmp / "small";
    fs::create_directories(dir);
    double bytes = 0;
    for (std::size_t i = 0; i < small_files; ++i) {
      std::string text = planlint::gen::formatted_plan(8 + i % 8, i + 1);
      bytes += static_cast<double>(text.size());
      std::ofstream(dir / ("plan" + std::to_string(i) + ".explain.txt"), std::ios::binary) << text;
    }
    // planlint gets the folder (as a user gives it); wc the file list (the same files).
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    measure(std::to_string(files.size()) + " small files (8-15 operators each; planlint gets the folder, wc -l the file names)",
            planlint, {dir.string()}, files, bytes, files.size(), runs);
    fs::remove_all(dir, ec);
  }
  if (want("big")) {
    fs::path f = tmp / "big.explain.txt";
    {
      std::string text = planlint::gen::formatted_plans(big_mb * 1000000, 40);
      std::ofstream(f, std::ios::binary) << text;
    }
    measure("one file of ~40-operator plans", planlint, {f.string()}, {f.string()}, size_of({f.string()}), 1, big_runs);
    fs::remove(f, ec);
  }
  if (want("eventlog")) {
    fs::path f = tmp / "app.eventlog";
    GeneratedEventLog g = write_generated_event_log(f, log_mb * 1000000, false);
    std::printf("  (event log: %zu SQL executions, %zu task-end events)\n", g.executions, g.tasks);
    measure("generated Spark event log", planlint, {f.string()}, {f.string()}, static_cast<double>(g.bytes), 1, big_runs);
    fs::remove(f, ec);
  }
  fs::remove_all(tmp, ec);
  return 0;
}
