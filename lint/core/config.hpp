// Lint configuration: which rules run, at which severity, with which thresholds. Filled from
// the command line and (lint/core/config_file.*) from .planlint.toml / pyproject.toml.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule.hpp"

namespace planlint {

struct Config {
  std::set<std::string> select;      // rule names, codes, code prefixes (PL0) or ALL; empty = all rules
  std::set<std::string> ignore;      // rule names, codes, code prefixes or ALL
  std::map<std::string, Severity> severity;                       // by rule name
  std::map<std::string, std::map<std::string, double>> thresholds; // rule name -> option -> value
  // Thresholds shared by several rules (e.g. broadcast-threshold) can be given once here.
  std::map<std::string, double> global_thresholds;
  // Event logs: read only this SQL execution id (`--execution N`).
  std::optional<long long> execution;
  // The largest input read whole (explain text, Query Profile JSON), in bytes: `max-input-size`
  // in the config file, `--max-input-size` on the command line. Event logs are streamed in
  // bounded memory and are not limited by it.
  double max_input_bytes = 2.0 * 1024 * 1024 * 1024;

  [[nodiscard]] bool enabled(const RuleDoc& doc, std::string_view reported_name) const;
};

// The selectors (lint/core/config.cpp, the one implementation): a rule name or secondary name, a
// code, a code prefix ("PL", "PL0", "PLD"; as ruff's) or ALL.
// "PL", "PL0", "PL10": a prefix of rule codes.
bool is_code_prefix(std::string_view s);
// `prefix` is a code prefix and selects `doc` (a longer code starting with it).
bool prefix_selects(std::string_view prefix, const RuleDoc& doc);  // any code the rule reports
bool prefix_selects(std::string_view prefix, std::string_view code);
// The names a rule reports with the code of each: its own first, then RuleDoc::also_reports.
std::vector<std::pair<std::string, std::string>> reported_names(const RuleDoc& doc);

// Whether findings reported under `name` are kept by `config` (select/ignore by name or code;
// built-in findings only honour `ignore`). Unknown names are kept.
bool is_reported(const Config& config, std::string_view name);

// Whether `name_or_code` is a selector that selects something (validation of config files and
// flags); `error` says what is wrong.
bool check_rule_selector(std::string_view name_or_code, std::string& error);

}  // namespace planlint
