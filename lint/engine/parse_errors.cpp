#include "lint/engine/parse_errors.hpp"

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

}  // namespace planlint
