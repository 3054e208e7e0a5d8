// `planlint diff OLD NEW`: what got worse between two plans of the same query, as findings in the
// NEW plan (lint/diff/). Exit codes as for check, so it works as a CI gate.
#include <filesystem>
#include <iostream>
#include <memory>

#include "lint/diff/diff.hpp"
#include "lint/core/input.hpp"
#include "lint/engine/parse_errors.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/parse.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/rule_options.hpp"

namespace planlint::cli {

namespace {

struct DiffOptions {
  std::string old_path, new_path;
  long long execution = -1, old_execution = -1, new_execution = -1;
  bool force = false;
  RuleOptions rules;
};

// Reads one side: an event log through the streaming reader (one execution when asked), anything
// else whole. nullopt after printing why it could not be read.
std::optional<ParseResult> read_side(const std::string& path, long long execution, std::string& text) {
  std::error_code ec;
  if (path != "-" && std::filesystem::exists(path, ec) && is_event_log_path(path)) {
    EventLogOptions opts;
    if (execution >= 0) opts.execution = execution;
    return read_event_log(path, path, opts);
  }
  std::string error;
  auto read = read_input(path, error);
  if (!read) {
    std::cerr << "planlint: error: " << error << "\n";
    return std::nullopt;
  }
  text = std::move(*read);
  return parse_input(text, path);
}

int run_diff(const DiffOptions& opt) {
  auto cli = cli_settings(opt.rules);
  if (!cli) return 2;
  auto config = config_for(opt.rules, opt.new_path, *cli);
  if (!config) return 2;
  if (opt.old_path == "-" && opt.new_path == "-") {
    std::cerr << "planlint: error: only one of OLD and NEW can be standard input\n";
    return 2;
  }
  std::string old_text, new_text;
  long long oe = opt.old_execution >= 0 ? opt.old_execution : opt.execution;
  long long ne = opt.new_execution >= 0 ? opt.new_execution : opt.execution;
  auto old_parse = read_side(opt.old_path, oe, old_text);
  auto new_parse = read_side(opt.new_path, ne, new_text);
  if (!old_parse || !new_parse) return 2;
  for (const auto& m : old_parse->messages)
    if (m.severity == MessageSeverity::Error)
      std::cerr << "planlint: warning: " << opt.old_path << ":" << m.loc.line << ":" << m.loc.column << ": "
                << m.message << "\n";
  FileReport report =
      diff_parsed(*old_parse, opt.old_path, *new_parse, std::move(new_text), opt.new_path, *config, opt.force);
  if (report.error.empty() && is_reported(*config, kParseErrorRule))
    for (auto& d : parse_error_diagnostics(*new_parse)) report.diagnostics.push_back(std::move(d));
  return finish_reports(opt.rules, {report}, false);
}

}  // namespace

void register_diff(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "Report what got worse between two plans of the same query (a pre-merge gate for saved plans)");
  cmd->footer(
      "Operators are matched by kind, the tables below them and their keys / conditions, never by operator\n"
      "numbers or #ids. Findings point at NEW. Exit status: 0 nothing at or above --fail-on, 1 regressions,\n"
      "2 usage error, unreadable input, bad configuration, or plans of two different queries (--force). Rules: `planlint rules` (PLD0xx).");
  cmd->add_option("old", opt->old_path, "The plan before the change (explain text, profile JSON, event log)")->required();
  cmd->add_option("new", opt->new_path, "The plan after the change")->required();
  cmd->add_option("--execution", opt->execution, "Event logs: compare this SQL execution id on both sides");
  cmd->add_option("--old-execution", opt->old_execution, "Event logs: the execution id of OLD");
  cmd->add_option("--new-execution", opt->new_execution, "Event logs: the execution id of NEW");
  cmd->add_flag("--force", opt->force,
                "Compare even when OLD and NEW do not look like plans of one query (few shared tables or paired "
                "operators); without it that is an error (exit 2)");
  add_rule_options(cmd, opt->rules);
  cmd->callback([opt, &exit_code] { exit_code = run_diff(*opt); });
}

}  // namespace planlint::cli
