// Project configuration: `.planlint.toml`, or `[tool.planlint]` in `pyproject.toml`, found by
// walking up from the checked file's folder (nearest wins; in one folder `.planlint.toml` wins);
// `--config FILE` replaces the search. Keys (see docs/ci.md):
//   select = ["filter-not-pushed-down", "PL002"]      names or codes; default: every rule
//   ignore = ["skew-not-handled"]
//   include = ["*.plan", "*.json"]                     what a folder walk picks up
//   exclude = ["scratch/", "**/*.tmp.txt"]
//   [severity]            skew-not-handled = "error"
//   [thresholds]          broadcast-threshold = "30MB"   (every rule that has the option)
//   [rules.exploding-join] min-output-rows = 5e6          (one rule's option)
//   [per-file-ignores]    "legacy/**" = ["shuffle-join-could-broadcast"]
// Numbers may carry a unit that fits the option: sizes as Spark reads them (10m = 10MB = 10MiB =
// 10485760 bytes, 1g, 512k), counts 1.5k / 2M, times 500ms / 30s / 5min.
// Every name is checked: an unknown key, rule or option, or a value of the wrong type, is an error
// `file:line:col: error: ...` naming the key (exit 2).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/config.hpp"

namespace planlint {

struct ConfigError {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
  // "file:line:col: error: message"
  [[nodiscard]] std::string str() const;
};

struct PerFileIgnore {
  std::string glob;                  // relative to ProjectConfig::root
  std::vector<std::string> rules;    // names or codes
};

struct ProjectConfig {
  std::filesystem::path file;        // where it was read; empty for the built-in defaults
  std::filesystem::path root;        // its folder: globs are relative to it
  Config config;
  std::vector<PerFileIgnore> per_file_ignores;
  std::vector<std::string> include;  // folder walks; empty: the default list
  std::vector<std::string> exclude;
};

// `.planlint.toml` or a `pyproject.toml` with a `[tool.planlint]` table in `dir` or the nearest
// folder above it; nullopt when there is none.
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& dir);

// The config file of `dir` itself (not of the folders above it); nullopt when it has none.
std::optional<std::filesystem::path> config_file_in(const std::filesystem::path& dir);

// `dir` made absolute and normal, without a trailing separator ("/a/b/." -> "/a/b"): the form the
// upward search walks. Empty when it cannot be made absolute.
std::filesystem::path search_start(const std::filesystem::path& dir);

// Read and validate a config file (a pyproject.toml: its [tool.planlint] table).
std::optional<ProjectConfig> load_config_file(const std::filesystem::path& file, ConfigError& error);

// The same from text; `pyproject` selects the [tool.planlint] table. `file` names it in errors.
std::optional<ProjectConfig> parse_config_text(std::string_view text, const std::filesystem::path& file,
                                               bool pyproject, ConfigError& error);

// A number with an optional unit suited to `unit` (a Threshold::unit): "bytes": b, k/kb/kib, m/mb/mib,
// g/gb/gib, t/tb/tib, all binary as in Spark's byte strings; "rows": k, M; "ms": ms, s, min, h;
// "percent": an optional %. Plain numbers always. nullopt when it does not read.
std::optional<double> parse_quantity(std::string_view text, std::string_view unit);

// Validated setters shared by the config file and the command line. `error` says what is wrong.
// A rule selector (check_rule_selector, lint/core/config.hpp): a rule name, secondary name or code
// (built-in findings included).
// `rule` (name or code) = level: applies to every name the selector stands for.
bool set_severity(Config& config, std::string_view rule, std::string_view level, std::string& error);
// `rule.option` or a bare `option` (every rule that has it) = value.
bool set_threshold(Config& config, std::string_view key, std::string_view value, std::string& error);

// The configuration for one checked file: the project's, plus its per-file ignores that match.
Config config_for_path(const ProjectConfig& project, const std::filesystem::path& file);

// The config that applies to one input file: the nearest config file above it (none for stdin "-"
// or when `use_files` is false: the defaults). nullopt with `error` set when that file is bad.
std::optional<Config> config_for_input(const std::string& path, bool use_files, ConfigError& error);

// `file` relative to `base` with '/' separators (both made absolute first); `file` itself
// (generic form) when it is not below `base`.
std::string relative_generic(const std::filesystem::path& file, const std::filesystem::path& base);

}  // namespace planlint
