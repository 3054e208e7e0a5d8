// One `planlint check` run without a process: what to check (plan_check), the checking itself
// (run) and the exit status (exit_code). Nothing here prints: errors come back as the lines the
// front end writes to standard error, in order. Writing the reports is the front end's
// (tools/cli/write_reports.hpp): the engine does not include the output formats.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/report.hpp"
#include "lint/core/settings.hpp"
#include "lint/engine/check.hpp"

namespace planlint {

// The project config files of a run, each read once. `config_file` set: that file for every
// input; `no_config`: the built-in defaults.
class ConfigCache {
 public:
  ConfigCache(std::string config_file, bool no_config)
      : config_file_(std::move(config_file)), no_config_(no_config) {}

  // The project config for a file in `dir`; nullptr with `error` set when a config file is bad.
  const ProjectConfig* for_dir(const std::filesystem::path& dir, std::string& error);

 private:
  const ProjectConfig* load(const std::filesystem::path& file, std::string& error);
  // find_config_file, remembering the answer for every folder it walked through: a check of many
  // files in a few folders looks at each folder once, not once per file.
  std::optional<std::filesystem::path> find(const std::filesystem::path& dir);

  std::string config_file_;
  bool no_config_;
  ProjectConfig defaults_;
  std::map<std::string, std::unique_ptr<ProjectConfig>> cache_;
  std::map<std::string, std::optional<std::filesystem::path>> found_;  // folder -> its nearest config
};

// `check --against REF`: compares a report with another version of its input. The front end
// supplies it (lint/diff/ is a front end, which the engine does not include).
struct Comparison {
  // Whether the other version can be read at all; false with a usage error.
  std::function<bool(std::string& error)> available;
  // Adds the regressions of `input` to its report (readable inputs other than stdin only).
  std::function<void(const std::string& input, FileReport& report, const Config& config)> add;
};

// What `planlint check` was asked to do, once the command line is parsed and validated.
struct CheckRequest {
  std::vector<std::string> paths;             // empty: standard input
  Settings cli;                               // --select, --ignore, --severity, --set
  std::string config_file;                    // --config
  bool no_config = false;                     // --no-config
  std::vector<std::string> include, exclude;  // --include, --exclude
  std::string stdin_filename;
  long long execution = -1;                   // -1: every execution
  double max_input_bytes = 0;                 // 0: the config's
  std::string output, write_baseline, baseline;  // -o, --write-baseline, --baseline
  unsigned jobs = 0;                          // 0: one per core
  std::optional<Comparison> against;          // --against REF
  bool quiet = false;                         // -q: no notes (what a folder walk found, baseline written)
  // What the reports keep of their inputs: Whole (FileReport::input) for --against, which compares
  // the texts (with --against the inputs are kept whole whatever this says); Lines for the text
  // output, which shows the plan line under a finding (a large regular file keeps only where to
  // fetch them: FileReport::source); Nothing otherwise: each input is released as soon as its
  // report is made, not at the end of the run.
  KeepInput keep_inputs = KeepInput::Whole;
};

// The inputs of a run and the configuration of each, resolved before any is read.
struct CheckPlan {
  std::vector<std::string> args;      // the paths asked for ("-" when none)
  std::vector<std::string> inputs;    // after folder walks
  std::vector<bool> listed_regular;   // per input: collected as a regular file (walk or argument)
  std::vector<std::string> displays;  // the name of each input as shown (--stdin-filename)
  std::vector<Config> configs;        // one per input
  GlobSet include;                    // what folder walks picked up
  bool walked = false;                // a folder was walked: run() says what it found
  bool missing_inputs = false;        // some path could not be read (exit 2 in the end)
  // Lines for standard error, in order ("planlint: error: ..."), input text made visible.
  std::vector<std::string> errors;
  int status = 0;                     // non-zero: stop here with this exit status
  std::shared_ptr<ConfigCache> configs_cache;  // the config files read (for --show-settings)
};

// Finds the inputs (folder walks with the include/exclude of the config nearest to the current
// folder plus the request's) and the config of each. Refuses an -o or --write-baseline that is an
// input, and an empty list of inputs (checking nothing is not a pass).
CheckPlan plan_check(const CheckRequest& request);
// The same with config files already read (the History Server mode reads the top one first).
CheckPlan plan_check(const CheckRequest& request, std::shared_ptr<ConfigCache> configs);

struct CheckRun {
  std::vector<FileReport> reports;  // one per input, in input order
  std::vector<std::string> errors;  // lines for standard error, in order (unreadable inputs, notes)
  bool unreadable = false;          // some input could not be read: exit 2
  int status = 0;                   // non-zero: stop here with this exit status (nothing written)
};

// Checks every input of `plan` (on request.jobs threads; stdin on this one), adds --against's
// regressions, writes --write-baseline and drops the findings --baseline has.
CheckRun run(const CheckPlan& plan, const CheckRequest& request);
// The same, each report handed to `emit` in input order as soon as it and every report before it
// are made (one call at a time, on whichever worker completed them), so that a front end writes it
// and its memory is released then, not at the end of the run. A report handed over is then kept
// reduced to what the run and exit_code read afterwards: its path, format, traits, error and
// counts, and its most severe finding without texts (rule, code and severity only). Only for a
// request without --against, --baseline and --write-baseline (they need every report whole):
// with one of them (hands_reports_over false), `emit` is not called and the reports stay whole.
CheckRun run(const CheckPlan& plan, const CheckRequest& request, const std::function<void(const FileReport&)>& emit);
bool hands_reports_over(const CheckRequest& request);

// The exit status of a run: 2 when `unreadable` (an input could not be read), else 0 with
// `exit_zero`, else 1 when a finding reaches `fail_on`, else 0. The same for check, diff, history
// and the History Server mode.
int exit_code(const std::vector<FileReport>& reports, Severity fail_on, bool exit_zero, bool unreadable = false);

// True when some report could not be read (FileReport::error).
bool any_unreadable(const std::vector<FileReport>& reports);

}  // namespace planlint
