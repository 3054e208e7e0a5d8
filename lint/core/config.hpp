// Lint configuration: which rules run, at which severity, with which thresholds. Filled from
// the command line and (lint/core/config_file.*) from .planlint.toml / pyproject.toml.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
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

// "PL", "PL0", "PL10": a prefix of rule codes, as ruff's selectors.
bool is_code_prefix(std::string_view s);

}  // namespace planlint
