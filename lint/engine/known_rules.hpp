// What the engine adds to the rule catalogue (rules/catalog.hpp): the parser's errors as
// `parse-error` findings, and whether a configuration reports a finding.
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

// Whether findings reported under `name` are kept by `config` (select/ignore by name or code;
// built-in findings only honour `ignore`). Unknown names are kept.
bool is_reported(const Config& config, std::string_view name);

}  // namespace planlint
