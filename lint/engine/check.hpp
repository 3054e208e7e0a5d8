// What `planlint check` does to one input, and how it finds its inputs. Shared by the CLI, tests
// and any other front end that wants the same results.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lint/config/config.hpp"
#include "lint/engine/engine.hpp"
#include "lint/output/output.hpp"

namespace planlint {

// Parse `text`, run the rules `config` enables, add parse errors (rule `parse-error`, unless
// ignored), apply the file's `planlint: disable=` directives and report the unused ones. The
// result is in reading order. `path` is what the report shows.
FileReport check_text(std::string text, const std::string& path, const Config& config);

// check_text's steps after lint_text, for front ends that also keep the plans (the LSP): adds the
// `parse-error` findings, applies the directives in `text` (reporting unused ones) and puts
// `lint.diagnostics` in reading order. Returns how many findings the directives removed.
std::size_t finish_diagnostics(LintResult& lint, std::string_view text, const Config& config);

// read_input + check_text; an unreadable input gives a report with `error` set.
// `display` is the path shown (defaults to `path`; used for stdin with --stdin-filename).
FileReport check_file(const std::string& path, const Config& config, const std::string& display = "");

// Globs with the folder they are relative to.
struct GlobSet {
  std::vector<std::string> patterns;
  std::filesystem::path base;        // empty: the current folder
  [[nodiscard]] bool matches(const std::filesystem::path& p) const;
};

// The files default folder walks pick up.
const std::vector<std::string>& default_include();

// Expand the command line's paths: "-" stays, a rolling event-log folder (eventlog_v2_*) is one input
// wherever it is found, any other folder is walked recursively (hidden entries and
// excluded paths skipped, files kept when `include` matches their name or path), a file is kept
// unless excluded. Order: arguments in order, each folder sorted; duplicates dropped.
// Missing paths are appended to `errors`.
std::vector<std::string> collect_inputs(const std::vector<std::string>& args, const GlobSet& include,
                                        const std::vector<GlobSet>& exclude, std::vector<std::string>& errors);

}  // namespace planlint
