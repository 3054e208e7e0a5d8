// Rule settings shared by the commands that report findings (check, diff, history): --select,
// --extend-select, --ignore, --severity, --set, --format (--output-format), --fail-on, -q, --exit-zero, --config / --no-config, --color,
// -o. diff and history use these; check has more options of its own (cmd_check.cpp) but writes
// and exits the same way (tools/cli/write_reports.hpp, lint/engine/check_session.hpp exit_code).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lint/core/config.hpp"
#include "lint/core/settings.hpp"
#include "lint/output/output.hpp"

namespace planlint::cli {

struct RuleOptions {
  std::string format = "text";
  std::string fail_on = "warning";
  bool exit_zero = false;
  std::vector<std::string> select, extend_select, ignore, severity, set;
  std::string config_file;
  bool no_config = false;
  std::string color = "auto";
  std::string output;
  bool quiet = false;  // -q: the findings (and errors) only, no summary line or notes
  std::string sarif_help_uri;  // --sarif-help-uri: each SARIF rule's helpUri ({name}, {code})
};

// Adds --sarif-help-uri (check registers its options itself, diff and history through
// add_rule_options).
void add_sarif_help_uri(CLI::App* cmd, RuleOptions& opt);

void add_rule_options(CLI::App* cmd, RuleOptions& opt);

// The command line's rule settings, validated as for check and the editor; nullopt after printing
// a usage error.
std::optional<Settings> cli_settings(const RuleOptions& opt);

// The config for `path` (the project's nearest config file unless --no-config / --config) with the
// command line's settings on top; nullopt after printing an error.
std::optional<Config> config_for(const RuleOptions& opt, const std::string& path, const Settings& cli);

// Prints the unreadable inputs' errors, writes the reports (write_reports) and returns exit_code:
// 2 when `unreadable` or a report has an error, else 1 when a finding reaches --fail-on (unless
// --exit-zero), else 0.
int finish_reports(const RuleOptions& opt, const std::vector<FileReport>& reports, bool unreadable);

}  // namespace planlint::cli
