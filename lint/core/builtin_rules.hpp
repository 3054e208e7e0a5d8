// The findings the lint front end reports itself, next to the rules of rules/: parse errors and
// suppressions that matched nothing. They have RuleDocs like real rules so that config
// validation, `--select`, SARIF rule metadata and the baseline treat every finding the same way;
// they are the catalogue's family "builtin" (rules/catalog.hpp).
#pragma once

#include <string_view>

#include "rules/catalog.hpp"
#include "rules/rule.hpp"

namespace planlint {

inline constexpr std::string_view kParseErrorRule = "parse-error";
inline constexpr std::string_view kUnusedSuppressionRule = "unused-suppression";

const RuleDoc& parse_error_doc();
const RuleDoc& unused_suppression_doc();

// PL900 and PL901 as the family "builtin".
void register_builtin_rules(RuleCatalog& catalog);

}  // namespace planlint
