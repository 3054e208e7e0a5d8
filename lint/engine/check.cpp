#include "lint/engine/check.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <system_error>

#include "lint/config/config_file.hpp"
#include "lint/engine/engine.hpp"
#include "lint/config/glob.hpp"
#include "lint/engine/input.hpp"
#include "lint/engine/known_rules.hpp"
#include "lint/engine/suppress.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/parse.hpp"

#include <nlohmann/json.hpp>

namespace planlint {

namespace fs = std::filesystem;

std::size_t finish_diagnostics(LintResult& lint, std::string_view text, const Config& config) {
  std::vector<Diagnostic>& diags = lint.diagnostics;
  if (is_reported(config, kParseErrorRule)) {
    for (auto& d : parse_error_diagnostics(lint.parse)) {
      if (auto s = config.severity.find(d.rule); s != config.severity.end()) d.severity = s->second;
      diags.push_back(std::move(d));
    }
  }
  std::size_t suppressed = apply_suppressions(find_suppressions(text), diags, config);
  // Reading order; findings on one operator stay together (same position, stable order).
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.line, a.range.column) < std::tie(b.range.line, b.range.column);
  });
  return suppressed;
}

std::string not_a_plan(std::string_view text, const ParseResult& parse) {
  std::size_t ops = 0;
  for (const auto& p : parse.plans) ops += p.ops.size();
  if (ops > 0) return "";
  std::string_view body = text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
  if (body.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
    return std::string(text.empty() ? "is empty" : "holds only white space") + ", nothing to check; " +
           std::string(kExpectedInputs);
  if (parse.format != InputFormat::EventLog) {
    // Binary: a NUL byte, or more than 1 in 20 control bytes, in the first 4 KiB.
    std::string_view head = body.substr(0, 4096);
    std::size_t control = 0, nul = std::string_view::npos;
    for (std::size_t i = 0; i < head.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(head[i]);
      if (c == 0 && nul == std::string_view::npos) nul = i;
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) ++control;
      if (c == 0x7f) ++control;
    }
    if (nul != std::string_view::npos || control * 20 > head.size())
      return "is binary data (" +
             (nul != std::string_view::npos ? "a NUL byte at offset " + std::to_string(nul)
                                            : std::to_string(control) + " control bytes in the first " +
                                                  std::to_string(head.size())) +
             "), not a plan; " + std::string(kExpectedInputs);
  }
  for (const auto& m : parse.messages)
    if (m.severity == MessageSeverity::Error && std::string_view(m.message).substr(0, kNotAPlan.size()) == kNotAPlan)
      return std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message;
  std::size_t first = body.find_first_not_of(" \t\r\n");
  if (body[first] == '[' && nlohmann::json::accept(body)) {
    bool history = body.find("\"planDescription\"") != std::string_view::npos;
    return std::string(kNotAPlan) +
           (history ? "a Spark History Server SQL answer (`planDescription`, `nodes`), which this build does not read; "
                    : "a JSON array, ") +
           std::string(kExpectedInputs);
  }
  return "";
}

FileReport check_text(std::string text, const std::string& path, const Config& config) {
  FileReport report;
  report.path = path;
  LintResult lint = lint_text(text, path, config);
  report.format = lint.parse.format;
  if (std::string why = not_a_plan(text, lint.parse); !why.empty()) {
    // "path:3:1: not a plan: ..." when the reader gave a position, else "path: is empty, ...".
    report.error = path + (std::isdigit(static_cast<unsigned char>(why[0])) ? ":" : ": ") + why;
    return report;
  }
  report.suppressed = finish_diagnostics(lint, text, config);
  report.diagnostics = std::move(lint.diagnostics);
  report.text = std::move(text);
  return report;
}

FileReport check_file(const std::string& path, const Config& config, const std::string& display) {
  std::string error;
  auto text = read_input(path, error);
  const std::string& shown = display.empty() ? path : display;
  if (!text) {
    FileReport r;
    r.path = shown;
    r.error = error;
    return r;
  }
  return check_text(std::move(*text), shown, config);
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
// A file a folder walk's globs pass over but whose first bytes are a Spark event log's (Spark
// names its logs app-..., local-..., application_..., with no extension or a codec's).
bool event_log_by_content(const fs::path& p) {
  std::string ext = p.extension().string();
  if (!(ext.empty() || ext == ".zstd" || ext == ".zst" || ext == ".lz4" || ext == ".snappy" || ext == ".inprogress" ||
        p.filename().string().rfind("app-", 0) == 0 || p.filename().string().rfind("local-", 0) == 0 ||
        p.filename().string().rfind("application_", 0) == 0))
    return false;
  std::ifstream in(p, std::ios::binary);
  char buf[512];
  in.read(buf, sizeof buf);
  std::string_view head(buf, static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return !head.empty() && detect_format(head) == InputFormat::EventLog;
}

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
      if (include.matches(p) || event_log_by_content(p)) found.push_back(p.generic_string());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) add(f);
  }
  return out;
}

}  // namespace planlint
