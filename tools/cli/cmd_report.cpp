// `planlint report FILE... -o report.html`: one self-contained HTML page with each plan's DAG,
// operators coloured by share of time, findings linked to their operator, the phase summary and
// the docs of the rules that fired (lint/visual/report_html.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "lint/core/executions.hpp"
#include "lint/engine/check.hpp"
#include "lint/visual/report_html.hpp"
#include "lint/core/output_file.hpp"
#include "lint/core/sanitize.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"

namespace planlint::cli {

namespace {
struct ReportArgs {
  std::vector<std::string> paths;
  std::string output = "report.html";
  bool no_config = false;
  std::string max_input_size;
  long long execution = -1;  // -1: every execution (the trivial ones folded)
};

int run_report(const ReportArgs& a) {
  auto max_input = max_input_size_option(a.max_input_size);
  if (!max_input) {
    std::cerr << "planlint: error: --max-input-size: `" << a.max_input_size << "` is not a size\n";
    return 2;
  }
  if (a.output != "-") {
    if (auto in = output_is_input(a.output, a.paths.empty() ? std::vector<std::string>{"-"} : a.paths)) {
      std::cerr << "planlint: error: -o " << visible(a.output) << " is the input " << visible(*in)
                << ": refusing to overwrite it\n";
      return 2;
    }
  }
  std::vector<LintResult> results;
  std::vector<ExecutionList> executions;
  std::optional<long long> execution;
  if (a.execution >= 0) execution = a.execution;
  // finish: parse errors as findings, `planlint: disable=` directives, as `check` reports them.
  const std::optional<int> linted = for_each_linted_file(a.paths, !a.no_config, /*finish=*/true, [&](LintedFile& f) {
    // Several SQL executions and no --execution: the report lists them and holds the main ones.
    executions.push_back(list_executions(f.result.parse, f.result.diagnostics));
    keep_shown_executions(executions.back(), f.result.parse, f.result.diagnostics);
    results.push_back(std::move(f.result));
  }, *max_input, execution);
  if (!linted) return 2;
  const int rc = *linted;
  if (rc == 2) {  // an input was missing or not a plan: a report without it would look complete
    std::cerr << "planlint: error: no report written (" << (a.output == "-" ? "stdout" : a.output)
              << " left as it was): an input could not be read\n";
    return 2;
  }
  std::string html = report_html(results, executions);
  if (a.output == "-") {
    std::cout << html;
    return rc;
  }
  std::string error;
  if (!write_file_atomically(a.output, html, error)) {  // a temporary file, then a rename
    std::cerr << "planlint: error: " << visible(error) << "\n";
    return 2;
  }
  std::size_t ops = 0, findings = 0;
  for (const auto& r : results) {
    for (const auto& p : r.parse.plans) ops += p.ops.size();
    findings += r.diagnostics.size();
  }
  auto plural = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::cerr << "planlint: wrote " << a.output << " (" << plural(results.size(), "file", "files") << ", "
            << plural(ops, "operator", "operators") << ", " << plural(findings, "finding", "findings") << ")\n";
  return rc;
}
}  // namespace

void register_report(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report: the plan graph, time shares, findings, rule docs");
  cmd->add_option("files", args->paths, "Plan files (explain text, Query Profile JSON, event log); '-' or none: stdin");
  cmd->add_option("-o,--output", args->output, "The HTML file to write (default report.html; '-': stdout)");
  cmd->add_option("--execution", args->execution,
                  "Event logs, History Server answers: report only this SQL execution id (default: list the "
                  "executions by time, fold the trivial ones, report the others)");
  cmd->add_flag("--no-config", args->no_config, "Ignore .planlint.toml / pyproject.toml");
  cmd->add_option("--max-input-size", args->max_input_size, kMaxInputSizeHelp);
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

}  // namespace planlint::cli
