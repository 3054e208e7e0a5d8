// `planlint report FILE... -o report.html`: one self-contained HTML page with each plan's DAG,
// operators coloured by share of time, findings linked to their operator, the phase summary and
// the docs of the rules that fired (lint/visual/report_html.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "lint/engine/check.hpp"
#include "lint/visual/report_html.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"

namespace planlint::cli {

namespace {
struct ReportArgs {
  std::vector<std::string> paths;
  std::string output = "report.html";
  bool no_config = false;
};

int run_report(const ReportArgs& a) {
  std::vector<LintResult> results;
  // finish: parse errors as findings, `planlint: disable=` directives, as `check` reports them.
  const std::optional<int> linted = for_each_linted_file(a.paths, !a.no_config, /*finish=*/true, [&](LintedFile& f) {
    results.push_back(std::move(f.result));
  });
  if (!linted) return 2;
  const int rc = *linted;
  std::string html = report_html(results);
  if (a.output == "-") {
    std::cout << html;
    return rc;
  }
  std::ofstream out(a.output, std::ios::binary | std::ios::trunc);
  out << html;
  out.close();
  if (!out) {
    std::cerr << "planlint: error: cannot write " << a.output << "\n";
    return 2;
  }
  std::size_t ops = 0, findings = 0;
  for (const auto& r : results) {
    for (const auto& p : r.parse.plans) ops += p.ops.size();
    findings += r.diagnostics.size();
  }
  std::cerr << "planlint: wrote " << a.output << " (" << results.size() << " file(s), " << ops << " operators, "
            << findings << " finding(s))\n";
  return rc;
}
}  // namespace

void register_report(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report: the plan graph, time shares, findings, rule docs");
  cmd->add_option("files", args->paths, "Plan files (explain text, Query Profile JSON, event log); '-' or none: stdin");
  cmd->add_option("-o,--output", args->output, "The HTML file to write (default report.html; '-': stdout)");
  cmd->add_flag("--no-config", args->no_config, "Ignore .planlint.toml / pyproject.toml");
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

}  // namespace planlint::cli
