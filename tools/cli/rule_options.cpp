#include "tools/cli/rule_options.hpp"

#include <iostream>

#include "lint/core/config_file.hpp"
#include "lint/core/sanitize.hpp"
#include "lint/engine/check_session.hpp"
#include "tools/cli/write_reports.hpp"

namespace planlint::cli {

namespace {

// Made visible as check's usage errors are: a control character in an argument is shown, not sent
// to the terminal.
int usage(const std::string& message) {
  std::cerr << "planlint: error: " << visible(message) << "\n";
  return 2;
}

bool split(const std::string& s, std::string& key, std::string& value) {
  std::size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  key = s.substr(0, eq);
  value = s.substr(eq + 1);
  return true;
}

}  // namespace

void add_sarif_help_uri(CLI::App* cmd, RuleOptions& opt) {
  cmd->add_option("--sarif-help-uri", opt.sarif_help_uri,
                  "--format sarif: each rule's helpUri, an absolute URI with {name} or {code} (e.g. "
                  "https://example.org/planlint/docs/rules/{name}.md); none by default")
      ->check([](const std::string& v) {
        return valid_help_uri_template(v) ? std::string() : "not an absolute URI (scheme:..., no blanks): " + visible(v);
      });
}

void add_rule_options(CLI::App* cmd, RuleOptions& opt) {
  cmd->add_option("--format,--output-format", opt.format, "Output format")
      ->check(CLI::IsMember({"text", "full", "concise", "json", "sarif", "github", "junit"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", opt.fail_on, "Lowest severity that fails (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  cmd->add_flag("--exit-zero", opt.exit_zero, "Exit 0 even when there are findings (not on errors)");
  cmd->add_option("--select", opt.select, "Only these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--extend-select", opt.extend_select, "Also these rules, on top of the selection (as ruff's)")
      ->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--ignore", opt.ignore, "Skip these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--severity", opt.severity, "Override a rule's severity: RULE=error|warning|info")
      ->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--set", opt.set, "Set a threshold: RULE.OPTION=VALUE or OPTION=VALUE")->delimiter(',')->allow_extra_args(false);
  auto* config = cmd->add_option("--config", opt.config_file, "Use this config file instead of searching one");
  auto* no_config = cmd->add_flag("--no-config", opt.no_config, "Ignore config files");
  config->excludes(no_config);
  cmd->add_option("--color", opt.color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", opt.output, "Write the report to FILE instead of standard output");
  cmd->add_flag("-q,--quiet", opt.quiet, "Print the findings and errors only: no summary line, no notes");
  add_sarif_help_uri(cmd, opt);
}

std::optional<Settings> cli_settings(const RuleOptions& opt) {
  // The same validation and merge as check and the editor (lint/core/settings.hpp).
  Settings cli;
  std::string err;
  for (const auto& s : opt.select)
    if (!settings_select(cli, s, err)) return usage("--select: " + err), std::nullopt;
  for (const auto& s : opt.extend_select)
    if (!settings_extend_select(cli, s, err)) return usage("--extend-select: " + err), std::nullopt;
  for (const auto& s : opt.ignore)
    if (!settings_ignore(cli, s, err)) return usage("--ignore: " + err), std::nullopt;
  for (const auto& s : opt.severity) {
    std::string k, v;
    if (!split(s, k, v)) return usage("--severity expects RULE=LEVEL, got `" + s + "`"), std::nullopt;
    if (!settings_severity(cli, k, v, err)) return usage("--severity: " + err), std::nullopt;
  }
  for (const auto& s : opt.set) {
    std::string k, v;
    if (!split(s, k, v)) return usage("--set expects RULE.OPTION=VALUE or OPTION=VALUE, got `" + s + "`"), std::nullopt;
    if (!settings_threshold(cli, k, v, err)) return usage("--set: " + err), std::nullopt;
  }
  return cli;
}

std::optional<Config> config_for(const RuleOptions& opt, const std::string& path, const Settings& cli) {
  Config base;
  if (!opt.no_config) {
    ConfigError ce;
    if (!opt.config_file.empty()) {
      auto pc = load_config_file(opt.config_file, ce);
      if (!pc) return std::cerr << ce.str() << "\n", std::nullopt;
      base = config_for_path(*pc, path);
    } else {
      auto c = config_for_input(path, true, ce);
      if (!c) return std::cerr << ce.str() << "\n", std::nullopt;
      base = std::move(*c);
    }
  }
  return apply_settings(std::move(base), cli);
}

int finish_reports(const RuleOptions& opt, const std::vector<FileReport>& reports, bool unreadable) {
  auto format = output_format_from_string(opt.format);
  auto fail_on = severity_from_string(opt.fail_on);
  if (!format) return usage("unknown --format `" + opt.format + "`");
  if (!fail_on) return usage("unknown --fail-on `" + opt.fail_on + "`");
  unreadable = print_report_errors(reports) || unreadable;
  ReportTarget target;
  target.format = *format;
  target.output = opt.output;
  target.color = opt.color;
  target.quiet = opt.quiet;
  target.sarif_help_uri = opt.sarif_help_uri;
  if (!write_reports(reports, target)) return 2;
  return exit_code(reports, *fail_on, opt.exit_zero, unreadable);
}

}  // namespace planlint::cli
