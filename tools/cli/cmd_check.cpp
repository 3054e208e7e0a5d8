// `planlint check [FILE|DIR|-]...`: lint plans, print the findings in one of the output formats,
// exit 0 (nothing at or above --fail-on), 1 (findings) or 2 (usage, unreadable input, bad config).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include "lint/engine/baseline.hpp"
#include "lint/engine/check.hpp"
#include "lint/config/config_file.hpp"
#include "lint/config/settings.hpp"
#include "lint/engine/known_rules.hpp"
#include "lint/output/output.hpp"
#include "lint/diff/diff.hpp"
#include "lint/diff/git_show.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "lint/output/output_file.hpp"
#include "lint/output/sanitize.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"

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

class ConfigCache {
 public:
  ConfigCache(const CheckOptions& o) : opt_(o) {}

  // The project config for a file in `dir`; nullptr after printing an error.
  const ProjectConfig* for_dir(const fs::path& dir) {
    if (opt_.no_config) return &defaults_;
    if (!opt_.config_file.empty()) return load(opt_.config_file);
    auto found = find_config_file(dir.empty() ? fs::path(".") : dir);
    if (!found) return &defaults_;
    return load(*found);
  }

 private:
  const ProjectConfig* load(const fs::path& file) {
    std::string key = fs::absolute(file).lexically_normal().string();
    if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();
    ConfigError err;
    auto pc = load_config_file(file, err);
    if (!pc) {
      std::cerr << visible(err.str()) << "\n";
      return nullptr;
    }
    return (cache_[key] = std::make_unique<ProjectConfig>(std::move(*pc))).get();
  }

  const CheckOptions& opt_;
  ProjectConfig defaults_;
  std::map<std::string, std::unique_ptr<ProjectConfig>> cache_;
};

bool use_color(const std::string& mode, bool to_stdout) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (std::getenv("NO_COLOR") && *std::getenv("NO_COLOR")) return false;
  if (std::getenv("FORCE_COLOR") && *std::getenv("FORCE_COLOR")) return true;
  return to_stdout && ::isatty(STDOUT_FILENO);
}

fs::path folder_of(const std::string& path) {
  fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// --against: the regressions of `path` against its version at `ref` (lint/diff/), added to its
// report. Files that did not exist at `ref`, or did not change, are only checked.
void add_regressions(const std::string& ref, const std::string& path, FileReport& report, const Config& config) {
  if (report.text.empty()) return;  // event logs are streamed, not kept: nothing to compare
  auto old_text = git_show(ref, path);
  if (!old_text || *old_text == report.text) return;
  FileReport d = diff_texts(*old_text, ref + ":" + path, report.text, report.path, config);
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

int run_check(const CheckOptions& opt) {
  // Command-line rule settings, validated before anything is read (lint/config/settings.hpp: the
  // same validation and merge as the editor's settings).
  Settings cli;
  std::string err;
  for (const auto& s : opt.select)
    if (!settings_select(cli, s, err)) return usage_error("--select: " + err);
  for (const auto& s : opt.ignore)
    if (!settings_ignore(cli, s, err)) return usage_error("--ignore: " + err);
  for (const auto& s : opt.severity) {
    std::string k, v;
    if (!split_assignment(s, k, v)) return usage_error("--severity expects RULE=LEVEL, got `" + s + "`");
    if (!settings_severity(cli, k, v, err)) return usage_error("--severity: " + err);
  }
  for (const auto& s : opt.set) {
    std::string k, v;
    if (!split_assignment(s, k, v)) return usage_error("--set expects RULE.OPTION=VALUE or OPTION=VALUE, got `" + s + "`");
    if (!settings_threshold(cli, k, v, err)) return usage_error("--set: " + err);
  }
  auto format = output_format_from_string(opt.format);
  auto fail_on = severity_from_string(opt.fail_on);
  if (!format) return usage_error("unknown --format `" + opt.format + "`");
  if (!fail_on) return usage_error("unknown --fail-on `" + opt.fail_on + "`");

  auto max_input = max_input_size_option(opt.max_input_size);
  if (!max_input) return usage_error("--max-input-size: `" + opt.max_input_size + "` is not a size");

  ConfigCache configs(opt);
  std::vector<std::string> args = opt.paths.empty() ? std::vector<std::string>{"-"} : opt.paths;

  // Inputs: folder walks use the include/exclude of the config nearest to the current folder plus
  // the command line's.
  const ProjectConfig* top = configs.for_dir(".");
  if (!top) return 2;
  GlobSet include{opt.include.empty() ? (top->include.empty() ? default_include() : top->include)
                                      : opt.include,
                  opt.include.empty() && !top->include.empty() ? top->root : fs::path()};
  std::vector<GlobSet> exclude{GlobSet{opt.exclude, {}}};
  if (!top->exclude.empty()) exclude.push_back(GlobSet{top->exclude, top->root});
  std::vector<std::string> errors;
  std::vector<std::string> inputs = collect_inputs(args, include, exclude, errors);
  for (const auto& e : errors) std::cerr << "planlint: error: " << visible(e) << "\n";
  // Outputs never overwrite an input (the same file after resolving links).
  for (const auto* out : {&opt.output, &opt.write_baseline})
    if (auto in = output_is_input(*out, inputs))
      return usage_error((out == &opt.output ? "-o " : "--write-baseline ") + *out + " is the input " + *in +
                         ": refusing to overwrite it");

  // The configuration of every input, resolved before the work is spread over threads.
  std::vector<Config> file_configs;
  std::vector<std::string> displays;
  for (const auto& in : inputs) {
    std::string shown = in == "-" && !opt.stdin_filename.empty() ? opt.stdin_filename : in;
    fs::path dir = in == "-" && opt.stdin_filename.empty() ? fs::path(".") : folder_of(shown);
    const ProjectConfig* pc = configs.for_dir(dir);
    if (!pc) return 2;
    file_configs.push_back(apply_settings(config_for_path(*pc, shown == "-" ? fs::path("stdin") : fs::path(shown)), cli));
    if (opt.execution >= 0) file_configs.back().execution = opt.execution;
    if (*max_input > 0) file_configs.back().max_input_bytes = *max_input;
    displays.push_back(shown);
  }

  std::vector<FileReport> reports(inputs.size());
  unsigned jobs = opt.jobs ? opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, inputs.size())));
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++)
      // Event logs (files of any codec, rolling directories) are streamed, never read whole.
      // Pipes and FIFOs are read once; character devices are refused (lint/engine/lint.cpp).
      reports[i] = check_input(inputs[i], file_configs[i], displays[i]);
  };
  if (jobs <= 1 || std::count(inputs.begin(), inputs.end(), "-")) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (!opt.against.empty()) {
    if (!git_ref_exists(opt.against)) return usage_error("--against: `" + opt.against + "` is not a git revision here");
    for (std::size_t i = 0; i < reports.size(); ++i)
      if (inputs[i] != "-" && reports[i].error.empty()) add_regressions(opt.against, inputs[i], reports[i], file_configs[i]);
  }
  bool unreadable = !errors.empty();
  for (const auto& r : reports)
    if (!r.error.empty()) {
      std::cerr << "planlint: error: " << visible(r.error) << "\n";
      unreadable = true;
    }

  if (!opt.write_baseline.empty()) {
    if (!write_baseline(opt.write_baseline, reports, err)) return usage_error(err);
    std::size_t n = 0;
    for (const auto& r : reports) n += r.diagnostics.size();
    std::cerr << "planlint: wrote " << n << " finding" << (n == 1 ? "" : "s") << " to the baseline "
              << opt.write_baseline << "\n";
  }
  if (!opt.baseline.empty()) {
    auto baseline = read_baseline(opt.baseline, err);
    if (!baseline) return usage_error(err);
    for (auto& r : reports) apply_baseline(*baseline, r, opt.baseline);
  }

  OutputOptions out_opt;
  out_opt.statistics = opt.statistics;
  if (!opt.output.empty()) {
    std::ostringstream out;
    out_opt.color = use_color(opt.color, false);
    write_report(out, *format, reports, out_opt);
    if (!write_file_atomically(opt.output, out.str(), err)) return usage_error(err);
  } else {
    out_opt.color = use_color(opt.color, true);
    write_report(std::cout, *format, reports, out_opt);
    std::cout.flush();
  }

  if (unreadable) return 2;
  if (opt.exit_zero || !opt.write_baseline.empty()) return 0;
  for (const auto& r : reports)
    for (const auto& d : r.diagnostics)
      if (d.severity >= *fail_on) return 1;
  return 0;
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
      ->check(CLI::IsMember({"text", "full", "concise", "json", "sarif", "github", "junit"}))
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
  cmd->add_option("--execution", opt->execution, "Event logs: check only this SQL execution id");
  cmd->add_option("--stdin-filename", opt->stdin_filename, "Name (and config location) of the plan read from stdin");
  cmd->add_option("-o,--output", opt->output, "Write the report to FILE instead of standard output");
  cmd->add_option("--against", opt->against,
                  "Also report regressions of each file against its version at git revision REF (planlint diff)");
  cmd->add_option("--max-input-size", opt->max_input_size, kMaxInputSizeHelp);
  cmd->callback([opt, &exit_code] { exit_code = run_check(*opt); });
}

}  // namespace planlint::cli
