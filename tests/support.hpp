// Helpers shared by the test files: reading files, finding ../shared (or skipping without it),
// golden comparisons and running the real planlint executable.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <vector>

namespace planlint::test {

inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * kMiB;

inline std::filesystem::path source_dir() { return PLANLINT_SOURCE_DIR; }
inline std::filesystem::path corpus_dir() { return source_dir() / "corpus"; }

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// ../shared next to the checkout, or $PLANLINT_SHARED_DIR when that is set (then that folder
// only). Empty when the folder holds no corpus/.
inline std::optional<std::filesystem::path> shared_dir() {
  std::filesystem::path p = source_dir().parent_path() / "shared";
  if (const char* env = std::getenv("PLANLINT_SHARED_DIR"); env && *env) p = env;
  if (std::filesystem::is_directory(p / "corpus")) return p;
  return std::nullopt;
}

// Whether a missing ../shared is a failure rather than a skip: in CI (CI=true) or with
// PLANLINT_REQUIRE_SHARED=1, so that the nets over the shared corpus cannot silently drop out.
inline bool shared_required() {
  const char* ci = std::getenv("CI");
  const char* req = std::getenv("PLANLINT_REQUIRE_SHARED");
  return (ci && std::string_view(ci) == "true") || (req && std::string_view(req) == "1");
}

// Test cases that skipped themselves in this run. tests/main.cpp reads it: a run in which every
// test case skipped exits 77, which CTest reports as "Skipped" (each CTest runs one case).
struct SkipState {
  bool current = false;             // the running test case called skip()
  std::vector<std::string> names;   // skipped test cases
  std::size_t ran = 0;              // test cases started
};
inline SkipState& skip_state() {
  static SkipState s;
  return s;
}

// Ends nothing by itself: marks the running test case skipped and says why; the caller returns.
inline void skip(const std::string& why) {
  skip_state().current = true;
  MESSAGE("skipped: " << why);
}

// A file or folder of the shared corpus is missing: a failure if shared_required(), else a skip.
inline void shared_missing(const std::string& what) {
  if (shared_required())
    FAIL_CHECK(what << " (CI=true or PLANLINT_REQUIRE_SHARED=1 require the shared corpus: put it at ../shared "
                       "or set PLANLINT_SHARED_DIR)");
  else
    skip(what + " (set PLANLINT_SHARED_DIR to run it)");
}

// For a test that reads ../shared as well as corpus/ and runs without it: a failure if
// shared_required(), else a note that the run was partial.
inline void without_shared(const std::string& note) {
  if (shared_required())
    FAIL_CHECK("../shared is absent (CI=true or PLANLINT_REQUIRE_SHARED=1 require it): " << note);
  else
    MESSAGE("../shared is absent: " << note);
}

// The shared corpus for a test that needs it. When it is absent the test fails if
// shared_required(), and is otherwise marked skipped (the caller returns on nullopt).
inline std::optional<std::filesystem::path> require_shared(const std::string& what = "../shared is not present") {
  if (auto p = shared_dir()) return p;
  shared_missing(what);
  return std::nullopt;
}
// Compare `actual` with the golden file; with PLANLINT_UPDATE_GOLDENS=1 rewrite it instead.
inline void check_golden(const std::filesystem::path& golden, const std::string& actual) {
  if (std::getenv("PLANLINT_UPDATE_GOLDENS")) {
    write_file(golden, actual);
    return;
  }
  INFO("golden: " << golden.string() << " (set PLANLINT_UPDATE_GOLDENS=1 to rewrite)");
  REQUIRE(std::filesystem::exists(golden));
  CHECK(read_file(golden) == actual);
}

// A fresh folder under the system temporary folder (any old one of that name removed first),
// removed again at the end of the scope. `dir` is its path.
struct Scratch {
  std::filesystem::path dir;
  explicit Scratch(const char* name) : dir(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

// `var` set to `value` for the scope, and back to what it was at the end (a process-wide switch a
// test turns, such as explain::split_wide or explain::lead_wide).
template <class T>
class SetForScope {
 public:
  SetForScope(T& var, T value) : var_(var), was_(var) { var_ = value; }
  ~SetForScope() { var_ = was_; }
  SetForScope(const SetForScope&) = delete;
  SetForScope& operator=(const SetForScope&) = delete;

 private:
  T& var_;
  T was_;
};

// `p` in single quotes, for a shell command line (the test paths hold no quote).
inline std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

struct RunResult {
  int exit_code = -1;
  std::string out;
};

// Run a shell command line; its stdout captured, with its exit code.
inline RunResult run_shell(const std::string& cmd) {
  RunResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Run the planlint executable with a shell-quoted argument string; stdout captured,
// stderr appended when `with_stderr`.
inline RunResult run_planlint(const std::string& args, bool with_stderr = false) {
  return run_shell(std::string("'") + PLANLINT_BINARY + "' " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace planlint::test
