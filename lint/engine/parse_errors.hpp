// The parser's errors as `parse-error` (PL900) findings: what the engine adds to what the rules
// report. (The finding's doc is lint/core/builtin_rules.hpp; whether a configuration reports a
// finding: is_reported, lint/core/config.hpp.)
#pragma once

#include <string_view>
#include <vector>

#include "lint/core/builtin_rules.hpp"
#include "lint/core/config.hpp"
#include "model/plan.hpp"
#include "rules/catalog.hpp"
#include "rules/rule.hpp"

namespace planlint {

// The parser's error messages as `parse-error` diagnostics (severity error). Parser warnings and
// notes are about what the parser could not understand, not about the plan: not reported.
std::vector<Diagnostic> parse_error_diagnostics(const ParseResult& parsed);

}  // namespace planlint
