#include "lint/engine/check.hpp"

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <optional>
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
                       bool listed_regular, KeepInput keep) {
  LintRequest request;
  request.path = path;
  request.display = display;
  request.listed_regular = listed_regular;
  request.keep = keep;
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
  report.source = std::move(linted.source);
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

std::optional<bool> GlobSet::matches_by_name(const std::string& native) const {
  if (patterns.empty()) return false;
  // Patterns that match names only see the same last component in the path relative to `base`
  // and in the path as given, when that component is a real name and the path is not `base`
  // itself (relative path "."; the names differ then): match it alone, without making the path
  // absolute (a getcwd and two normalisations per file of a folder walk).
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
  return std::nullopt;
}

bool GlobSet::matches(const fs::path& p) const {
  if (std::optional<bool> by_name = matches_by_name(p.native())) return *by_name;
  std::string rel = relative_generic(p, base.empty() ? fs::path(".") : base);
  std::string given = p.generic_string();
  for (const auto& pat : patterns)
    if (glob_match(pat, rel) || glob_match(pat, given)) return true;
  return false;
}

bool GlobSet::matches_text(const std::string& native) const {
  if (std::optional<bool> by_name = matches_by_name(native)) return *by_name;
  return matches(fs::path(native));
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
    // A regular file named on the command line was just stat'ed: it is opened without a second
    // `stat` by name, as a walked one is (`planlint check $(git ls-files '*.txt')`).
    if (!fs::is_directory(st) || has_rolling_event_log_name(arg)) {
      if (!excluded(exclude, arg)) add(arg, fs::is_regular_file(st));
      continue;
    }
    // The walk, one folder at a time: a folder that cannot be read (permissions) is reported by
    // its path and the walk goes on with the others. Each folder is listed once: what it holds is
    // kept only when no entry names it a rolled event log (is_rolling_event_log_dir).
    const bool no_excludes =
        std::all_of(exclude.begin(), exclude.end(), [](const GlobSet& g) { return g.patterns.empty(); });
    std::vector<std::pair<std::string, bool>> found;  // path, listed as a regular file
    std::vector<fs::path> folders{fs::path(arg)};
    bool top = true, top_rolled = false;
    while (!folders.empty()) {
      fs::path folder = std::move(folders.back());
      folders.pop_back();
      const bool is_top = std::exchange(top, false);
      // Listed with readdir: an entry's kind from its d_type (a link or an unknown kind: asked of
      // the file system, as directory_entry does), its path as text (a path object costs a parse
      // into components, more than the rest of the walk): the same entries, kinds and errors as
      // fs::directory_iterator, which skips `.` and `..` too.
      std::unique_ptr<DIR, int (*)(DIR*)> listing(::opendir(folder.c_str()), ::closedir);
      if (!listing) {
        ec = std::error_code(errno, std::generic_category());
        errors.push_back(folder.generic_string() + ": " + ec.message());
        continue;
      }
      ec.clear();
      const std::string& folder_text = folder.native();
      const std::string prefix = folder_text.ends_with('/') ? folder_text : folder_text + '/';
      std::vector<std::pair<std::string, bool>> files;
      std::vector<fs::path> below;
      bool rolled = false;
      while (true) {
        errno = 0;
        const dirent* entry = ::readdir(listing.get());
        if (entry == nullptr) {
          if (errno != 0) ec = std::error_code(errno, std::generic_category());
          break;
        }
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..") continue;
        if (is_databricks_rolled_name(name)) {
          rolled = true;
          break;
        }
        std::string text = prefix;
        text += name;
        bool dir = false, link = false, regular = false;
        if (entry->d_type == DT_DIR) {
          dir = true;
        } else if (entry->d_type == DT_REG) {
          regular = true;
        } else if (entry->d_type == DT_LNK || entry->d_type == DT_UNKNOWN) {
          std::error_code ec2;
          const fs::path p(text);
          const fs::file_status st = fs::status(p, ec2);
          dir = fs::is_directory(st);
          regular = fs::is_regular_file(st);
          link = fs::is_symlink(fs::symlink_status(p, ec2));
        }
        if (name[0] == '.' || (!no_excludes && excluded(exclude, fs::path(text)))) continue;
        if (dir) {
          const fs::path p(text);
          if (has_rolling_event_log_name(p) || (link && is_rolling_event_log_dir(p))) {
            files.emplace_back(p.generic_string(), false);
            continue;
          }
          if (!link) below.push_back(p);  // as before: links to folders are not followed
          continue;
        }
        if (!regular) continue;
        if (include.matches_text(text) || event_log_by_content(fs::path(text))) files.emplace_back(std::move(text), true);
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
