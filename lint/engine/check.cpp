#include "lint/engine/check.hpp"

#include <algorithm>
#include <set>
#include <system_error>

#include "lint/config/config_file.hpp"
#include "lint/engine/engine.hpp"
#include "lint/config/glob.hpp"
#include "parser/eventlog/eventlog.hpp"

namespace planlint {

namespace fs = std::filesystem;

FileReport check_input(const std::string& path, const Config& config, const std::string& display) {
  LintRequest request;
  request.path = path;
  request.display = display;
  LintOptions options;
  options.keep_plans = false;  // event logs are streamed: findings only
  Linted linted = lint_input(request, config, options);
  FileReport report;
  report.path = std::move(linted.path);
  report.error = std::move(linted.error);
  if (!report.error.empty()) return report;
  report.format = linted.result.parse.format;
  report.suppressed = linted.suppressed;
  report.diagnostics = std::move(linted.result.diagnostics);
  report.text = std::move(linted.text);
  return report;
}

FileReport check_text(std::string text, const std::string& path, const Config& config) {
  LintRequest request;
  request.path = path;
  request.text = text;
  Linted linted = lint_input(request, config);
  FileReport report;
  report.path = std::move(linted.path);
  report.format = linted.result.parse.format;
  report.suppressed = linted.suppressed;
  report.diagnostics = std::move(linted.result.diagnostics);
  report.text = std::move(text);
  return report;
}

bool GlobSet::matches(const fs::path& p) const {
  if (patterns.empty()) return false;
  std::string rel = relative_generic(p, base.empty() ? fs::path(".") : base);
  std::string given = p.generic_string();
  for (const auto& pat : patterns)
    if (glob_match(pat, rel) || glob_match(pat, given)) return true;
  return false;
}

const std::vector<std::string>& default_include() {
  static const std::vector<std::string> v{"*.plan", "*.explain", "*.txt", "*.json", "*.jsonl", "*.eventlog"};
  return v;
}

namespace {
bool excluded(const std::vector<GlobSet>& exclude, const fs::path& p) {
  return std::any_of(exclude.begin(), exclude.end(), [&](const GlobSet& g) { return g.matches(p); });
}
}  // namespace

std::vector<std::string> collect_inputs(const std::vector<std::string>& args, const GlobSet& include,
                                        const std::vector<GlobSet>& exclude, std::vector<std::string>& errors) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& p) {
    std::string key = p == "-" ? p : fs::path(p).lexically_normal().generic_string();
    if (seen.insert(key).second) out.push_back(p);
  };
  for (const auto& arg : args) {
    if (arg == "-") {
      add(arg);
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      errors.push_back(arg + ": No such file or directory");
      continue;
    }
    // A rolling event-log directory (eventlog_v2_<appId>/) is one input, not a folder of plans.
    if (!fs::is_directory(st) || is_rolling_event_log_dir(arg)) {
      if (!excluded(exclude, arg)) add(arg);
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(arg, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) {
      errors.push_back(arg + ": " + ec.message());
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        errors.push_back(arg + ": " + ec.message());
        break;
      }
      const fs::path& p = it->path();
      std::string name = p.filename().string();
      bool dir = it->is_directory(ec);
      if ((!name.empty() && name[0] == '.') || excluded(exclude, p)) {
        if (dir) it.disable_recursion_pending();
        continue;
      }
      if (dir && is_rolling_event_log_dir(p)) {
        it.disable_recursion_pending();
        found.push_back(p.generic_string());
        continue;
      }
      if (dir || !it->is_regular_file(ec)) continue;
      if (include.matches(p)) found.push_back(p.generic_string());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) add(f);
  }
  return out;
}

}  // namespace planlint
