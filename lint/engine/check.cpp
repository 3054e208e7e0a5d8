#include "lint/engine/check.hpp"

#include <algorithm>
#include <set>
#include <system_error>
#include <utility>

#include "lint/core/config_file.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/glob.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/reader.hpp"
#include "model/read_check.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {
// The reader's warnings and notes (its errors are `parse-error` findings already).
std::vector<ParseMessage> reader_notes(const ParseResult& parse) {
  std::vector<ParseMessage> out;
  for (const auto& m : parse.messages)
    if (m.severity != MessageSeverity::Error) out.push_back(m);
  return out;
}
}  // namespace

FileReport check_input(const std::string& path, const Config& config, const std::string& display,
                       bool listed_regular) {
  LintRequest request;
  request.path = path;
  request.display = display;
  request.listed_regular = listed_regular;
  // Event logs are streamed: findings only.
  Linted linted = lint_input(request, config, lint_options(LintMode::Check));
  FileReport report;
  report.path = std::move(linted.path);
  report.error = std::move(linted.error);
  if (!report.error.empty()) return report;
  report.format = linted.result.parse.format;
  report.traits = linted.result.parse.traits;
  report.suppressed = linted.suppressed;
  report.diagnostics = std::move(linted.result.diagnostics);
  report.messages = reader_notes(linted.result.parse);
  report.input = std::move(linted.input);
  if (read_nothing(linted.result.parse)) {
    // Not "No findings": say that nothing was read, and why (the parse error carries the hint).
    report.error = report.path + ": no plan operators were read";
    for (const auto& m : linted.result.parse.messages)
      if (m.severity == MessageSeverity::Error) {
        report.error += " (" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message + ")";
        break;
      }
  }
  return report;
}

FileReport check_text(std::string text, const std::string& path, const Config& config) {
  LintRequest request;
  request.path = path;
  request.text = text;
  Linted linted = lint_input(request, config, lint_options(LintMode::Editor));
  FileReport report;
  report.path = std::move(linted.path);
  report.error = std::move(linted.error);
  report.format = linted.result.parse.format;
  report.traits = linted.result.parse.traits;
  report.suppressed = linted.suppressed;
  report.diagnostics = std::move(linted.result.diagnostics);
  report.messages = reader_notes(linted.result.parse);
  report.input = std::make_shared<const std::string>(std::move(text));
  return report;
}

namespace {
// Whether glob_match(pattern, path) looks only at the last component of `path`: a pattern without
// `/` once its leading `./` or `/` and a trailing `/` are dropped (lint/core/glob.cpp).
bool matches_names_only(std::string_view pattern) {
  if (pattern.substr(0, 2) == "./") pattern.remove_prefix(2);
  if (!pattern.empty() && pattern[0] == '/') pattern.remove_prefix(1);
  if (!pattern.empty() && pattern.back() == '/') pattern.remove_suffix(1);
  return pattern.find('/') == std::string_view::npos;
}
}  // namespace

bool GlobSet::matches(const fs::path& p) const {
  if (patterns.empty()) return false;
  // Patterns that match names only see the same last component in the path relative to `base`
  // and in the path as given, when that component is a real name and the path is not `base`
  // itself (relative path "."; the names differ then): match it alone, without making the path
  // absolute (a getcwd and two normalisations per file of a folder walk).
  const std::string& native = p.native();
  std::size_t slash = native.rfind('/');
  std::string_view name = slash == std::string::npos ? std::string_view(native) : std::string_view(native).substr(slash + 1);
  if (!base_name_) {
    std::error_code ec;
    fs::path b = fs::absolute(base.empty() ? fs::path(".") : base, ec).lexically_normal();
    if (!b.has_filename() && b.has_relative_path()) b = b.parent_path();  // "/a/b/" -> "/a/b"
    base_name_ = b.filename().string();
  }
  if (!name.empty() && name != "." && name != ".." && name != *base_name_ &&
      std::all_of(patterns.begin(), patterns.end(), [](const std::string& pat) { return matches_names_only(pat); }))
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& pat) { return glob_match(pat, name); });
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
// A file a folder walk's globs pass over but that a reader opens itself by its first bytes: a Spark
// event log (Spark names its logs app-..., local-..., application_..., with no extension or a
// codec's).
bool event_log_by_content(const fs::path& p) {
  std::string ext = p.extension().string();
  if (!(ext.empty() || ext == ".zstd" || ext == ".zst" || ext == ".lz4" || ext == ".snappy" || ext == ".inprogress" ||
        p.filename().string().rfind("app-", 0) == 0 || p.filename().string().rfind("local-", 0) == 0 ||
        p.filename().string().rfind("application_", 0) == 0))
    return false;
  return reader_claiming(p) != nullptr;
}

bool excluded(const std::vector<GlobSet>& exclude, const fs::path& p) {
  return std::any_of(exclude.begin(), exclude.end(), [&](const GlobSet& g) { return g.matches(p); });
}
}  // namespace

std::vector<std::string> collect_inputs(const std::vector<std::string>& args, const GlobSet& include,
                                        const std::vector<GlobSet>& exclude, std::vector<std::string>& errors,
                                        bool* walked, std::vector<bool>* listed_regular) {
  if (walked) *walked = false;
  std::vector<std::string> out;
  if (listed_regular) listed_regular->clear();
  std::set<std::string> seen;
  // The same input named twice (by two arguments) is checked once. One argument names each input
  // once already (a walk meets each entry once), so its inputs are not normalised.
  auto add = [&](const std::string& p, bool regular = false) {
    if (args.size() != 1) {
      std::string key = p == "-" ? p : fs::path(p).lexically_normal().generic_string();
      if (!seen.insert(key).second) return;
    }
    out.push_back(p);
    if (listed_regular) listed_regular->push_back(regular);
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
    // (A folder holding Databricks' rolled hours is one too: the walk finds out as it lists it.)
    if (!fs::is_directory(st) || has_rolling_event_log_name(arg)) {
      if (!excluded(exclude, arg)) add(arg);
      continue;
    }
    // The walk, one folder at a time: a folder that cannot be read (permissions) is reported by
    // its path and the walk goes on with the others. Each folder is listed once: what it holds is
    // kept only when no entry names it a rolled event log (is_rolling_event_log_dir).
    std::vector<std::pair<std::string, bool>> found;  // path, listed as a regular file
    std::vector<fs::path> folders{fs::path(arg)};
    bool top = true, top_rolled = false;
    while (!folders.empty()) {
      fs::path folder = std::move(folders.back());
      folders.pop_back();
      const bool is_top = std::exchange(top, false);
      fs::directory_iterator it(folder, ec), end;
      if (ec) {
        errors.push_back(folder.generic_string() + ": " + ec.message());
        continue;
      }
      std::vector<std::pair<std::string, bool>> files;
      std::vector<fs::path> below;
      bool rolled = false;
      for (; it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::string name = p.filename().string();
        if (is_databricks_rolled_name(name)) {
          rolled = true;
          break;
        }
        std::error_code ec2;
        bool dir = it->is_directory(ec2);
        bool link = it->is_symlink(ec2);
        if ((!name.empty() && name[0] == '.') || excluded(exclude, p)) continue;
        if (dir && (has_rolling_event_log_name(p) || (link && is_rolling_event_log_dir(p)))) {
          files.emplace_back(p.generic_string(), false);
          continue;
        }
        if (dir) {
          if (!link) below.push_back(p);  // as before: links to folders are not followed
          continue;
        }
        if (!it->is_regular_file(ec2)) continue;
        if (include.matches(p) || event_log_by_content(p)) files.emplace_back(p.generic_string(), true);
      }
      if (rolled) {  // a rolled event log: one input, nothing below it walked
        if (is_top) top_rolled = true;
        else found.emplace_back(folder.generic_string(), false);
        continue;
      }
      if (ec) errors.push_back(folder.generic_string() + ": " + ec.message());
      for (auto& f : files) found.push_back(std::move(f));
      for (auto& b : below) folders.push_back(std::move(b));
    }
    if (top_rolled) {
      if (!excluded(exclude, arg)) add(arg);
      continue;
    }
    if (walked) *walked = true;
    std::sort(found.begin(), found.end());
    for (const auto& [f, regular] : found) add(f, regular);
  }
  return out;
}

}  // namespace planlint
