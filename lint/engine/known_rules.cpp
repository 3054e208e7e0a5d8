#include "lint/engine/known_rules.hpp"

namespace planlint {

std::vector<Diagnostic> parse_error_diagnostics(const ParseResult& parsed) {
  std::vector<Diagnostic> out;
  const RuleDoc& doc = parse_error_doc();
  for (const auto& m : parsed.messages) {
    if (m.severity != MessageSeverity::Error) continue;
    Diagnostic d;
    d.rule = doc.name;
    d.code = doc.code;
    d.severity = doc.severity;
    d.message = m.message;
    d.range = m.loc;
    out.push_back(std::move(d));
  }
  return out;
}

bool is_reported(const Config& config, std::string_view name) {
  const RuleDoc* doc = find_rule_doc(name);
  if (!doc) return true;
  if (is_builtin_rule(doc->name)) {
    // Code prefixes reach them too (PL9); ALL does not: a plan that could not be read is always said.
    if (config.ignore.count(doc->name) || config.ignore.count(doc->code)) return false;
    for (const auto& s : config.ignore)
      if (is_code_prefix(s) && doc->code.compare(0, s.size(), s) == 0) return false;
    return true;
  }
  return config.enabled(*doc, name);
}

}  // namespace planlint
