// `planlint_bench floor`: the one-pass tokenizer floor of issue 37 item 2, beside the explain reader.
//
// The floor is what any reader of explain text minimally has to do, done once over the bytes and
// nothing else: no repairs, no model, no expressions, no rules. One scalar pass, a byte at a time,
// driven by a 256-entry class table:
//   - split lines (every byte is looked at; `\n` ends a line, a `\r` before it is dropped);
//   - tree guides and indentation: the leading run of ' ', ':', '|', '+', '-' gives the line's
//     depth (its column) and whether it is a tree line (`+- ` / `:- `);
//   - an optional `*(N) ` whole-stage-codegen or `(N) ` node-number prefix, then the head word(s):
//     the operator name of a tree line or a node header, the key of a detail line (`Output [4]: ...`,
//     `Batched: true`); a `Key: value` line is told by ': ' at nesting depth 0 after the head;
//   - the rest: bracket / parenthesis / brace nesting, and the top-level fields (each `[...]`,
//     `(...)` group at depth 0 and each run between `, ` at depth 0).
// Every token (guide, head, key, value, group, field) is stored as {offset, length, kind, depth}
// in a vector that is reused from file to file, as a reader would keep them for the next stage;
// the number of tokens and a checksum are printed so that nothing is optimised away.
// It does not copy text, build strings, look up operator names, parse expressions, map columns
// back to the user's text, or allocate per line.
//
//   planlint_bench floor [--shared DIR] [--seconds S] [--small-files N]
//        in-process, the thread's CPU time: the floor, `parse_input` (the reader) and `lint_text`
//        (reader + rules) over the Spark golden plans and N small generated plans, MB per CPU-second,
//        ns per byte and the ratio to the floor.
//   planlint_bench floor --child PATH... [--child-jobs N]
//        a whole process that reads every file (a folder: its files, recursively) with one
//        open / fstat / read / close each and tokenizes it, N workers taking the files in turn
//        (default 1): the process floor that `planlint_bench process` runs beside `planlint check`
//        and `wc -l`.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint/core/config.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/input.hpp"
#include "parser/registry/parse.hpp"
#include "tools/gen/generate.hpp"

namespace {

namespace fs = std::filesystem;
constexpr double kMB = 1e6;  // MB = 10^6 bytes

enum Cls : std::uint8_t { kOther = 0, kNewline, kGuide, kOpen, kClose, kComma, kColon, kSpace, kWord, kCr };

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> c{};
  for (int b = 'a'; b <= 'z'; ++b) c[static_cast<std::size_t>(b)] = kWord;
  for (int b = 'A'; b <= 'Z'; ++b) c[static_cast<std::size_t>(b)] = kWord;
  for (int b = '0'; b <= '9'; ++b) c[static_cast<std::size_t>(b)] = kWord;
  c['_'] = kWord;
  c['\n'] = kNewline;
  c['\r'] = kCr;
  c['|'] = kGuide, c['+'] = kGuide, c['-'] = kGuide;
  c['('] = kOpen, c['['] = kOpen, c['{'] = kOpen;
  c[')'] = kClose, c[']'] = kClose, c['}'] = kClose;
  c[','] = kComma;
  c[':'] = kColon;
  c[' '] = kSpace;
  return c;
}
constexpr std::array<std::uint8_t, 256> kClass = make_classes();

enum TokKind : std::uint16_t { kTokGuide, kTokHead, kTokKey, kTokValue, kTokGroup, kTokField };

struct Token {
  std::uint32_t off = 0, len = 0;
  std::uint16_t kind = 0, depth = 0;
};

struct Floor {
  std::vector<Token> toks;
  std::size_t lines = 0, tree_lines = 0, tokens = 0;
  std::uint64_t check = 0;

  // One pass over `t`.
  void run(std::string_view t) {
    toks.clear();
    const auto* p = reinterpret_cast<const unsigned char*>(t.data());
    const std::size_t n = t.size();
    std::size_t i = 0;
    while (i < n) {
      const std::size_t start = i;
      // tree guides and indentation
      while (i < n && (kClass[p[i]] == kGuide || kClass[p[i]] == kSpace || kClass[p[i]] == kColon)) ++i;
      const std::size_t indent = i - start;
      if (indent >= 3 && p[i - 1] == ' ' && p[i - 2] == '-' && (p[i - 3] == '+' || p[i - 3] == ':')) ++tree_lines;
      if (indent > 0) toks.push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(indent), kTokGuide, 0});
      // `*(N) ` / `* ` / `(N) ` prefix
      if (i < n && p[i] == '*') {
        ++i;
        while (i < n && p[i] == ' ') ++i;
      }
      if (i < n && p[i] == '(') {
        std::size_t k = i + 1;
        while (k < n && p[k] >= '0' && p[k] <= '9') ++k;
        if (k > i + 1 && k < n && p[k] == ')') {
          i = k + 1;
          while (i < n && p[i] == ' ') ++i;
        }
      }
      // head: words and single spaces
      const std::size_t head = i;
      while (i < n && (kClass[p[i]] == kWord || (p[i] == ' ' && i + 1 < n && kClass[p[i + 1]] == kWord))) ++i;
      bool key = false;
      if (i < n && p[i] == ':' && i + 1 < n && (p[i + 1] == ' ' || p[i + 1] == '\n')) key = true;
      if (i > head)
        toks.push_back({static_cast<std::uint32_t>(head), static_cast<std::uint32_t>(i - head),
                        static_cast<std::uint16_t>(key ? kTokKey : kTokHead), 0});
      // the rest of the line: nesting, top-level groups and fields
      unsigned depth = 0;
      std::size_t field = i, group = i;
      for (; i < n; ++i) {
        const std::uint8_t c = kClass[p[i]];
        if (c <= kGuide || c >= kSpace) {
          if (c == kNewline) break;
          continue;
        }
        switch (c) {
          case kOpen:
            if (depth++ == 0) group = i;
            break;
          case kClose:
            if (depth > 0 && --depth == 0)
              toks.push_back({static_cast<std::uint32_t>(group), static_cast<std::uint32_t>(i + 1 - group), kTokGroup, 0});
            break;
          case kComma:
            if (depth == 0) {
              toks.push_back({static_cast<std::uint32_t>(field), static_cast<std::uint32_t>(i - field), kTokField, 0});
              field = i + 1;
            }
            break;
          case kColon:
            if (depth == 0 && !key && i + 1 < n && p[i + 1] == ' ') {
              key = true;
              field = i + 2;
            }
            break;
          case kCr: break;
          default: break;
        }
      }
      std::size_t end = i;
      if (end > field && p[end - 1] == '\r') --end;
      if (end > field)
        toks.push_back({static_cast<std::uint32_t>(field), static_cast<std::uint32_t>(end - field),
                        static_cast<std::uint16_t>(key ? kTokValue : kTokField), static_cast<std::uint16_t>(depth)});
      ++lines;
      if (i < n) ++i;  // the newline
    }
    tokens += toks.size();
    for (const Token& k : toks) check += k.off ^ (k.len * 31u) ^ k.kind;
  }
};

double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

using Texts = std::vector<std::shared_ptr<const std::string>>;

std::size_t bytes_of(const Texts& t) {
  std::size_t n = 0;
  for (const auto& s : t) n += s->size();
  return n;
}

// CPU seconds per pass over `texts` of `f`, repeated for at least `seconds` (after one warm-up
// pass); the median of 5 timed blocks.
template <class F>
double per_pass(const Texts& texts, double seconds, F&& f) {
  f(texts);
  std::vector<double> blocks;
  for (int b = 0; b < 5; ++b) {
    const double t0 = thread_cpu();
    std::size_t passes = 0;
    do {
      f(texts);
      ++passes;
    } while (thread_cpu() - t0 < seconds / 5);
    blocks.push_back((thread_cpu() - t0) / static_cast<double>(passes));
  }
  std::sort(blocks.begin(), blocks.end());
  return blocks[2];
}

void report(const char* name, const Texts& texts, double seconds) {
  if (texts.empty()) return;
  const double mb = static_cast<double>(bytes_of(texts)) / kMB;
  Floor counted;
  for (const auto& t : texts) counted.run(*t);
  std::printf("  %s: %zu files, %.2f MB, %zu lines (%zu tree lines), %zu tokens (check %llx)\n", name, texts.size(), mb,
              counted.lines, counted.tree_lines, counted.tokens, static_cast<unsigned long long>(counted.check));
  Floor fl;
  const double floor_s = per_pass(texts, seconds, [&](const Texts& ts) {
    for (const auto& t : ts) fl.run(*t);
  });
  std::size_t sink = 0;
  const double read_s = per_pass(texts, seconds, [&](const Texts& ts) {
    for (const auto& t : ts) sink += planlint::parse_input(t, "plan.explain.txt").plans.size();
  });
  planlint::Config config;
  const double lint_s = per_pass(texts, seconds, [&](const Texts& ts) {
    for (const auto& t : ts) sink += planlint::lint_text(t, "plan.explain.txt", config).diagnostics.size();
  });
  const double files = static_cast<double>(texts.size());
  auto line = [&](const char* what, double s) {
    std::printf("    %-26s %8.2f ms CPU per pass  %7.1f MB per CPU-second  %6.2f ns/byte  %6.2f us per file  %5.2fx the floor\n",
                what, s * 1e3, mb / s, s * 1e9 / (mb * kMB), s * 1e6 / files, s / floor_s);
  };
  line("one-pass tokenizer floor", floor_s);
  line("reader (parse_input)", read_s);
  line("reader + rules (lint_text)", lint_s);
  if (sink == 0) std::printf("    (no plans read)\n");
  std::fflush(stdout);
}

// The process floor: read each file once and tokenize it, with `jobs` workers taking the files in
// turn (as `planlint check` does: an index shared by the workers, each with its own buffer and
// token vector), so that the floor can be compared with planlint at the same number of workers.
int child(const std::vector<std::string>& paths, unsigned jobs) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file(ec)) files.push_back(e.path().string());
    } else {
      files.push_back(p);
    }
  }
  struct Worker {
    Floor fl;
    std::string buf;
    std::size_t files = 0;
  };
  auto one = [](Worker& w, const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      w.buf.resize(static_cast<std::size_t>(st.st_size));
      std::size_t got = 0;
      while (got < w.buf.size()) {
        const ssize_t r = ::read(fd, w.buf.data() + got, w.buf.size() - got);
        if (r <= 0) break;
        got += static_cast<std::size_t>(r);
      }
      w.buf.resize(got);
      w.fl.run(w.buf);
      ++w.files;
    }
    ::close(fd);
  };
  jobs = static_cast<unsigned>(std::clamp<std::size_t>(jobs, 1, std::max<std::size_t>(1, files.size())));
  std::vector<Worker> workers(jobs);
  std::atomic<std::size_t> next{0};
  auto work = [&](Worker& w) {
    for (std::size_t i = next++; i < files.size(); i = next++) one(w, files[i]);
  };
  if (jobs == 1) {
    work(workers[0]);
  } else {
    std::vector<std::thread> pool;
    for (Worker& w : workers) pool.emplace_back(work, std::ref(w));
    for (auto& t : pool) t.join();
  }
  std::size_t done = 0, lines = 0, tokens = 0;
  std::uint64_t check = 0;
  for (const Worker& w : workers) done += w.files, lines += w.fl.lines, tokens += w.fl.tokens, check += w.fl.check;
  std::printf("%zu files, %zu lines, %zu tokens, check %llx\n", done, lines, tokens, static_cast<unsigned long long>(check));
  return done > 0 ? 0 : 1;
}

}  // namespace

int bench_floor(int argc, char** argv) {
  CLI::App app{"planlint_bench floor: a one-pass tokenizer over explain text beside the reader (issue 37 item 2)"};
  std::string shared;
  double seconds = 2.0;
  std::size_t small_files = 10000;
  std::vector<std::string> child_paths;
  unsigned child_jobs = 1;
  app.add_option("--shared", shared, "the ../shared directory (holds corpus/spark)");
  app.add_option("--seconds", seconds, "CPU seconds per figure (5 blocks, median)")->capture_default_str();
  app.add_option("--small-files", small_files, "how many small generated plans")->capture_default_str();
  app.add_option("--child", child_paths, "(internal) the process floor: read and tokenize these files / folders");
  app.add_option("--child-jobs", child_jobs, "(internal) workers of the process floor")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (!child_paths.empty()) return child(child_paths, child_jobs);
  std::error_code ec;
  if (shared.empty()) {
    if (const char* env = std::getenv("PLANLINT_SHARED_DIR")) shared = env;
    else
      for (fs::path p = fs::read_symlink("/proc/self/exe", ec).parent_path(); p.has_relative_path(); p = p.parent_path())
        if (fs::is_directory(p.parent_path() / "shared" / "corpus")) {
          shared = (p.parent_path() / "shared").string();
          break;
        }
  }
  std::printf("== floor: a one-pass tokenizer (lines, tree guides, heads, top-level fields; tools/bench/bench_floor.cpp) "
              "beside the reader, in-process, the thread's CPU time (MB = 10^6 bytes)\n");
  Texts golden;
  const fs::path dir = fs::path(shared) / "corpus" / "spark";
  if (!shared.empty() && fs::is_directory(dir)) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().string().ends_with(".explain.txt")) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string err;
      if (auto t = planlint::read_input(f, err)) golden.push_back(std::make_shared<const std::string>(std::move(*t)));
    }
  }
  if (golden.empty()) std::printf("  (../shared/corpus/spark not found: golden plans skipped; --shared DIR)\n");
  else report("Spark golden plans (*.explain.txt)", golden, seconds);
  Texts small;
  for (std::size_t i = 0; i < small_files; ++i)
    small.push_back(std::make_shared<const std::string>(planlint::gen::formatted_plan(8 + i % 8, i + 1)));
  report("small generated plans (8-15 operators)", small, seconds);
  return 0;
}
