// Settings given on top of a project's config file: by the command line (`planlint check --select
// --ignore --severity --set`) or by the editor (LSP initializationOptions and
// workspace/didChangeConfiguration). One validation and one merge serve both, so the CLI and the
// editor never disagree. Precedence: settings > the config file (.planlint.toml, pyproject.toml) >
// the defaults declared in each rule's doc.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "lint/core/config.hpp"

namespace planlint {

struct Settings {
  std::optional<std::set<std::string>> select;  // replaces the file's `select` when given
  std::set<std::string> extend_select;          // added to the selection (ruff's extend-select)
  std::set<std::string> ignore;                 // added to the file's `ignore`
  Config values;                                // severity and thresholds (set_severity / set_threshold)
};

// Validated setters: the same checks as the config file (an unknown rule, option, level or a value
// that does not read in the option's unit is refused with `error` set). Threshold values take the
// config file's units ("1k", "30MB", "500ms").
bool settings_select(Settings& s, std::string_view rule, std::string& error);
bool settings_ignore(Settings& s, std::string_view rule, std::string& error);
// ruff's --extend-select: the rule joins whatever is selected (the file's `select`, or `select`
// above); when everything is selected it changes nothing. An `ignore` still wins.
bool settings_extend_select(Settings& s, std::string_view rule, std::string& error);
bool settings_severity(Settings& s, std::string_view rule, std::string_view level, std::string& error);
// `rule.option` or a bare `option` (every rule that has it).
bool settings_threshold(Settings& s, std::string_view key, std::string_view value, std::string& error);

// `base` (a project config, or the defaults) with the settings on top. A threshold given by the
// settings wins over the file's value for the same option, also when the file set it per rule.
Config apply_settings(Config base, const Settings& s);

}  // namespace planlint
