#include "lint/engine/eventlog_check.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <streambuf>

#include "lint/engine/check.hpp"
#include "lint/engine/engine.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/parse.hpp"

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

namespace {

using Reader = std::function<ParseResult(const EventLogOptions&, const EventLogSink&)>;

// Lint each plan `read` hands to the sink, keep only the findings.
FileReport check_plans(FileReport report, const Config& config, const Reader& read) {
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
  lint.parse = read(opts, sink);
  lint.diagnostics = std::move(found);
  report.suppressed = finish_diagnostics(lint, "", config);
  report.diagnostics = std::move(lint.diagnostics);
  return report;
}

// The bytes already read to look at the input, then the rest of the stream.
class HeadThenRest : public std::streambuf {
 public:
  HeadThenRest(std::string head, std::streambuf& rest) : head_(std::move(head)), rest_(rest) {
    setg(head_.data(), head_.data(), head_.data() + head_.size());
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    std::streamsize n = rest_.sgetn(buf_, sizeof buf_);
    if (n <= 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string head_;
  std::streambuf& rest_;
  char buf_[1 << 16];
};

}  // namespace

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
  std::string shown = report.path;
  return check_plans(std::move(report), config, [&](const EventLogOptions& opts, const EventLogSink& sink) {
    return read_event_log(path, shown, opts, sink);
  });
}

FileReport check_stdin(const Config& config, const std::string& display) {
  std::string head(4096, '\0');
  std::cin.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, std::cin.gcount())));
  const std::string shown = display.empty() ? "-" : display;
  if (detect_format(head) != InputFormat::EventLog) {
    std::ostringstream rest;
    if (std::cin) rest << std::cin.rdbuf();
    return check_text(head + rest.str(), shown, config);
  }
  FileReport report;
  report.path = shown;
  report.format = InputFormat::EventLog;
  HeadThenRest buf(std::move(head), *std::cin.rdbuf());
  std::istream in(&buf);
  return check_plans(std::move(report), config, [&](const EventLogOptions& opts, const EventLogSink& sink) {
    return parse_event_log_stream(in, shown, opts, sink);
  });
}

}  // namespace planlint
