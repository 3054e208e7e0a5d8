#include "lint/core/describe_settings.hpp"

#include <cstdio>
#include <set>
#include <sstream>

#include "rules/catalog.hpp"

namespace planlint {

namespace {

std::string list(const std::set<std::string>& v) {
  std::string out = "[";
  for (const auto& x : v) out += (out.size() > 1 ? ", \"" : "\"") + x + "\"";
  return out + "]";
}

// select, ignore and include, with their sources.
void describe_selection(std::ostream& out, const SettingsSources& s, const std::string& file) {
  const Config& c = *s.config;
  const Settings& cli = *s.cli;
  std::string from_file = file.empty() ? "" : "  # " + file;
  out << "select = " << list(c.select)
      << (cli.select ? "  # --select" : !c.select.empty() ? from_file : "  # default: every rule") << "\n";
  out << "ignore = " << list(c.ignore);
  if (!c.ignore.empty()) {
    std::string src;
    for (const auto& x : c.ignore) {
      std::string where = cli.ignore.count(x)                          ? "--ignore"
                          : s.project && s.project->config.ignore.count(x) ? file
                                                                       : "per-file-ignores of " + file;
      src += (src.empty() ? "" : ", ") + x + ": " + where;
    }
    out << "  # " << src;
  } else {
    out << "  # default";
  }
  out << "\n";
  out << "include = [";
  for (std::size_t i = 0; i < s.include.size(); ++i) out << (i ? ", \"" : "\"") << s.include[i] << "\"";
  out << "]  # " << (s.include_from_cli ? "--include" : s.project && !s.project->include.empty() ? file : "default")
      << "\n";
}

// [severity] and [thresholds] of every rule, with their sources.
void describe_rules(std::ostream& out, const SettingsSources& s, const std::string& file) {
  const Config& c = *s.config;
  const Settings& cli = *s.cli;
  out << "[severity]\n";
  for (const RuleDoc* d : all_rule_docs()) {
    auto it = c.severity.find(d->name);
    std::string src = it == c.severity.end() ? "default" : cli.values.severity.count(d->name) ? "--severity" : file;
    out << d->name << " = \"" << to_string(it == c.severity.end() ? d->severity : it->second) << "\"  # " << src << "\n";
  }
  out << "[thresholds]\n";
  for (const RuleDoc* d : all_rule_docs())
    for (const auto& t : d->thresholds) {
      double v = t.default_value;
      std::string src = "default";
      if (auto g = c.global_thresholds.find(t.name); g != c.global_thresholds.end()) {
        v = g->second;
        src = cli.values.global_thresholds.count(t.name) ? "--set" : file;
      }
      if (auto r = c.thresholds.find(d->name); r != c.thresholds.end())
        if (auto o = r->second.find(t.name); o != r->second.end()) {
          v = o->second;
          src = cli.values.thresholds.count(d->name) && cli.values.thresholds.at(d->name).count(t.name) ? "--set" : file;
        }
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.15g", v);
      out << "\"" << d->name << "." << t.name << "\" = " << buf << (t.unit.empty() ? "" : "  # " + t.unit + ",")
          << (t.unit.empty() ? "  # " : " ") << src << "\n";
    }
}

}  // namespace

std::string describe_settings(const SettingsSources& s) {
  std::string file = s.project && !s.project->file.empty() ? s.project->file.generic_string() : "";
  std::ostringstream out;
  out << "# settings for " << s.shown
      << " (config file: " << (s.no_config ? "none, --no-config" : file.empty() ? "none found" : file) << ")\n";
  describe_selection(out, s, file);
  describe_rules(out, s, file);
  return out.str();
}

}  // namespace planlint
