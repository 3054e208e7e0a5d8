// Shared by the commands that lint files one by one and render the result (show, report): find a
// file's configuration, lint it through the engine's one entry point (lint_input), plans kept.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"

namespace planlint::cli {

struct LintedFile {
  std::string text;  // the input as read (empty for an event log, which its reader opens itself)
  Config config;     // the configuration that applies to it
  LintResult result;
};

// Lints `path` ("-": stdin), keeping the plans; `finish` adds parse errors as findings and applies
// `planlint: disable=` directives (LintOptions::finish). A file that cannot be read is reported on
// stderr, sets `rc` to 2 and gives nullopt; a broken configuration is reported, sets `config_broken`
// and gives nullopt (the command should stop with exit code 2).
std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, bool finish, int& rc,
                                    bool& config_broken);

// Lints each of `paths` (none: stdin) and hands each result to `each`. Returns the exit code: 2
// when a file could not be read (the others are still done), else 1 when a plan did not parse
// completely, else 0; nullopt when a configuration is broken (reported; the command stops and
// exits with 2 without writing anything).
std::optional<int> for_each_linted_file(const std::vector<std::string>& paths, bool use_config_files, bool finish,
                                        const std::function<void(LintedFile&)>& each);

}  // namespace planlint::cli
