// Helpers shared by the test files: reading files, finding ../shared, golden comparisons and
// running the real planlint executable.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace planlint::test {

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

// ../shared next to the checkout (or $PLANLINT_SHARED_DIR). Empty when absent: the caller
// then skips with a MESSAGE, so a lone clone still passes.
inline std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("PLANLINT_SHARED_DIR")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
  }
  auto p = source_dir().parent_path() / "shared";
  if (std::filesystem::is_directory(p / "corpus")) return p;
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
