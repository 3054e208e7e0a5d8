// The findings the lint front end reports itself, next to the rules of rules/: parse errors and
// suppressions that matched nothing. They have RuleDocs like real rules so that config
// validation, `--select`, SARIF rule metadata and the baseline treat every finding the same way.
#pragma once

#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "rules/rule.hpp"

namespace planlint {

inline constexpr std::string_view kParseErrorRule = "parse-error";
inline constexpr std::string_view kUnusedSuppressionRule = "unused-suppression";

const RuleDoc& parse_error_doc();
const RuleDoc& unused_suppression_doc();

// Every documented finding: the registered rules, then the built-in ones above.
std::vector<const RuleDoc*> all_rule_docs();

// By name, secondary name (also_reports) or code, rules first; nullptr when unknown.
const RuleDoc* find_rule_doc(std::string_view name_or_code);

// The reported names a selector stands for: a name gives itself, a code gives the rule's name
// and every name it also reports. Empty when unknown.
std::vector<std::string> names_for_selector(std::string_view name_or_code);

// Built-in findings are always selected; only `ignore` turns them off.
bool is_builtin_rule(std::string_view name);

// The parser's error messages as `parse-error` diagnostics (severity error). Parser warnings and
// notes are about what the parser could not understand, not about the plan: not reported.
std::vector<Diagnostic> parse_error_diagnostics(const ParseResult& parsed);

}  // namespace planlint

#include "lint/core/config.hpp"

namespace planlint {

// Whether findings reported under `name` are kept by `config` (select/ignore by name or code;
// built-in findings only honour `ignore`). Unknown names are kept.
bool is_reported(const Config& config, std::string_view name);

}  // namespace planlint
