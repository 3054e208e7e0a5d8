// `planlint check --show-settings`: the merged settings of one input as TOML-like text, with where
// each value came from (the command line, a config file, or the default).
#pragma once

#include <string>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/settings.hpp"

namespace planlint {

struct SettingsSources {
  std::string shown;                  // the input, as shown
  const Config* config = nullptr;     // its merged config
  const Settings* cli = nullptr;      // the command line's settings
  const ProjectConfig* project = nullptr;  // its project config (null or no file: none)
  bool no_config = false;             // --no-config
  std::vector<std::string> include;   // the folder-walk globs in use
  bool include_from_cli = false;      // --include gave them
};

// "# settings for FILE (config file: ...)", select, ignore, include, then [severity] and
// [thresholds] for every rule, each line ending in "  # SOURCE".
std::string describe_settings(const SettingsSources& s);

}  // namespace planlint
