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

// `planlint check --why RULE`: run one rule over every plan with its explanations on. `notes`
// gets, per plan, the candidates the rule let go and why; the findings are returned.
struct WhyPlanNotes {
  std::size_t plan_index = 0;
  std::vector<RuleContext::WhyNote> notes;
};
std::vector<Diagnostic> run_rule_why(const ParseResult& parsed, const Config& config, const Rule& rule,
                                     std::vector<WhyPlanNotes>& notes);

// parse_input + run_rules.
LintResult lint_text(std::string_view text, const std::string& path, const Config& config);

}  // namespace planlint
