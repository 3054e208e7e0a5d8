#include "tools/cli/rule_options.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "lint/core/config_file.hpp"
#include "lint/core/output_file.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint::cli {

namespace {

int usage(const std::string& message) {
  std::cerr << "planlint: error: " << message << "\n";
  return 2;
}

bool split(const std::string& s, std::string& key, std::string& value) {
  std::size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  key = s.substr(0, eq);
  value = s.substr(eq + 1);
  return true;
}

bool color_on(const std::string& mode, bool to_stdout) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (std::getenv("NO_COLOR") && *std::getenv("NO_COLOR")) return false;
  if (std::getenv("FORCE_COLOR") && *std::getenv("FORCE_COLOR")) return true;
  return to_stdout && ::isatty(STDOUT_FILENO);
}

}  // namespace

void add_rule_options(CLI::App* cmd, RuleOptions& opt) {
  cmd->add_option("--format", opt.format, "Output format")
      ->check(CLI::IsMember({"text", "full", "concise", "json", "sarif", "github", "junit"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", opt.fail_on, "Lowest severity that fails (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  cmd->add_flag("--exit-zero", opt.exit_zero, "Exit 0 even when there are findings (not on errors)");
  cmd->add_option("--select", opt.select, "Only these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
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
}

std::optional<Settings> cli_settings(const RuleOptions& opt) {
  // The same validation and merge as check and the editor (lint/core/settings.hpp).
  Settings cli;
  std::string err;
  for (const auto& s : opt.select)
    if (!settings_select(cli, s, err)) return usage("--select: " + err), std::nullopt;
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
  for (const auto& r : reports)
    if (!r.error.empty()) {
      std::cerr << "planlint: error: " << visible(r.error) << "\n";  // as check prints them
      unreadable = true;
    }
  OutputOptions out_opt;
  if (!opt.output.empty()) {
    std::ostringstream out;
    out_opt.color = color_on(opt.color, false);
    write_report(out, *format, reports, out_opt);
    std::string error;
    if (!write_file_atomically(opt.output, out.str(), error)) return usage(visible(error));
  } else {
    out_opt.color = color_on(opt.color, true);
    write_report(std::cout, *format, reports, out_opt);
    std::cout.flush();
  }
  if (unreadable) return 2;
  if (opt.exit_zero) return 0;
  for (const auto& r : reports)
    for (const auto& d : r.diagnostics)
      if (d.severity >= *fail_on) return 1;
  return 0;
}

}  // namespace planlint::cli
