#include "tools/cli/check_modes.hpp"

#include <algorithm>
#include <iostream>
#include <tuple>

#include "lint/core/config_file.hpp"
#include "lint/core/sanitize.hpp"
#include "lint/diff/diff.hpp"
#include "lint/diff/git_show.hpp"
#include "lint/engine/check.hpp"
#include "lint/engine/parse_errors.hpp"
#include "lint/engine/ndjson.hpp"
#include "tools/cli/checked_stdout.hpp"

namespace planlint::cli {

namespace fs = std::filesystem;

int usage_error(const std::string& message) {
  std::cerr << "planlint: error: " << visible(message) << "\n";
  return 2;
}

fs::path folder_of(const std::string& path) {
  fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

namespace {

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

}  // namespace

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
    Linted linted = lint_input(request, configs[i], lint_options(LintMode::Inspect));
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
  target.quiet = opt.quiet;
  target.sarif_help_uri = opt.sarif_help_uri;
  target.reader_messages = true;
  return target;
}

namespace {

// The applications to read: --app's, or the server's only one (said on stderr). nullopt with the
// exit status in `rc` when there is none to read.
std::optional<std::vector<std::string>> apps_to_read(const CheckOptions& opt, const FetchOptions& fetch, int& rc) {
  if (!opt.apps.empty()) return opt.apps;
  std::string error;
  std::optional<std::vector<AppInfo>> apps = fetch_history_server_apps(opt.history_server, fetch, error);
  rc = 2;
  if (!apps) {
    std::cerr << "planlint: error: " << error << "; name the application with --app\n";
    return std::nullopt;
  }
  const std::string where = visible(redacted_url(history_server_apps_url(opt.history_server)));
  if (apps->empty()) {
    std::cerr << "planlint: error: " << where << " lists no application\n";
    return std::nullopt;
  }
  if (apps->size() > 1) {
    std::cerr << "planlint: error: " << where << " lists " << apps->size()
              << " applications; name one or more with --app (APP, APP/ATTEMPT, or a comma-separated list):\n";
    for (const AppInfo& a : *apps) {
      std::string ids;
      for (const AppAttempt& at : a.attempts)
        if (!at.id.empty()) ids += (ids.empty() ? "" : ", ") + visible(at.id);
      std::cerr << "  " << visible(a.id) << (ids.empty() ? "" : " (attempts " + ids + ")");
      if (!a.name.empty()) std::cerr << "  " << visible(a.name);
      std::cerr << "\n";
    }
    return std::nullopt;
  }
  if (!opt.quiet)
    std::cerr << "planlint: note: " << where << " lists one application, " << visible(apps->front().id)
              << (apps->front().name.empty() ? "" : " (" + visible(apps->front().name) + ")") << ": checking it\n";
  return std::vector<std::string>{apps->front().id};
}

}  // namespace

// --history-server URL [--app APP...] [--execution N]: fetch the SQL executions and check them as
// saved answers would be.
int check_history_server(const CheckOptions& opt, const ProjectConfig& top, const Settings& cli, OutputFormat format,
                         Severity fail_on, double max_input) {
  std::optional<long long> execution;
  if (opt.execution >= 0) execution = opt.execution;
  Config config = apply_settings(config_for_path(top, fs::path("history-server")), cli);
  config.execution = execution;
  if (max_input > 0) config.max_input_bytes = max_input;
  FetchOptions fetch = opt.fetch;
  fetch.max_body_bytes = config.max_input_bytes;
  int rc = 0;
  std::optional<std::vector<std::string>> apps = apps_to_read(opt, fetch, rc);
  if (!apps) return rc;
  std::vector<FileReport> reports;
  std::vector<std::string> unread;     // "APP: why", in --app order
  std::string server_down;             // the error that made planlint stop asking
  for (const std::string& app : *apps) {
    if (!server_down.empty()) {
      unread.push_back(visible(app) + ": not asked for (the server stopped answering)");
      continue;
    }
    std::string shown, error, note;
    FetchFailure failure = FetchFailure::None;
    std::optional<std::string> body = fetch_history_server_sql(opt.history_server, app, execution, fetch, shown, error,
                                                               &note, &failure);
    if (!body) {
      if (apps->size() == 1) std::cerr << "planlint: error: " << error << "\n";
      unread.push_back(visible(app) + ": " + error);
      if (failure == FetchFailure::Server) server_down = error;
      continue;
    }
    if (!note.empty() && !opt.quiet) std::cerr << "planlint: note: " << note << "\n";
    reports.push_back(check_text(std::move(*body), shown, config));
  }
  if (!reports.empty() && !write_reports(reports, report_target(opt, format))) return 2;
  if (!unread.empty()) {
    if (apps->size() > 1) {
      std::cerr << "planlint: error: read " << reports.size() << " of " << apps->size()
                << " applications; not read:\n";
      for (const auto& u : unread) std::cerr << "  " << u << "\n";
    }
    return 2;
  }
  // Nothing read (every finding is a parse error, e.g. an unknown --execution): exit 2.
  bool nothing_read = !opt.exit_zero && std::any_of(reports.begin(), reports.end(), [](const FileReport& r) {
    const auto& diags = r.diagnostics;
    return !diags.empty() &&
           std::all_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.rule == "parse-error"; });
  });
  return exit_code(reports, fail_on, opt.exit_zero, nothing_read);
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

}  // namespace planlint::cli
