#include "lint/eventlog_check.hpp"

#include <filesystem>
#include <fstream>

#include "lint/check.hpp"
#include "lint/engine.hpp"
#include "parser/eventlog.hpp"

namespace planlint {

std::string execution_label(const Plan& plan) {
  std::string label = "execution " + plan.query.statement_id;
  std::string desc;
  for (char c : plan.query.description) desc += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  while (!desc.empty() && desc.back() == ' ') desc.pop_back();
  constexpr std::size_t kMax = 80;  // descriptions can be whole SQL statements
  if (desc.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(desc[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
    desc = desc.substr(0, cut) + "...";
  }
  if (!desc.empty()) label += " (" + desc + ")";
  return label;
}

FileReport check_event_log(const std::string& path, const Config& config, const std::string& display) {
  FileReport report;
  report.path = display.empty() ? path : display;
  while (report.path.size() > 1 && report.path.back() == '/') report.path.pop_back();  // "eventlog_v2_x/"
  report.format = InputFormat::EventLog;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    report.error = path + ": No such file or directory";
    return report;
  }
  if (!std::filesystem::is_directory(path, ec) && !std::ifstream(path, std::ios::binary)) {
    report.error = path + ": cannot be opened";
    return report;
  }
  EventLogOptions opts;
  opts.execution = config.execution;
  std::vector<Diagnostic> found;
  std::size_t index = 0;
  EventLogSink sink = [&](Plan&& plan) {
    ParseResult one;
    one.path = report.path;
    one.format = InputFormat::EventLog;
    std::string label = execution_label(plan);
    one.plans.push_back(std::move(plan));
    for (auto& d : run_rules(one, config)) {
      d.plan_index = index;
      d.message = label + ": " + d.message;
      found.push_back(std::move(d));
    }
    ++index;
  };
  LintResult lint;
  lint.parse = read_event_log(path, report.path, opts, sink);
  lint.diagnostics = std::move(found);
  report.suppressed = finish_diagnostics(lint, "", config);
  report.diagnostics = std::move(lint.diagnostics);
  return report;
}

}  // namespace planlint
