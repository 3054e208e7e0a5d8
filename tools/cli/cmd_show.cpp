// `planlint show FILE...`: the operator tree in the terminal with rows, time, share of time and
// findings on their operators; `--format dot` prints the DAG for Graphviz.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "lint/core/executions.hpp"
#include "lint/visual/show.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"
#include "tools/cli/write_reports.hpp"

namespace planlint::cli {

namespace {
struct ShowArgs {
  std::vector<std::string> paths;
  std::string color = "auto";
  std::string format = "text";
  std::size_t width = 0;  // 0: the terminal's width
  std::size_t top = 5;
  bool no_config = false;
  std::string max_input_size;
  long long execution = -1;  // -1: every execution (the trivial ones folded)
};

// --width, else $COLUMNS, else the terminal's width (ioctl), else 100.
std::size_t terminal_width(std::size_t given) {
  if (given) return given;
  if (const char* c = std::getenv("COLUMNS"); c && *c) {
    char* end = nullptr;
    long v = std::strtol(c, &end, 10);
    if (end && !*end && v > 0) return static_cast<std::size_t>(v);
  }
  struct winsize ws {};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 100;
}

int run_show(const ShowArgs& a) {
  auto max_input = max_input_size_option(a.max_input_size);
  if (!max_input) {
    std::cerr << "planlint: error: --max-input-size: `" << a.max_input_size << "` is not a size\n";
    return 2;
  }
  ShowOptions opts;
  opts.color = use_color(a.color, true);
  std::size_t width = terminal_width(a.width);
  opts.width = width < 40 ? 40 : width;
  opts.top = a.top;
  std::optional<long long> execution;
  if (a.execution >= 0) execution = a.execution;
  return for_each_linted_file(a.paths, !a.no_config, /*finish=*/false, [&](LintedFile& f) {
           // Several SQL executions and no --execution: list them by time, show the main ones.
           const ExecutionList list = list_executions(f.result.parse, f.result.diagnostics);
           keep_shown_executions(list, f.result.parse, f.result.diagnostics);
           if (a.format == "dot") {
             std::cout << show_dot(f.result);
             return;
           }
           if (list.folds()) std::cout << executions_text(list, opts.width) << '\n';
           std::cout << show_text(f.result, opts);
         }, *max_input, execution).value_or(2);
}
}  // namespace

void register_show(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ShowArgs>();
  CLI::App* cmd = app.add_subcommand("show", "Show the operator tree with rows, time, share of time and findings");
  cmd->add_option("files", args->paths, "Plan files (explain text, Query Profile JSON, event log); '-' or none: stdin");
  cmd->add_option("--format,--output-format", args->format, "text (default) or dot (Graphviz)")
      ->check(CLI::IsMember({"text", "dot"}));
  cmd->add_option("--color", args->color, "auto (default: only on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--execution", args->execution,
                  "Event logs, History Server answers: show only this SQL execution id (default: list the executions "
                  "by time, fold the trivial ones, show the others)");
  cmd->add_option("--width", args->width, "Cut lines to this many columns (default: $COLUMNS, the terminal's width, or 100)");
  cmd->add_option("--top", args->top, "Operators in the top-by-time table (default 5; 0: none)");
  cmd->add_flag("--no-config", args->no_config, "Ignore .planlint.toml / pyproject.toml");
  cmd->add_option("--max-input-size", args->max_input_size, kMaxInputSizeHelp);
  cmd->callback([args, &exit_code] { exit_code = run_show(*args); });
}

}  // namespace planlint::cli
