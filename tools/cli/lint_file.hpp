// Shared by the commands that lint files one by one and render the result (show, report): find a
// file's configuration, lint it through the engine's one entry point (lint_input), plans kept.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"

namespace planlint::cli {

struct LintedFile {
  // The input as read (null for an event log, which its reader opens itself); the plans view it.
  std::shared_ptr<const std::string> input;
  [[nodiscard]] std::string_view text() const { return shared_text(input); }
  Config config;     // the configuration that applies to it
  LintResult result;
};

// Lints `path` ("-": stdin), keeping the plans; `finish` adds parse errors as findings and applies
// `planlint: disable=` directives (LintOptions::finish). A file that cannot be read is reported on
// stderr, sets `rc` to 2 and gives nullopt; a broken configuration is reported, sets `config_broken`
// and gives nullopt (the command should stop with exit code 2).
// `max_input_bytes` > 0 overrides the configuration's maximum input size (--max-input-size);
// `execution` reads only that SQL execution of an event log or History Server answer (--execution;
// one that is not there is an error, as for `check`).
std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, bool finish, int& rc,
                                    bool& config_broken, double max_input_bytes = 0,
                                    std::optional<long long> execution = std::nullopt);

// Lints each of `paths` (none: stdin) and hands each result to `each`. Returns the exit code: 2
// when a file could not be read (the others are still done), else 1 when a plan did not parse
// completely, else 0; nullopt when a configuration is broken (reported; the command stops and
// exits with 2 without writing anything).
std::optional<int> for_each_linted_file(const std::vector<std::string>& paths, bool use_config_files, bool finish,
                                        const std::function<void(LintedFile&)>& each, double max_input_bytes = 0,
                                        std::optional<long long> execution = std::nullopt);

// `--max-input-size SIZE` ("2GiB", "500MB", bytes): 0 when `text` is empty; nullopt when invalid.
std::optional<double> max_input_size_option(const std::string& text);
inline constexpr const char* kMaxInputSizeHelp =
    "Largest input read whole, e.g. 500MB (default 2GiB; config key max-input-size)";

}  // namespace planlint::cli
