// planlint: lint Apache Spark / Databricks query plans.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "lint/catalog/all_rules.hpp"
#include "tools/cli/checked_stdout.hpp"
#include "tools/cli/commands.hpp"

namespace {
// Edit distance, for "did you mean check?".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
// Out of memory where no catch can reach it (through a noexcept function, in a worker thread):
// still a message and exit 2, not an abort and a core dump. Anything else goes to the default
// handler ("terminate called after ...").
std::terminate_handler g_default_terminate = nullptr;
[[noreturn]] void on_terminate() {
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      static const char message[] = "planlint: error: out of memory\n";
      ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
      (void)ignored;
      std::_Exit(2);
    } catch (...) {
    }
  }
  if (g_default_terminate) g_default_terminate();
  std::abort();
}

// Standard output is written through: a full disk, a closed descriptor or a reader that left
// (with SIGPIPE ignored) is an error, never a silent success. Exit 2 then.
int check_stdout(int rc) {
  if (int err = planlint::cli::stdout_error()) {
    std::cerr << "planlint: error: writing standard output: " << std::strerror(err) << "\n";
    return 2;
  }
  return rc;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"planlint: find what makes a Spark / Databricks query plan slow, and how to fix it"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("planlint ") + PLANLINT_VERSION);
  g_default_terminate = std::set_terminate(on_terminate);
  planlint::cli::use_checked_stdout();
  planlint::register_all_rules();
  int exit_code = 0;
  planlint::cli::register_parse(app, exit_code);
  planlint::cli::register_check(app, exit_code);
  planlint::cli::register_rules(app, exit_code);
  planlint::cli::register_lsp(app, exit_code);
  planlint::cli::register_show(app, exit_code);
  planlint::cli::register_report(app, exit_code);
  planlint::cli::register_diff(app, exit_code);
  planlint::cli::register_history(app, exit_code);
  planlint::cli::register_mcp(app, exit_code);
  // An unknown first word is a mistyped subcommand, not a file: say so and suggest the nearest.
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1];
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), word) == names.end()) {
      std::string best = "check";
      std::size_t best_d = word.size() + 10;
      for (const auto& n : names)
        if (std::size_t d = distance(word, n); d < best_d) best_d = d, best = n;
      std::cerr << "planlint: error: unknown command `" << word << "`";
      if (best_d <= std::max<std::size_t>(2, best.size() / 2)) std::cerr << "; did you mean `" << best << "`?";
      else std::cerr << "; to check a file: planlint check " << word;
      std::cerr << "\ncommands:";
      for (const auto& n : names) std::cerr << " " << n;
      std::cerr << " (planlint --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return check_stdout(rc == 0 ? 0 : 2);  // usage errors are exit 2
  } catch (const std::bad_alloc&) {
    // Out of memory outside a per-file boundary (those name the file): an error, not an abort.
    std::cerr << "planlint: error: out of memory\n";
    return 2;
  } catch (const std::length_error&) {
    std::cerr << "planlint: error: out of memory (a buffer larger than this system allows)\n";
    return 2;
  }
  return check_stdout(exit_code);
}
