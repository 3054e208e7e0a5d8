// planlint_bench: how fast planlint is, how much memory it takes, and how cost grows with input.
//
//   planlint_bench                 everything below with default sizes (what tools/bench.sh runs)
//   planlint_bench throughput      MB/s and plans/s, parse alone and parse + all rules, 1 core and all cores
//   planlint_bench startup         median ms of `planlint check <small plan>` (process start included)
//   planlint_bench memory          peak RSS of a fresh process per input size, relative to the input
//   planlint_bench scaling         ns/byte from 1 MB up to 256 MB (--gb: 1 GB) of plans
//   planlint_bench lsp             the LSP benchmark (tools/bench/bench_lsp.cpp), when built
//   planlint_bench eventlog        a 1 GB event log in bounded memory (tools/bench/bench_eventlog.cpp)
//   planlint_bench process         whole-process `planlint check` beside `wc -l` (tools/bench/bench_process.cpp)
//   planlint_bench floor           a one-pass tokenizer floor beside the explain reader (tools/bench/bench_floor.cpp)
//   planlint_bench gen KIND ...    write a large or extreme generated input (see `gen --help`)
//   planlint_bench run PATH...     a fixed load (parse + rules over files N times) for profilers
//
// This is a measuring tool, not a test: it never fails on a slow figure, it prints the figures
// next to the targets (parse + rules >= 120 MB/s and parse alone >= 200 MB/s on the Spark golden
// plans, one core, so that a CI gate over a folder of plans costs seconds; start-up < 5 ms, so that
// an editor can run it on each save; peak memory < 4x the input).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <ctime>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/check.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/input.hpp"
#include "parser/registry/parse.hpp"
#include "tools/gen/generate.hpp"

extern char** environ;

// Provided by tools/bench/bench_lsp.cpp when that file exists; weak so that this program links
// without it.
int bench_lsp(int argc, char** argv) __attribute__((weak));
int bench_eventlog(int argc, char** argv) __attribute__((weak));
int bench_process(int argc, char** argv) __attribute__((weak));
int bench_floor(int argc, char** argv) __attribute__((weak));

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU time of the calling thread: unlike wall time it does not count time spent waiting for a
// core, so single-core figures stay meaningful on a loaded machine.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

constexpr double kMB = 1024.0 * 1024.0;

// An input as planlint reads one: a shared, const buffer the plans view.
struct Input {
  Input(std::string p, std::string t) : path(std::move(p)), text(std::make_shared<const std::string>(std::move(t))) {}
  std::string path;
  std::shared_ptr<const std::string> text;
};

struct Set {
  std::string name;
  std::vector<Input> inputs;
  std::size_t bytes() const {
    std::size_t n = 0;
    for (const auto& i : inputs) n += i.text->size();
    return n;
  }
};

fs::path exe_dir() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : p.parent_path();
}

// ../shared beside the checkout: --shared, $PLANLINT_SHARED_DIR, or a `shared/` directory beside
// the working directory or the build directory or any of their ancestors.
std::optional<fs::path> find_shared(const std::string& given) {
  std::vector<fs::path> candidates;
  if (!given.empty()) candidates.emplace_back(given);
  if (const char* env = std::getenv("PLANLINT_SHARED_DIR")) candidates.emplace_back(env);
  for (fs::path start : {fs::current_path(), exe_dir()})
    for (fs::path p = start; p.has_relative_path(); p = p.parent_path()) candidates.push_back(p.parent_path() / "shared");
  for (const auto& c : candidates)
    if (fs::is_directory(c / "corpus")) return c;
  return std::nullopt;
}

Set load_files(const std::string& name, const fs::path& dir, const std::string& suffix) {
  Set s{name, {}};
  if (!fs::is_directory(dir)) return s;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().string().ends_with(suffix)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string err;
    if (auto t = planlint::read_input(f.string(), err)) s.inputs.push_back({f.string(), std::move(*t)});
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// throughput

struct Pass {
  std::size_t bytes = 0;
  std::size_t plans = 0;
  std::size_t ops = 0;
  std::size_t diagnostics = 0;
};

Pass run_once(const Set& set, bool rules) {
  Pass p;
  planlint::Config config;
  for (const auto& in : set.inputs) {
    if (rules) {
      auto r = planlint::lint_text(in.text, in.path, config);
      p.plans += r.parse.plans.size();
      for (const auto& pl : r.parse.plans) p.ops += pl.ops.size();
      p.diagnostics += r.diagnostics.size();
    } else {
      auto r = planlint::parse_input(in.text, in.path);
      p.plans += r.plans.size();
      for (const auto& pl : r.plans) p.ops += pl.ops.size();
    }
    p.bytes += in.text->size();
  }
  return p;
}

struct Rate {
  double mb_s = 0;       // per wall-clock second, all threads together
  double mb_s_cpu = 0;   // per CPU second of the measuring threads (= per core when nothing else runs)
  double plans_s = 0;    // wall
  double plans_s_cpu = 0;
};

// Repeat whole passes over the set for at least `min_seconds` on each of `threads` threads.
Rate measure(const Set& set, bool rules, unsigned threads, double min_seconds, Pass* first = nullptr) {
  Pass one = run_once(set, rules);  // warm-up, and the per-pass counts
  if (first) *first = one;
  std::atomic<std::size_t> passes{0};
  std::vector<double> cpu(threads, 0.0);
  auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      auto start = Clock::now();
      double c0 = thread_cpu_seconds();
      do {
        run_once(set, rules);
        ++passes;
      } while (seconds_since(start) < min_seconds);
      cpu[t] = thread_cpu_seconds() - c0;
    });
  for (auto& th : pool) th.join();
  double secs = seconds_since(t0);
  double cpu_secs = std::accumulate(cpu.begin(), cpu.end(), 0.0);
  double n = static_cast<double>(passes.load());
  double mb = n * static_cast<double>(one.bytes) / kMB, plans = n * static_cast<double>(one.plans);
  return {mb / secs, mb / cpu_secs, plans / secs, plans / cpu_secs};
}

void rate_line(const std::string& what, const Rate& r, bool per_core) {
  if (per_core)
    std::printf("  %-24s %9.1f MB/s %11.0f plans/s   (per CPU-second; wall: %.1f MB/s)\n", what.c_str(), r.mb_s_cpu,
                r.plans_s_cpu, r.mb_s);
  else
    std::printf("  %-24s %9.1f MB/s %11.0f plans/s   (wall, all threads; %.1f MB/s per CPU-second)\n", what.c_str(),
                r.mb_s, r.plans_s, r.mb_s_cpu);
}

void throughput_report(const Set& set, double min_seconds, unsigned cores) {
  if (set.inputs.empty()) return;
  Pass counts;
  Rate parse1 = measure(set, false, 1, min_seconds, &counts);
  Rate lint1 = measure(set, true, 1, min_seconds);
  std::printf("%s: %zu files, %.2f MB, %zu plans, %zu operators, %zu findings\n", set.name.c_str(), set.inputs.size(),
              static_cast<double>(counts.bytes) / kMB, counts.plans, counts.ops, run_once(set, true).diagnostics);
  rate_line("parse, 1 core", parse1, true);
  rate_line("parse + rules, 1 core", lint1, true);
  if (cores > 1) {
    rate_line("parse, " + std::to_string(cores) + " threads", measure(set, false, cores, min_seconds), false);
    rate_line("parse + rules, " + std::to_string(cores) + " threads", measure(set, true, cores, min_seconds), false);
  }
  std::fflush(stdout);
}

int cmd_throughput(const std::string& shared_arg, double min_seconds, unsigned cores) {
  std::printf("== throughput (each figure: repeated passes for >= %.1f s; 1-core figures use the thread's CPU "
              "time; targets on the Spark golden plans, 1 core: parse + rules >= 120 MB/s, parse alone >= 200 MB/s)\n",
              min_seconds);
  if (auto shared = find_shared(shared_arg)) {
    throughput_report(load_files("Spark golden plans (v3.2 + v4.1)", *shared / "corpus" / "spark", ".explain.txt"),
                      min_seconds, cores);
    throughput_report(load_files("Databricks profiles", *shared / "corpus" / "databricks", ".json"), min_seconds,
                      cores);
    throughput_report(load_files("Spark event logs", *shared / "corpus" / "spark-eventlogs", ".eventlog"),
                      min_seconds, cores);
  } else {
    std::printf("(../shared not found: skipping the Spark golden plans; set PLANLINT_SHARED_DIR or --shared)\n");
  }
  Set gen{"generated: 400 plans of ~40 ops", {}};
  for (std::uint64_t i = 0; i < 400; ++i)
    gen.inputs.push_back({"gen" + std::to_string(i) + ".txt", planlint::gen::formatted_plan(30 + i % 20, i)});
  throughput_report(gen, min_seconds, cores);
  Set big{"generated: one plan of 100,000 ops", {{"big.txt", planlint::gen::formatted_plan(100000)}}};
  throughput_report(big, min_seconds, cores);
  Set prof{"generated: profile of 10,000 nodes", {{"profile.json", planlint::gen::profile_json(10000)}}};
  throughput_report(prof, min_seconds, cores);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// process start-up

// Run argv with stdout/stderr to /dev/null; return the exit status (or -1) and the wall time.
int spawn_wait(const std::vector<std::string>& args, double& ms, double& cpu_ms) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  auto t0 = Clock::now();
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  ms = seconds_since(t0) * 1000.0;
  cpu_ms = (static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Stats {
  double median = 0, p90 = 0, min = 0;
};

Stats stats_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 9 / 10)], v.front()};
}

fs::path temp_file(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("planlint-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

void remove_temp() {
  std::error_code ec;
  fs::remove_all(fs::temp_directory_path() / ("planlint-bench-" + std::to_string(::getpid())), ec);
}

int cmd_startup(std::string planlint, std::string plan, int runs) {
  if (planlint.empty()) planlint = (exe_dir() / "planlint").string();
  if (!fs::exists(planlint)) {
    std::printf("== startup: %s not found (build it: ninja -C build planlint)\n", planlint.c_str());
    return 1;
  }
  if (plan.empty()) plan = temp_file("small.explain.txt", planlint::gen::formatted_plan(8)).string();
  std::printf("== startup: `planlint check %s`, %d runs (target: median < 5 ms, process start included)\n",
              fs::path(plan).filename().c_str(), runs);
  auto time_runs = [&](const std::vector<std::string>& args, int& rc, Stats& cpu) {
    std::vector<double> ms, cms;
    for (int i = 0; i < runs + 3; ++i) {
      double t = 0, c = 0;
      rc = spawn_wait(args, t, c);
      if (i >= 3) ms.push_back(t), cms.push_back(c);  // the first runs warm the page cache
    }
    cpu = stats_of(cms);
    return stats_of(ms);
  };
  int rc_true = 0, rc = 0;
  Stats floor_cpu, cpu;
  Stats floor = time_runs({"/bin/true"}, rc_true, floor_cpu);
  Stats s = time_runs({planlint, "check", plan}, rc, cpu);
  std::printf("  %-24s wall median %6.2f ms  p90 %6.2f ms  min %6.2f ms   CPU (user+sys) median %6.2f ms\n",
              "/bin/true (spawn floor)", floor.median, floor.p90, floor.min, floor_cpu.median);
  std::printf("  %-24s wall median %6.2f ms  p90 %6.2f ms  min %6.2f ms   CPU (user+sys) median %6.2f ms   (exit %d)\n",
              "planlint check", s.median, s.p90, s.min, cpu.median, rc);
  if (rc == 2) std::printf("  note: exit 2 is a usage error: is `planlint check` implemented in this build?\n");
  std::fflush(stdout);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// memory

long maxrss_kb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Child side: print "<rss before read> <rss after read> <peak rss> <plans>" in KiB. `check`: the
// input as `planlint check` reads it (check_input: plan by plan, the plans dropped once linted;
// "after read" is then the start, as the file is read inside).
int cmd_memory_child(const std::string& path, bool check) {
  long before = maxrss_kb();
  if (check) {
    // As `planlint check` reads a file whose input it keeps no longer than the lint (`--format json`):
    // a large Query Profile in pieces.
    planlint::FileReport report = planlint::check_input(path, planlint::Config{}, "", false, planlint::KeepInput::Nothing);
    long peak = maxrss_kb();
    if (!report.error.empty()) {
      std::fprintf(stderr, "%s\n", report.error.c_str());
      return 1;
    }
    std::printf("%ld %ld %ld %zu\n", before, before, peak, report.diagnostics.size());
    return 0;
  }
  std::string err;
  auto read = planlint::read_input(path, err);
  if (!read) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  // As `planlint check` holds a file it read: shared and const, the plans view it.
  auto text = std::make_shared<const std::string>(std::move(*read));
  long after_read = maxrss_kb();
  std::size_t plans = 0;
  {
    auto r = planlint::lint_text(text, path, planlint::Config{});
    plans = r.parse.plans.size();
  }
  long peak = maxrss_kb();
  std::printf("%ld %ld %ld %zu\n", before, after_read, peak, plans);
  return 0;
}

struct MemResult {
  bool ok = false;
  long before = 0, after_read = 0, peak = 0;
  std::size_t plans = 0;
};

MemResult run_memory_child(const fs::path& input, bool check) {
  MemResult m;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = exe_dir() / "planlint_bench";
  std::string cmd = "'" + self.string() + "' memory-child " + (check ? "--check " : "") + "'" + input.string() + "'";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return m;
  m.ok = std::fscanf(pipe, "%ld %ld %ld %zu", &m.before, &m.after_read, &m.peak, &m.plans) == 4;
  m.ok = ::pclose(pipe) == 0 && m.ok;
  return m;
}

void memory_line(const std::string& what, const std::string& text) {
  fs::path f = temp_file("mem.txt", text);
  MemResult m = run_memory_child(f, false);
  MemResult c = run_memory_child(f, true);
  fs::remove(f);
  double in = static_cast<double>(text.size()) / 1024.0;
  if (!m.ok || !c.ok) {
    std::printf("  %-34s %8.1f MB   child failed\n", what.c_str(), in / 1024.0);
    return;
  }
  std::printf("  %-34s %8.1f MB   peak %8.1f MB   (peak - start) / input %5.2fx   (peak - after read) / input %5.2fx"
              "   check: peak %8.1f MB, (peak - start) / input %5.2fx\n",
              what.c_str(), in / 1024.0, static_cast<double>(m.peak) / 1024.0,
              static_cast<double>(m.peak - m.before) / in, static_cast<double>(m.peak - m.after_read) / in,
              static_cast<double>(c.peak) / 1024.0, static_cast<double>(c.peak - c.before) / in);
  std::fflush(stdout);
}

int cmd_memory(std::size_t max_mb) {
  std::printf("== memory: peak RSS (getrusage) of a fresh process that reads the input and runs parse + rules\n"
              "   (target: (peak - start) / input < 4x; it counts the input buffer itself), the plans kept\n"
              "   (lint_text), and as `planlint check` reads it (check_input: plan by plan; MB here = 2^20 bytes)\n");
  for (std::size_t mb = 1; mb <= max_mb; mb *= 4)
    memory_line("many plans, " + std::to_string(mb) + " MB", planlint::gen::formatted_plans(mb << 20));
  memory_line("one plan of 100,000 ops", planlint::gen::formatted_plan(100000));
  memory_line("profile of 10,000 nodes", planlint::gen::profile_json(10000));
  return 0;
}

// ---------------------------------------------------------------------------------------------
// scaling

double ns_per_byte(const std::string& text, double min_seconds, const char* name = "scale.txt") {
  planlint::Config config;
  double best = 1e300;
  auto start = Clock::now();
  int reps = 0;
  do {
    double c0 = thread_cpu_seconds();
    auto r = planlint::lint_text(text, name, config);
    double s = thread_cpu_seconds() - c0;
    best = std::min(best, s);
    ++reps;
  } while (seconds_since(start) < min_seconds && reps < 50);
  return best * 1e9 / static_cast<double>(text.size());
}

int cmd_scaling(std::size_t max_mb, std::size_t one_plan_max_mb) {
  std::printf("== scaling: parse + rules, CPU time, best of repeated runs, sizes doubling from 1 MB to %zu MB\n"
              "   (linear = ns/byte stays flat; ratio = ns/byte / ns/byte at 1 MB)\n",
              max_mb);
  auto shape = [&](const char* name, std::size_t limit, auto make, const char* file = "scale.txt") {
    std::printf("  %s\n", name);
    double base = 0, worst = 0;
    for (std::size_t mb = 1; mb <= limit; mb *= 2) {
      std::string text = make(mb << 20);
      double nsb = ns_per_byte(text, mb <= 16 ? 1.0 : 0.0, file);
      if (base == 0) base = nsb;
      worst = std::max(worst, nsb / base);
      std::printf("    %6zu MB %10.2f ns/byte %8.1f MB/s  ratio %5.2f\n", mb, nsb, 1e9 / nsb / kMB, nsb / base);
      std::fflush(stdout);
    }
    std::printf("    worst ratio %.2f: %s\n", worst, worst < 1.5 ? "linear" : "NOT linear (ratio >= 1.5)");
  };
  shape("many plans of ~40 operators", max_mb, [](std::size_t b) { return planlint::gen::formatted_plans(b); });
  // About 2,900 operators per MB of formatted text (360 bytes each).
  shape("one plan, operators growing with size", std::min(max_mb, one_plan_max_mb),
        [](std::size_t b) { return planlint::gen::formatted_plan(b / 360); });
  // About 6,900 executions per MB (152 bytes each): 16 MB is 110,000 executions.
  shape("History Server answer, executions growing with size", std::min<std::size_t>(max_mb, 16),
        [](std::size_t b) { return planlint::gen::history_server_json(b / 152); }, "scale.json");
  return 0;
}

// ---------------------------------------------------------------------------------------------
// run: a fixed amount of work, for profilers (perf record / valgrind --tool=callgrind)

int cmd_run(const std::vector<std::string>& paths, int repeat, bool parse_only) {
  Set set{"run", {}};
  for (const auto& p : paths) {
    if (fs::is_directory(p)) {
      Set d = load_files(p, p, "");
      for (auto& in : d.inputs) set.inputs.push_back(std::move(in));
    } else {
      std::string err;
      if (auto t = planlint::read_input(p, err)) set.inputs.push_back({p, std::move(*t)});
      else std::fprintf(stderr, "%s\n", err.c_str());
    }
  }
  double c0 = thread_cpu_seconds();
  Pass last;
  for (int i = 0; i < repeat; ++i) last = run_once(set, !parse_only);
  double cpu = thread_cpu_seconds() - c0;
  std::printf("%zu inputs, %.2f MB x %d: %.3f s CPU, %.1f MB/s; %zu plans, %zu operators, %zu findings per pass\n",
              set.inputs.size(), static_cast<double>(last.bytes) / kMB, repeat, cpu,
              static_cast<double>(last.bytes) * repeat / kMB / cpu, last.plans, last.ops, last.diagnostics);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// lsp

int cmd_lsp(std::vector<std::string> args) {
  if (!bench_lsp) {
    std::printf("== lsp: not built (tools/bench/bench_lsp.cpp is absent)\n");
    return 0;
  }
  args.insert(args.begin(), "planlint_bench lsp");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return bench_lsp(static_cast<int>(args.size()), argv.data());
}

// ---------------------------------------------------------------------------------------------
// gen

int cmd_gen(const std::string& kind, std::size_t n, const std::string& out_path, std::uint64_t seed) {
  namespace g = planlint::gen;
  std::string text;
  if (kind == "formatted") text = g::formatted_plan(n ? n : 100000, seed);
  else if (kind == "plans") text = g::formatted_plans(n ? n : (64u << 20), 40, seed);
  else if (kind == "deep") text = g::deep_text_plan(n ? n : 2000);
  else if (kind == "parens") text = g::nested_parens_plan(n ? n : 100000);
  else if (kind == "long-line") text = g::long_line_plan(n ? n : (1u << 20));
  else if (kind == "profile") text = g::profile_json(n ? n : 10000);
  else if (kind == "profile-chain") text = g::profile_json(n ? n : 20000, true);
  else if (kind == "deep-json") text = g::deep_json(n ? n : 100000);
  else if (kind == "eventlog-deep") text = g::eventlog_deep(n ? n : 20000);
  else {
    std::fprintf(stderr, "planlint_bench gen: unknown kind '%s'\n", kind.c_str());
    return 2;
  }
  if (out_path.empty() || out_path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream(out_path, std::ios::binary) << text;
    std::fprintf(stderr, "wrote %s (%zu bytes)\n", out_path.c_str(), text.size());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The process floor (`floor --child`) does only what it measures: no rule registry, no option set-up.
  if (argc > 2 && std::string_view(argv[1]) == "floor" && std::string_view(argv[2]) == "--child" && bench_floor) {
    argv[1] = argv[0];
    return bench_floor(argc - 1, argv + 1);
  }
  planlint::register_all_rules();
  CLI::App app{"planlint_bench: throughput, start-up, memory and scaling of planlint; generator of large inputs"};
  std::string shared;
  double min_seconds = 1.0;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--shared", shared, "the ../shared directory (default: $PLANLINT_SHARED_DIR, ../shared)");
  app.add_option("--seconds", min_seconds, "minimum measuring time per throughput figure")->capture_default_str();
  app.add_option("--threads", cores, "threads for the all-cores figures")->capture_default_str();

  std::size_t max_mb = 256, one_plan_max_mb = 64, mem_max_mb = 64;
  bool gb = false, quick = false;
  app.add_flag("--gb", gb, "scaling up to 1 GB (default 256 MB; needs several GB of RAM)");
  app.add_flag("--quick", quick, "small sizes and short runs (a smoke test of the benchmark itself)");

  auto* thr = app.add_subcommand("throughput", "MB/s and plans/s, parse alone and parse + rules");
  std::string planlint_path, plan;
  int runs = 50;
  auto* st = app.add_subcommand("startup", "median ms of one `planlint check` process on a small plan");
  st->add_option("--planlint", planlint_path, "the planlint executable (default: beside planlint_bench)");
  st->add_option("--plan", plan, "the plan file (default: a generated 8-operator plan)");
  st->add_option("-n,--runs", runs, "runs (after 3 warm-up runs)")->capture_default_str();
  auto* mem = app.add_subcommand("memory", "peak RSS relative to input size");
  mem->add_option("--max-mb", mem_max_mb, "largest input (sizes 1, 4, 16, ... MB)")->capture_default_str();
  std::string child_path;
  auto* child = app.add_subcommand("memory-child", "(internal) measure one input in this process");
  child->add_option("file", child_path)->required();
  bool child_check = false;
  child->add_flag("--check", child_check, "as `planlint check` reads it (check_input)");
  child->group("");
  auto* sc = app.add_subcommand("scaling", "ns/byte from 1 MB to 256 MB (or --gb)");
  sc->add_option("--max-mb", max_mb, "largest size")->capture_default_str();
  sc->add_option("--one-plan-max-mb", one_plan_max_mb, "largest single-plan size")->capture_default_str();
  std::vector<std::string> lsp_args;
  auto* lsp = app.add_subcommand("lsp", "the LSP benchmark, when built");
  lsp->add_option("args", lsp_args, "passed to bench_lsp");
  lsp->allow_extras();
  std::vector<std::string> evlog_args;
  auto* evlog = app.add_subcommand("eventlog", "a generated event log (--mb, default 1000 MB = 10^6 bytes each) read in bounded memory");
  evlog->prefix_command();  // everything after `eventlog` goes to bench_eventlog (see `eventlog --help`)
  evlog->set_help_flag();   // so `eventlog --help` reaches bench_eventlog, whose help lists its options
  auto* proc = app.add_subcommand("process", "whole-process `planlint check --format json` of golden plans, 10,000 small files, "
                                             "100 MB, a 1 GB event log, beside `wc -l`");
  proc->prefix_command();  // everything after `process` goes to bench_process (see `process --help`)
  proc->set_help_flag();   // so `process --help` reaches bench_process, whose help lists its options
  auto* floor = app.add_subcommand("floor", "a one-pass tokenizer floor beside the explain reader (CPU per MB), "
                                            "golden plans and small files");
  floor->prefix_command();  // everything after `floor` goes to bench_floor (see `floor --help`)
  floor->set_help_flag();
  std::vector<std::string> run_paths;
  int repeat = 1;
  bool parse_only = false;
  auto* run = app.add_subcommand("run", "parse (+ rules) the given files or folders N times: a fixed load for profilers");
  run->add_option("paths", run_paths, "files or folders")->required();
  run->add_option("-n,--repeat", repeat, "passes")->capture_default_str();
  run->add_flag("--parse-only", parse_only, "no rules");
  std::string kind, out_path;
  std::size_t n = 0;
  std::uint64_t seed = 1;
  auto* gen = app.add_subcommand("gen", "write a generated input");
  gen->add_option("kind", kind,
                  "formatted (N ops, default 100000) | plans (N bytes of ~40-op plans) | deep (N-deep text tree, default "
                  "2000) | parens (N nested parentheses, default 100000) | long-line (N-byte line, default 1 MB) | "
                  "profile (N nodes, default 10000) | profile-chain (N-deep profile, default 20000) | deep-json (N nested "
                  "arrays) | eventlog-deep (N-deep sparkPlanInfo, default 20000)")
      ->required();
  gen->add_option("-n,--size", n, "the size parameter of the kind");
  gen->add_option("-o,--output", out_path, "output file (default: stdout)");
  gen->add_option("--seed", seed, "random seed")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  if (gb) max_mb = 1024, one_plan_max_mb = 256;
  if (quick) min_seconds = std::min(min_seconds, 0.2), max_mb = std::min<std::size_t>(max_mb, 8),
             one_plan_max_mb = std::min<std::size_t>(one_plan_max_mb, 4), mem_max_mb = 4, runs = 10;

  int rc = 0;
  if (*child) rc = cmd_memory_child(child_path, child_check);
  else if (*gen) rc = cmd_gen(kind, n, out_path, seed);
  else if (*run) rc = cmd_run(run_paths, repeat, parse_only);
  else if (*thr) rc = cmd_throughput(shared, min_seconds, cores);
  else if (*st) rc = cmd_startup(planlint_path, plan, runs);
  else if (*mem) rc = cmd_memory(mem_max_mb);
  else if (*sc) rc = cmd_scaling(max_mb, one_plan_max_mb);
  else if (*proc) {
    std::vector<std::string> args = proc->remaining();
    args.insert(args.begin(), "planlint_bench process");
    std::vector<char*> av;
    for (auto& a : args) av.push_back(a.data());
    av.push_back(nullptr);
    rc = bench_process ? bench_process(static_cast<int>(args.size()), av.data()) : 2;
  } else if (*floor) {
    std::vector<std::string> args = floor->remaining();
    args.insert(args.begin(), "planlint_bench floor");
    std::vector<char*> av;
    for (auto& a : args) av.push_back(a.data());
    av.push_back(nullptr);
    rc = bench_floor ? bench_floor(static_cast<int>(args.size()), av.data()) : 2;
  } else if (*evlog) {
    evlog_args = evlog->remaining();
    evlog_args.insert(evlog_args.begin(), "planlint_bench eventlog");
    std::vector<char*> av;
    for (auto& a : evlog_args) av.push_back(a.data());
    av.push_back(nullptr);
    rc = bench_eventlog ? bench_eventlog(static_cast<int>(evlog_args.size()), av.data()) : 2;
  } else if (*lsp) {
    auto extra = lsp->remaining();
    lsp_args.insert(lsp_args.end(), extra.begin(), extra.end());
    rc = cmd_lsp(lsp_args);
  } else {
    std::printf("planlint_bench %s, %u hardware threads\n\n", PLANLINT_VERSION, std::thread::hardware_concurrency());
    rc |= cmd_throughput(shared, min_seconds, cores);
    std::printf("\n");
    rc |= cmd_startup(planlint_path, plan, runs);
    std::printf("\n");
    rc |= cmd_memory(mem_max_mb);
    std::printf("\n");
    rc |= cmd_scaling(max_mb, one_plan_max_mb);
    std::printf("\n");
    rc |= cmd_lsp({});
  }
  remove_temp();
  return rc;
}
