// The lint engine: parse an input, run every enabled rule over every plan, order the findings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint/config/config.hpp"
#include "parser/registry/parse.hpp"
#include "rules/rule.hpp"

namespace planlint {

struct LintResult {
  ParseResult parse;
  std::vector<Diagnostic> diagnostics;   // in reading order (plan, line, column)
};

// Run the enabled rules over already-parsed plans.
std::vector<Diagnostic> run_rules(const ParseResult& parsed, const Config& config);

// parse_input + run_rules.
LintResult lint_text(std::string_view text, const std::string& path, const Config& config);

}  // namespace planlint
