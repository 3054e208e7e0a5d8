// Lint configuration: which rules run, at which severity, with which thresholds. Filled from
// the command line and (lint/config/config_file.*) from .planlint.toml / pyproject.toml.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rules/rule.hpp"

namespace planlint {

struct Config {
  std::set<std::string> select;      // rule names or codes; empty = all rules
  std::set<std::string> ignore;      // rule names or codes
  std::map<std::string, Severity> severity;                       // by rule name
  std::map<std::string, std::map<std::string, double>> thresholds; // rule name -> option -> value
  // Thresholds shared by several rules (e.g. broadcast-threshold) can be given once here.
  std::map<std::string, double> global_thresholds;
  // Event logs: read only this SQL execution id (`--execution N`).
  std::optional<long long> execution;

  [[nodiscard]] bool enabled(const RuleDoc& doc, std::string_view reported_name) const;
};

}  // namespace planlint
