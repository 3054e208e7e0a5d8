// `planlint check [FILE|DIR|-]...`: lint plans, print the findings in one of the output formats,
// exit 0 (nothing at or above --fail-on), 1 (findings) or 2 (usage, unreadable input, bad config).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <tuple>

#include "lint/engine/check.hpp"
#include "lint/engine/check_session.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/describe_settings.hpp"
#include "lint/core/settings.hpp"
#include "lint/engine/known_rules.hpp"
#include "lint/engine/ndjson.hpp"
#include "lint/output/output.hpp"
#include "lint/diff/diff.hpp"
#include "lint/diff/git_show.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "lint/core/sanitize.hpp"
#include "parser/registry/parse.hpp"
#include "tools/cli/history_server_fetch.hpp"
#include "tools/cli/checked_stdout.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"
#include "tools/cli/write_reports.hpp"

namespace planlint::cli {

namespace fs = std::filesystem;

namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string fail_on = "warning";
  bool exit_zero = false;
  std::vector<std::string> select, ignore, severity, set;
  std::string config_file;
  bool no_config = false;
  std::string write_baseline, baseline;
  std::vector<std::string> include, exclude;
  unsigned jobs = 0;
  std::string color = "auto";
  bool statistics = false;
  std::string stdin_filename;
  long long execution = -1;  // -1: all executions
  std::string output;
  std::string against;  // --against REF: also diff each file with its version at REF
  std::string max_input_size;
  bool show_settings = false, show_files = false;
  std::string why;  // --why RULE
  std::string history_server, app;  // --history-server URL --app APP
  FetchOptions fetch;
};

int usage_error(const std::string& message) {
  std::cerr << "planlint: error: " << visible(message) << "\n";
  return 2;
}

// Splits "KEY=VALUE".
bool split_assignment(const std::string& s, std::string& key, std::string& value) {
  std::size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  key = s.substr(0, eq);
  value = s.substr(eq + 1);
  return true;
}

fs::path folder_of(const std::string& path) {
  fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// --against: the regressions of `path` against its version at `ref` (lint/diff/), added to its
// report. Files that did not exist at `ref`, or did not change, are only checked.
void add_regressions(const std::string& ref, const std::string& path, FileReport& report, const Config& config) {
  if (report.text().empty()) return;  // event logs are streamed, not kept: nothing to compare
  auto old_text = git_show(ref, path);
  if (!old_text || *old_text == report.text()) return;
  FileReport d = diff_texts(*old_text, ref + ":" + path, std::string(report.text()), report.path, config);
  if (!d.error.empty()) {
    std::cerr << "planlint: note: " << path << ": not compared with " << ref << ": " << d.error << "\n";
    return;
  }
  report.suppressed += d.suppressed;
  for (auto& diag : d.diagnostics)
    if (diag.rule != "unused-suppression" || diag.message.rfind("unknown rule", 0) != 0)  // check reported those
      report.diagnostics.push_back(std::move(diag));
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.plan_index, a.range.line, a.range.column) < std::tie(b.plan_index, b.range.line, b.range.column);
  });
}

// `check --why RULE FILE...`: per candidate operator, what the rule looked for and what was missing.
int run_why(const std::string& name, const std::vector<std::string>& inputs, const std::vector<Config>& configs,
            const std::vector<std::string>& displays) {
  const Rule* rule = find_rule(name);
  if (!rule) return usage_error("--why: unknown rule `" + name + "` (`planlint rules` lists them)");
  if (!rule->explains()) {
    std::string which;
    for (const auto& r : all_rules())
      if (r->explains()) which += (which.empty() ? "" : ", ") + r->doc().name;
    return usage_error("--why: " + rule->doc().name + " does not explain its decisions yet (rules that do: " + which + ")");
  }
  int rc = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    // The one entry point, plans kept, no finishing steps: the rule runs again with notes on.
    LintRequest request;
    request.path = inputs[i];
    request.display = displays[i];
    LintOptions options;
    options.finish = false;
    options.keep_plans = true;
    options.refuse_non_plans = true;
    Linted linted = lint_input(request, configs[i], options);
    if (!linted.error.empty()) {
      std::cerr << "planlint: error: " << linted.error << "\n";
      rc = 2;
      continue;
    }
    const ParseResult& parsed = linted.result.parse;
    std::vector<WhyPlanNotes> notes;
    std::vector<Diagnostic> found = run_rule_why(parsed, configs[i], *rule, notes);
    std::cout << displays[i] << ": " << rule->doc().name << " (" << rule->doc().code << ")\n";
    for (const auto& pn : notes) {
      const Plan& plan = parsed.plans[pn.plan_index];
      if (parsed.plans.size() > 1) std::cout << "  " << (plan.name.empty() ? "plan " + std::to_string(pn.plan_index + 1) : plan.name) << ":\n";
      std::size_t reported = 0;
      for (const auto& d : found)
        if (d.plan_index == pn.plan_index) {
          std::cout << "  reported: " << d.message << "\n";
          ++reported;
        }
      for (const auto& note : pn.notes) {
        const Operator& op = plan.ops[note.op];
        std::string ref = (op.name.empty() ? op.label : op.name) + (op.id.empty() ? "" : " (" + op.id + ")");
        std::cout << "  considered " << ref;
        if (op.loc.line) std::cout << " at line " << op.loc.line;
        std::cout << ": looked for " << note.looked_for << "; missing: " << note.missing << "\n";
      }
      if (!reported && pn.notes.empty()) std::cout << "  no candidate operator in this plan\n";
    }
  }
  return rc;
}

// --format ndjson: records on stdin, finding records on stdout, streaming. Findings and bad records
// are data in the stream: the exit status is 0 (Spark's rdd.pipe fails a task on any other), 2 only
// for usage errors.
int run_ndjson_check(const CheckOptions& opt, ConfigCache& configs, const Settings& cli) {
  NdjsonConfigFor config_for = [&](const std::string& path, std::string& error) -> std::optional<Config> {
    std::string bad;
    const ProjectConfig* pc = configs.for_dir(path.empty() ? fs::path(".") : folder_of(path), bad);
    if (!pc) {
      std::cerr << visible(bad) << "\n";
      error = "bad configuration file (see standard error)";
      return std::nullopt;
    }
    Config c = apply_settings(config_for_path(*pc, path.empty() ? fs::path("stdin") : fs::path(path)), cli);
    if (opt.execution >= 0) c.execution = opt.execution;
    return c;
  };
  std::ios::sync_with_stdio(false);
  use_checked_stdout();  // sync_with_stdio put its own buffer there
  NdjsonTotals t = run_ndjson(std::cin, std::cout, config_for);
  std::cout.flush();
  if (opt.statistics)
    std::cerr << "planlint: " << t.records << " records, " << t.findings << " findings, " << t.errors
              << " errors\n";
  return 0;
}

ReportTarget report_target(const CheckOptions& opt, OutputFormat format) {
  ReportTarget target;
  target.format = format;
  target.output = opt.output;
  target.color = opt.color;
  target.statistics = opt.statistics;
  target.reader_messages = true;
  return target;
}

// --history-server URL --app APP [--execution N]: fetch the SQL executions and check them as a
// saved answer would be.
int check_history_server(const CheckOptions& opt, const ProjectConfig& top, const Settings& cli, OutputFormat format,
                         Severity fail_on, double max_input) {
  std::optional<long long> execution;
  if (opt.execution >= 0) execution = opt.execution;
  Config config = apply_settings(config_for_path(top, fs::path("history-server")), cli);
  config.execution = execution;
  if (max_input > 0) config.max_input_bytes = max_input;
  FetchOptions fetch = opt.fetch;
  fetch.max_body_bytes = config.max_input_bytes;
  std::string shown, error;
  std::optional<std::string> body = fetch_history_server_sql(opt.history_server, opt.app, execution, fetch, shown, error);
  if (!body) {
    std::cerr << "planlint: error: " << error << "\n";
    return 2;
  }
  std::vector<FileReport> reports{check_text(std::move(*body), shown, config)};
  if (!write_reports(reports, report_target(opt, format))) return 2;
  // Nothing read (every finding is a parse error, e.g. an unknown --execution): exit 2.
  const auto& diags = reports.front().diagnostics;
  bool nothing_read = !opt.exit_zero && !diags.empty() &&
                      std::all_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.rule == "parse-error"; });
  return exit_code(reports, fail_on, opt.exit_zero, nothing_read);
}

// Command-line rule settings, validated before anything is read (lint/core/settings.hpp: the
// same validation and merge as the editor's settings). nullopt after printing a usage error.
std::optional<Settings> settings_from_flags(const CheckOptions& opt) {
  Settings cli;
  std::string err;
  for (const auto& s : opt.select)
    if (!settings_select(cli, s, err)) return usage_error("--select: " + err), std::nullopt;
  for (const auto& s : opt.ignore)
    if (!settings_ignore(cli, s, err)) return usage_error("--ignore: " + err), std::nullopt;
  for (const auto& s : opt.severity) {
    std::string k, v;
    if (!split_assignment(s, k, v)) return usage_error("--severity expects RULE=LEVEL, got `" + s + "`"), std::nullopt;
    if (!settings_severity(cli, k, v, err)) return usage_error("--severity: " + err), std::nullopt;
  }
  for (const auto& s : opt.set) {
    std::string k, v;
    if (!split_assignment(s, k, v))
      return usage_error("--set expects RULE.OPTION=VALUE or OPTION=VALUE, got `" + s + "`"), std::nullopt;
    if (!settings_threshold(cli, k, v, err)) return usage_error("--set: " + err), std::nullopt;
  }
  return cli;
}

// The combinations of modes that make no sense; 0 or the usage error's exit status.
int refuse_mode_mixes(const CheckOptions& opt) {
  if (opt.statistics && opt.format != "text" && opt.format != "full" && opt.format != "concise" && opt.format != "json")
    return usage_error("--statistics prints counts as text or JSON; --format " + opt.format + " has no statistics form");
  if (!opt.history_server.empty() && opt.app.empty()) return usage_error("--history-server needs --app APP");
  if (opt.history_server.empty() && !opt.app.empty()) return usage_error("--app needs --history-server URL");
  if (!opt.history_server.empty() && !opt.paths.empty())
    return usage_error("--history-server reads no files; drop the paths or the option");
  if (opt.format == "ndjson") {
    if (!opt.history_server.empty()) return usage_error("--format ndjson reads records from standard input, not --history-server");
    for (const auto& p : opt.paths)
      if (p != "-") return usage_error("--format ndjson reads records from standard input ('-'), not `" + p + "`");
  }
  return 0;
}

// `check --against REF` through lint/diff/ and git.
Comparison against_git(const std::string& ref) {
  Comparison c;
  c.available = [ref](std::string& error) {
    if (git_ref_exists(ref)) return true;
    error = "--against: `" + ref + "` is not a git revision here";
    return false;
  };
  c.add = [ref](const std::string& input, FileReport& report, const Config& config) {
    add_regressions(ref, input, report, config);
  };
  return c;
}

CheckRequest request_of(const CheckOptions& opt, Settings cli, double max_input) {
  CheckRequest r;
  r.paths = opt.paths;
  r.cli = std::move(cli);
  r.config_file = opt.config_file;
  r.no_config = opt.no_config;
  r.include = opt.include;
  r.exclude = opt.exclude;
  r.stdin_filename = opt.stdin_filename;
  r.execution = opt.execution;
  r.max_input_bytes = max_input;
  r.output = opt.output;
  r.write_baseline = opt.write_baseline;
  r.baseline = opt.baseline;
  r.jobs = opt.jobs;
  if (!opt.against.empty()) r.against = against_git(opt.against);
  return r;
}

void print_lines(const std::vector<std::string>& lines) {
  for (const auto& l : lines) std::cerr << l << "\n";
}

// --show-settings: the settings of the first input (ruff prints those of one file too), and where
// each came from.
void show_settings(const CheckOptions& opt, const CheckPlan& plan, const Settings& cli) {
  SettingsSources sources;
  sources.shown = plan.displays.front();
  std::string ignored_error;  // read already for the plan
  sources.project =
      plan.configs_cache->for_dir(sources.shown == "-" ? fs::path(".") : folder_of(sources.shown), ignored_error);
  sources.config = &plan.configs.front();
  sources.cli = &cli;
  sources.no_config = opt.no_config;
  sources.include = plan.include.patterns;
  sources.include_from_cli = !opt.include.empty();
  std::cout << describe_settings(sources);
}

// The files of a check (paths, folders, stdin): plan, then --why / --show-files /
// --show-settings, or run, write and exit.
int check_files(const CheckOptions& opt, const CheckRequest& request, std::shared_ptr<ConfigCache> configs,
                OutputFormat format, Severity fail_on) {
  CheckPlan plan = plan_check(request, std::move(configs));
  print_lines(plan.errors);
  if (plan.status) return plan.status;
  if (!opt.why.empty()) return run_why(opt.why, plan.inputs, plan.configs, plan.displays);
  if (opt.show_files) {  // like ruff --show-files: what would be checked, then stop
    for (const auto& in : plan.inputs) std::cout << in << "\n";
    return 0;
  }
  if (opt.show_settings) return show_settings(opt, plan, request.cli), 0;
  CheckRun done = run(plan, request);
  print_lines(done.errors);
  if (done.status) return done.status;
  if (!write_reports(done.reports, report_target(opt, format))) return 2;
  return exit_code(done.reports, fail_on, opt.exit_zero || !opt.write_baseline.empty(), done.unreadable);
}

int run_check(const CheckOptions& opt) {
  auto cli = settings_from_flags(opt);
  if (!cli) return 2;
  if (int rc = refuse_mode_mixes(opt)) return rc;
  auto configs = std::make_shared<ConfigCache>(opt.config_file, opt.no_config);
  if (opt.format == "ndjson") return run_ndjson_check(opt, *configs, *cli);
  auto format = output_format_from_string(opt.format);
  auto fail_on = severity_from_string(opt.fail_on);
  if (!format) return usage_error("unknown --format `" + opt.format + "`");
  if (!fail_on) return usage_error("unknown --fail-on `" + opt.fail_on + "`");
  auto max_input = max_input_size_option(opt.max_input_size);
  if (!max_input) return usage_error("--max-input-size: `" + opt.max_input_size + "` is not a size");
  // Folder walks and the History Server mode start from the config nearest to the current folder.
  std::string error;
  const ProjectConfig* top = configs->for_dir(".", error);
  if (!top) return std::cerr << visible(error) << "\n", 2;
  if (!opt.history_server.empty()) return check_history_server(opt, *top, *cli, *format, *fail_on, *max_input);
  return check_files(opt, request_of(opt, *cli, *max_input), std::move(configs), *format, *fail_on);
}
}  // namespace

void register_check(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Lint plan files, folders of plans, or a plan on stdin");
  cmd->footer(
      "Exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error, unreadable input or bad\n"
      "configuration. Parse errors are findings of severity error (rule parse-error).\n"
      "Config: .planlint.toml or [tool.planlint] in pyproject.toml, nearest to each file (see docs/ci.md).");
  cmd->add_option("paths", opt->paths, "Plan files or folders ('-' or nothing: standard input)");
  cmd->add_option("--format", opt->format, "Output format")
      ->check(CLI::IsMember({"text", "full", "concise", "json", "sarif", "github", "junit", "ndjson"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", opt->fail_on, "Lowest severity that fails the check (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  cmd->add_flag("--exit-zero", opt->exit_zero, "Exit 0 even when there are findings (not on errors)");
  cmd->add_option("--select", opt->select, "Only these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--ignore", opt->ignore, "Skip these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--severity", opt->severity, "Override a rule's severity: RULE=error|warning|info")
      ->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--set", opt->set,
                  "Set a threshold: RULE.OPTION=VALUE or OPTION=VALUE for every rule that has it "
                  "(sizes like 10m / 30MB / 1GiB, counts like 2M, times like 30s)")
      ->delimiter(',')->allow_extra_args(false);
  auto* config = cmd->add_option("--config", opt->config_file, "Use this config file instead of searching one");
  auto* no_config = cmd->add_flag("--no-config", opt->no_config, "Ignore config files");
  config->excludes(no_config);
  cmd->add_option("--write-baseline", opt->write_baseline, "Record the current findings in FILE (exit 0)");
  cmd->add_option("--baseline", opt->baseline, "Report only findings that FILE does not have");
  cmd->add_option("--include", opt->include,
                  "Globs of files a folder walk picks up (default: *.plan,*.explain,*.txt,*.json,*.jsonl,*.eventlog)")
      ->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--exclude", opt->exclude, "Globs of files and folders to skip")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("-j,--jobs", opt->jobs, "Files checked in parallel (default: one per core)");
  cmd->add_option("--color", opt->color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_flag("--statistics", opt->statistics, "Count findings per rule instead of listing them");
  cmd->add_option("--execution", opt->execution, "Event logs, History Server: check only this SQL execution id");
  cmd->add_option("--history-server", opt->history_server,
                  "Fetch the SQL executions of --app from this Spark History Server (or driver UI) URL");
  cmd->add_option("--app", opt->app, "Application id for --history-server (APP or APP/ATTEMPT)");
  cmd->add_option("--timeout", opt->fetch.timeout_s,
                  "--history-server: seconds for the whole answer, 1 to 86400 (other values are refused)")
      ->check(CLI::Range(kMinTimeoutS, kMaxTimeoutS))
      ->capture_default_str();
  cmd->add_option("--cacert", opt->fetch.cacert, "--history-server: CA bundle (PEM) to verify the server with");
  cmd->add_flag("--insecure", opt->fetch.insecure, "--history-server: do not verify the TLS certificate");
  cmd->add_option("--stdin-filename", opt->stdin_filename, "Name (and config location) of the plan read from stdin");
  cmd->add_option("-o,--output", opt->output, "Write the report to FILE instead of standard output");
  cmd->add_option("--against", opt->against,
                  "Also report regressions of each file against its version at git revision REF (planlint diff)");
  cmd->add_option("--max-input-size", opt->max_input_size, kMaxInputSizeHelp);
  cmd->add_flag("--show-settings", opt->show_settings,
                "Print the merged settings for the first file and where each value came from, then exit");
  cmd->add_flag("--show-files", opt->show_files, "Print the files that would be checked, then exit");
  cmd->add_option("--why", opt->why,
                  "Explain, per candidate operator, what evidence RULE looked for and what was missing");
  cmd->callback([opt, cmd, &exit_code] {
    // No file and a terminal on stdin: the user forgot the file; waiting silently would look hung.
    if (opt->paths.empty() && opt->history_server.empty() && !opt->show_settings && !opt->show_files &&
        ::isatty(STDIN_FILENO)) {
      std::cerr << cmd->help() << "\nplanlint: error: no plan given: name files or folders, or pipe a plan into "
                                  "`planlint check -`\n";
      exit_code = 2;
      return;
    }
    exit_code = run_check(*opt);
  });
}

}  // namespace planlint::cli
