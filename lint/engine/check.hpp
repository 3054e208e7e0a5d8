// What `planlint check` does to one input, and how it finds its inputs. Shared by the CLI, tests
// and any other front end that wants the same results.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/report.hpp"

namespace planlint {

// `planlint check` on one input (a file, a rolling event-log directory, or "-"): lint_input with
// every finishing step, event logs streamed, as a report for the output formats. `display` is the
// path shown (defaults to `path`; used for stdin with --stdin-filename). An unreadable input gives a
// report with `error` set.
// `listed_regular`: `path` was a regular file when the inputs were collected (a folder walk, or the
// stat of an argument), so it is opened without a `stat` by name first (its `fstat` says what it
// is; anything else, such as a FIFO put in its place since, takes the usual way).
// `keep` Nothing: the caller drops FileReport::input (output formats that show no source lines):
// then it may stay null, a large Query Profile is read in pieces, never whole, and a large plan's
// outline is given back once read; Lines (the text output): the same for a large regular file,
// FileReport::source saying where the lines findings show are fetched from (LintRequest::keep).
FileReport check_input(const std::string& path, const Config& config, const std::string& display = "",
                       bool listed_regular = false, KeepInput keep = KeepInput::Whole);

// The same for bytes already in hand (a fetched History Server answer, an NDJSON record, Python's
// check_text): `path` names the input in the report.
FileReport check_text(std::string text, const std::string& path, const Config& config);

// Globs with the folder they are relative to.
struct GlobSet {
  GlobSet() = default;
  GlobSet(std::vector<std::string> globs, std::filesystem::path folder)
      : patterns(std::move(globs)), base(std::move(folder)) {}
  std::vector<std::string> patterns;
  std::filesystem::path base;        // empty: the current folder
  [[nodiscard]] bool matches(const std::filesystem::path& p) const;
  // The same for a path given as its text (a folder walk's entry): a path object is made only when
  // the last component alone does not decide.
  [[nodiscard]] bool matches_text(const std::string& native) const;

 private:
  mutable std::optional<std::string> base_name_;  // the last component of `base` made absolute (once)
  // The answer from the last component of `native` alone, or nullopt.
  [[nodiscard]] std::optional<bool> matches_by_name(const std::string& native) const;
};

// The files default folder walks pick up.
const std::vector<std::string>& default_include();

// Expand the command line's paths: "-" stays, a rolling event-log folder (eventlog_v2_*) is one input
// wherever it is found, any other folder is walked recursively (hidden entries and
// excluded paths skipped, files kept when `include` matches their name or path), a file is kept
// unless excluded; files the globs pass over are still taken when their first bytes are a Spark
// event log's (Spark's log names have no extension). Order: arguments in order, each folder sorted; duplicates dropped.
// Missing paths are appended to `errors`. `walked`, when given, is set to whether some argument was
// a folder that was walked (not a rolling event log). `listed_regular`, when given, gets one flag
// per input: it was a regular file when collected (a folder walk's entry, or an argument's stat).
std::vector<std::string> collect_inputs(const std::vector<std::string>& args, const GlobSet& include,
                                        const std::vector<GlobSet>& exclude, std::vector<std::string>& errors,
                                        bool* walked = nullptr, std::vector<bool>* listed_regular = nullptr);

}  // namespace planlint
