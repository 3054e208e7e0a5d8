// `planlint check`'s options as parsed from the command line (cmd_check.cpp), and the modes of
// check other than checking files: --why, --format ndjson, --history-server, and --against's
// comparison (tools/cli/check_modes.cpp).
#pragma once

#include <string>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/settings.hpp"
#include "lint/engine/check_session.hpp"
#include "lint/output/output.hpp"
#include "tools/cli/history_server_fetch.hpp"
#include "tools/cli/rule_options.hpp"
#include "tools/cli/write_reports.hpp"

namespace planlint::cli {

// The options check shares with diff and history (format, --fail-on, selection, config, --color,
// -o) come from RuleOptions; the rest are check's own.
struct CheckOptions : RuleOptions {
  std::vector<std::string> paths;
  bool folder_by_default = false;  // no path and nothing piped in: the current folder is checked
  std::string write_baseline, baseline;
  std::vector<std::string> include, exclude;
  unsigned jobs = 0;
  bool statistics = false;
  std::string stdin_filename;
  long long execution = -1;  // -1: all executions
  std::string against;  // --against REF: also diff each file with its version at REF
  std::string max_input_size;
  bool show_settings = false, show_files = false;
  std::string why;  // --why RULE
  std::string history_server;  // --history-server URL
  std::vector<std::string> apps;  // --app APP[,APP...] (repeatable); none: the one the server lists
  FetchOptions fetch;
};

// Prints "planlint: error: MESSAGE" (made visible); returns 2.
int usage_error(const std::string& message);

// The folder a file's config is searched from ("." for a bare name).
std::filesystem::path folder_of(const std::string& path);

// How check writes its reports (format, -o, --color, --statistics, reader messages on stderr).
ReportTarget report_target(const CheckOptions& opt, OutputFormat format);

// `check --why RULE FILE...`: per candidate operator, what the rule looked for and what was missing.
int run_why(const std::string& name, const std::vector<std::string>& inputs, const std::vector<Config>& configs,
            const std::vector<std::string>& displays);

// --format ndjson: records on stdin, finding records on stdout, streaming; exit 0.
int run_ndjson_check(const CheckOptions& opt, ConfigCache& configs, const Settings& cli);

// --history-server URL [--app APP...] [--execution N]: fetch the SQL executions of each application
// and check them; without --app, the server's only application (several: exit 2 naming them).
// Applications that could not be read are named at the end (exit 2); once the server itself fails
// (refused, closed, timed out), the rest are not asked for.
int check_history_server(const CheckOptions& opt, const ProjectConfig& top, const Settings& cli, OutputFormat format,
                         Severity fail_on, double max_input);

// `check --against REF` through git and lint/diff/.
Comparison against_git(const std::string& ref);

}  // namespace planlint::cli
