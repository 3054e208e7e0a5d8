// Shared by the commands that lint files one by one and render the result (show, report): read a
// file, find its configuration, lint it.
#pragma once

#include <optional>
#include <string>

#include "lint/engine.hpp"

namespace planlint::cli {

struct LintedFile {
  std::string text;  // the input as read
  Config config;     // the configuration that applies to it
  LintResult result;
};

// Lints `path` ("-": stdin). A file that cannot be read is reported on stderr, sets `rc` to 2 and
// gives nullopt; a broken configuration is reported, sets `config_broken` and gives nullopt (the
// command should stop with exit code 2).
std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, int& rc, bool& config_broken);

}  // namespace planlint::cli
