// `planlint check [FILE|DIR|-]...`: lint plans, print the findings in one of the output formats,
// exit 0 (nothing at or above --fail-on), 1 (findings) or 2 (usage, unreadable input, bad config).
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "lint/core/describe_settings.hpp"
#include "lint/core/sanitize.hpp"
#include "lint/engine/check_session.hpp"
#include "tools/cli/check_modes.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"
#include "tools/cli/write_reports.hpp"

namespace planlint::cli {

namespace fs = std::filesystem;

namespace {

// The combinations of modes that make no sense; 0 or the usage error's exit status.
int refuse_mode_mixes(const CheckOptions& opt) {
  if (opt.statistics && opt.format != "text" && opt.format != "full" && opt.format != "concise" && opt.format != "json")
    return usage_error("--statistics prints counts as text or JSON; --format " + opt.format + " has no statistics form");
  if (opt.history_server.empty() && !opt.apps.empty()) return usage_error("--app needs --history-server URL");
  if (opt.apps.size() > 1 && opt.execution >= 0)
    return usage_error("--execution names an execution of one application; give one --app");
  if (!opt.history_server.empty() && !opt.paths.empty())
    return usage_error("--history-server reads no files; drop the paths or the option");
  if (opt.format == "ndjson") {
    if (!opt.history_server.empty()) return usage_error("--format ndjson reads records from standard input, not --history-server");
    for (const auto& p : opt.paths)
      if (p != "-") return usage_error("--format ndjson reads records from standard input ('-'), not `" + p + "`");
  }
  return 0;
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
  r.quiet = opt.quiet;
  // Only the text output (and --against) reads the inputs again once they are checked.
  r.keep_inputs = !opt.against.empty()                             ? KeepInput::Whole
                  : opt.format == "text" || opt.format == "full" ? KeepInput::Lines
                                                                 : KeepInput::Nothing;
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
// The reports and the plan of a finished check, kept (reachable) until the process ends, which it
// does next: the system takes the memory back at once, where freeing it block by block (every
// finding's strings, every input's configuration, mostly allocated by the worker threads) cost
// about 1.8 K instructions per file of a folder of small plans.
void leave_to_exit(CheckPlan plan, CheckRun run) {
  static auto* const left = new std::vector<std::pair<CheckPlan, CheckRun>>();
  left->emplace_back(std::move(plan), std::move(run));
}

int check_files(const CheckOptions& opt, const CheckRequest& request, std::shared_ptr<ConfigCache> configs,
                OutputFormat format, Severity fail_on) {
  CheckPlan plan = plan_check(request, std::move(configs));
  print_lines(plan.errors);
  if (plan.status && plan.inputs.empty() && opt.folder_by_default)
    std::cerr << "planlint: hint: no path was given and standard input is no pipe or file, so the current folder "
                 "was checked; name files or folders, or pipe a plan into `planlint check -`\n";
  if (plan.status) return plan.status;
  if (!opt.why.empty()) return run_why(opt.why, plan.inputs, plan.configs, plan.displays);
  if (opt.show_files) {  // like ruff --show-files: what would be checked, then stop
    for (const auto& in : plan.inputs) std::cout << in << "\n";
    return 0;
  }
  if (opt.show_settings) return show_settings(opt, plan, request.cli), 0;
  // JSON (the machine format of big runs) is written as the reports are made, each released once
  // written; the lines for standard error follow the report instead of coming first.
  StreamedJsonReport streamed;
  if (format == OutputFormat::Json && !opt.statistics && hands_reports_over(request) &&
      streamed.open(report_target(opt, format))) {
    CheckRun done = run(plan, request, [&streamed](const FileReport& r) { streamed.report(r); });
    std::string write_error;
    const bool written = streamed.finish(write_error);
    print_lines(done.errors);
    if (!written) return std::cerr << write_error << "\n", 2;
    const int rc = exit_code(done.reports, fail_on, opt.exit_zero, done.unreadable);
    leave_to_exit(std::move(plan), std::move(done));
    return rc;
  }
  CheckRun done = run(plan, request);
  print_lines(done.errors);
  if (done.status) return done.status;
  if (!write_reports(done.reports, report_target(opt, format))) return 2;
  const int rc = exit_code(done.reports, fail_on, opt.exit_zero || !opt.write_baseline.empty(), done.unreadable);
  leave_to_exit(std::move(plan), std::move(done));
  return rc;
}

// Standard input holds data to read: a pipe, a socket or a redirected file. A terminal, /dev/null
// and a closed stdin do not.
bool stdin_has_data() {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) return false;
  return S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode);
}

int run_check(const CheckOptions& opt) {
  auto cli = cli_settings(opt);  // validated before anything is read, as for diff, history and the editor
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
  cmd->add_option("paths", opt->paths,
                  "Plan files or folders ('-': standard input; nothing: standard input when it is a pipe or a "
                  "file, else the current folder)");
  cmd->add_option("--format,--output-format", opt->format, "Output format")
      ->check(CLI::IsMember({"text", "full", "concise", "json", "sarif", "github", "junit", "ndjson"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", opt->fail_on, "Lowest severity that fails the check (exit 1)")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  cmd->add_flag("--exit-zero", opt->exit_zero, "Exit 0 even when there are findings (not on errors)");
  cmd->add_option("--select", opt->select, "Only these rules (names or codes, comma-separated)")->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--extend-select", opt->extend_select, "Also these rules, on top of the selection (as ruff's)")
      ->delimiter(',')->allow_extra_args(false);
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
  cmd->add_flag("-q,--quiet", opt->quiet, "Print the findings and errors only: no summary line, no notes");
  cmd->add_flag("--statistics", opt->statistics, "Count findings per rule instead of listing them");
  cmd->add_option("--execution", opt->execution, "Event logs, History Server: check only this SQL execution id");
  cmd->add_option("--history-server", opt->history_server,
                  "Fetch the SQL executions of --app from this Spark History Server (or driver UI) URL "
                  "(no --app: the one application it lists)");
  cmd->add_option("--app", opt->apps,
                  "Application ids for --history-server: APP (with attempts: the latest) or APP/ATTEMPT; "
                  "repeat or separate with commas for several")
      ->delimiter(',')->allow_extra_args(false);
  cmd->add_option("--timeout", opt->fetch.timeout_s,
                  "--history-server: seconds for the whole answer, 1 to 86400 (other values are refused)")
      ->check(CLI::Range(kMinTimeoutS, kMaxTimeoutS))
      ->capture_default_str();
  cmd->add_option("--cacert", opt->fetch.cacert, "--history-server: CA bundle (PEM) to verify the server with");
  cmd->add_flag("--insecure", opt->fetch.insecure, "--history-server: do not verify the TLS certificate");
  add_sarif_help_uri(cmd, *opt);
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
  cmd->callback([opt, &exit_code] {
    // No path: standard input when something is piped or redirected into it (scripts:
    // `pbpaste | planlint check`), else the current folder, as `ruff check` does.
    if (opt->paths.empty() && opt->history_server.empty() && opt->format != "ndjson" && opt->stdin_filename.empty() &&
        !stdin_has_data()) {
      opt->paths = {"."};
      opt->folder_by_default = true;
    }
    exit_code = run_check(*opt);
  });
}

}  // namespace planlint::cli
