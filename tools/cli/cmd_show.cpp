// `planlint show FILE...`: the operator tree in the terminal with rows, time, share of time and
// findings on their operators; `--format dot` prints the DAG for Graphviz.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "lint/visual/show.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"

namespace planlint::cli {

namespace {
struct ShowArgs {
  std::vector<std::string> paths;
  std::string color = "auto";
  std::string format = "text";
  std::size_t width = 100;
  bool no_config = false;
};

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && !(term && std::string(term) == "dumb");
}

int run_show(const ShowArgs& a) {
  ShowOptions opts;
  opts.color = use_color(a.color);
  opts.width = a.width < 40 ? 40 : a.width;
  return for_each_linted_file(a.paths, !a.no_config, /*finish=*/false, [&](LintedFile& f) {
           std::cout << (a.format == "dot" ? show_dot(f.result) : show_text(f.result, opts));
         }).value_or(2);
}
}  // namespace

void register_show(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ShowArgs>();
  CLI::App* cmd = app.add_subcommand("show", "Show the operator tree with rows, time, share of time and findings");
  cmd->add_option("files", args->paths, "Plan files (explain text, Query Profile JSON, event log); '-' or none: stdin");
  cmd->add_option("--format", args->format, "text (default) or dot (Graphviz)")
      ->check(CLI::IsMember({"text", "dot"}));
  cmd->add_option("--color", args->color, "auto (default: only on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--width", args->width, "Cut lines to this many columns (default 100)");
  cmd->add_flag("--no-config", args->no_config, "Ignore .planlint.toml / pyproject.toml");
  cmd->callback([args, &exit_code] { exit_code = run_show(*args); });
}

}  // namespace planlint::cli
