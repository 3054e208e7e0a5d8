// `planlint history FILE`: regressed statements in an export of system.query.history
// (lint/history/, docs/history.md). Exit codes as for check.
#include <iostream>
#include <memory>

#include "lint/history/history.hpp"
#include "lint/core/input.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/rule_options.hpp"

namespace planlint::cli {

namespace {

struct HistoryOptions {
  std::vector<std::string> paths;
  std::string now;
  RuleOptions rules;
};

int run_history(const HistoryOptions& opt) {
  auto cli = cli_settings(opt.rules);
  if (!cli) return 2;
  std::optional<double> now;
  if (!opt.now.empty()) {
    now = parse_timestamp_ms(opt.now);
    if (!now) {
      std::cerr << "planlint: error: --now: `" << opt.now << "` is not a timestamp (2024-05-01T00:00:00Z)\n";
      return 2;
    }
  }
  std::vector<FileReport> reports;
  bool unreadable = false;
  for (const auto& path : opt.paths.empty() ? std::vector<std::string>{"-"} : opt.paths) {
    auto config = config_for(opt.rules, path, *cli);
    if (!config) return 2;
    std::string error;
    auto text = read_input(path, error);
    if (!text) {
      std::cerr << "planlint: error: " << error << "\n";
      unreadable = true;
      continue;
    }
    reports.push_back(check_history(std::move(*text), path, *config, now));
  }
  return finish_reports(opt.rules, reports, unreadable);
}

}  // namespace

void register_history(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<HistoryOptions>();
  CLI::App* cmd = app.add_subcommand(
      "history", "Report statements whose recent p95 grew against their baseline in a system.query.history export");
  cmd->footer(
      "Input: CSV with a header row or JSON lines (columns: docs/history.md). The recent window ends at the\n"
      "latest start_time in the file unless --now is given. Rule: query-regressed (PLH001); windows and\n"
      "factor via --set query-regressed.OPTION=VALUE. Exit status as for check.");
  cmd->add_option("paths", opt->paths, "Export files ('-' or nothing: standard input)");
  cmd->add_option("--now", opt->now, "End of the recent window (default: the latest start_time in the file)");
  add_rule_options(cmd, opt->rules);
  cmd->callback([opt, &exit_code] { exit_code = run_history(*opt); });
}

}  // namespace planlint::cli
