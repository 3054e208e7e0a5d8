#include "lint/core/settings.hpp"

#include "lint/core/config_file.hpp"

namespace planlint {

bool settings_select(Settings& s, std::string_view rule, std::string& error) {
  if (!check_rule_selector(rule, error)) return false;
  if (!s.select) s.select.emplace();
  s.select->insert(std::string(rule));
  return true;
}

bool settings_ignore(Settings& s, std::string_view rule, std::string& error) {
  if (!check_rule_selector(rule, error)) return false;
  s.ignore.insert(std::string(rule));
  return true;
}

bool settings_extend_select(Settings& s, std::string_view rule, std::string& error) {
  if (!check_rule_selector(rule, error)) return false;
  s.extend_select.insert(std::string(rule));
  return true;
}

bool settings_severity(Settings& s, std::string_view rule, std::string_view level, std::string& error) {
  return set_severity(s.values, rule, level, error);
}

bool settings_threshold(Settings& s, std::string_view key, std::string_view value, std::string& error) {
  return set_threshold(s.values, key, value, error);
}

Config apply_settings(Config base, const Settings& s) {
  if (s.select && !s.select->empty()) base.select = *s.select;
  if (!base.select.empty()) base.select.insert(s.extend_select.begin(), s.extend_select.end());  // empty: all
  base.ignore.insert(s.ignore.begin(), s.ignore.end());
  for (const auto& [k, v] : s.values.severity) base.severity[k] = v;
  for (const auto& [k, v] : s.values.global_thresholds) base.global_thresholds[k] = v;
  for (const auto& [rule, opts] : s.values.thresholds)
    for (const auto& [k, v] : opts) base.thresholds[rule][k] = v;
  // A rule-specific option from the file would shadow a global one from the settings.
  for (const auto& [k, v] : s.values.global_thresholds)
    for (auto& [rule, opts] : base.thresholds)
      if (opts.count(k) && !(s.values.thresholds.count(rule) && s.values.thresholds.at(rule).count(k))) opts[k] = v;
  return base;
}

}  // namespace planlint
