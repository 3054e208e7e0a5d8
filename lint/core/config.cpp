// Which findings a configuration selects: the one implementation of ruff-style selectors (a rule
// name or secondary name, a code, a code prefix, ALL) for running rules (Config::enabled), keeping
// findings (is_reported) and validating what a user wrote (check_rule_selector).
#include "lint/core/config.hpp"

#include "rules/catalog.hpp"

namespace planlint {

// "PL", then the family letters (PLD = plan diffs, PLH = history), then digits: PL0, PLD, PLD00.
bool is_code_prefix(std::string_view s) {
  if (s.size() < 2 || s.substr(0, 2) != "PL") return false;
  std::size_t i = 2;
  while (i < s.size() && s[i] >= 'A' && s[i] <= 'Z') ++i;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool prefix_selects(std::string_view prefix, std::string_view code) {
  return is_code_prefix(prefix) && code.size() > prefix.size() && code.compare(0, prefix.size(), prefix) == 0;
}

bool prefix_selects(std::string_view prefix, const RuleDoc& doc) {
  for (const auto& [name, code] : reported_names(doc))
    if (prefix_selects(prefix, code)) return true;
  return false;
}

std::vector<std::pair<std::string, std::string>> reported_names(const RuleDoc& doc) {
  std::vector<std::pair<std::string, std::string>> v{{doc.name, doc.code}};
  for (const auto& a : doc.also_reports) v.emplace_back(a.name, a.code);
  return v;
}

namespace {
// Whether a selector list names the findings a rule reports as `name`: by that name or its own
// code (one name per code: PL005 is exploding-join, PL009 cartesian-product, which the same rule
// reports), a former name of the rule, ALL or a prefix of the code.
bool matches(const std::set<std::string>& set, const RuleDoc& doc, std::string_view name) {
  if (set.empty()) return false;  // the usual case: no select or ignore list (no string built)
  const std::string& code = doc.code_of(name);
  if (set.count(std::string(name)) || set.count(code)) return true;
  if (name == doc.name)
    for (const auto& a : doc.aliases)  // a former name (photon-fallback) selects the renamed rule
      if (set.count(a)) return true;
  // ruff's selectors: ALL, and code prefixes (PL0 = PL001..PL099, PL1 = PL101..).
  for (const auto& s : set)
    if (s == "ALL" || prefix_selects(s, code)) return true;
  return false;
}
}  // namespace

bool Config::enabled(const RuleDoc& doc, std::string_view reported_name) const {
  if (!select.empty() && !matches(select, doc, reported_name)) return false;
  return !matches(ignore, doc, reported_name);
}

bool is_reported(const Config& config, std::string_view name) {
  const RuleDoc* doc = find_rule_doc(name);
  if (!doc) return true;
  if (doc->family == RuleFamily::Builtin) {
    // Code prefixes reach them too (PL9); ALL does not: a plan that could not be read is always said.
    if (config.ignore.count(doc->name) || config.ignore.count(doc->code)) return false;
    for (const auto& s : config.ignore)
      if (prefix_selects(s, *doc)) return false;
    return true;
  }
  return config.enabled(*doc, name);
}

bool check_rule_selector(std::string_view name_or_code, std::string& error) {
  if (find_rule_doc(name_or_code)) return true;
  if (name_or_code == "ALL") return true;
  if (is_code_prefix(name_or_code)) {  // must select at least one rule
    for (const RuleDoc* d : all_rule_docs())
      if (prefix_selects(name_or_code, *d)) return true;
    error = "no rule code starts with `" + std::string(name_or_code) + "` (`planlint rules` lists them)";
    return false;
  }
  error = "unknown rule `" + std::string(name_or_code) + "` (`planlint rules` lists them)";
  return false;
}

}  // namespace planlint
