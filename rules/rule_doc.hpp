// Rendering of a RuleDoc: the same text serves `planlint rule NAME`, docs/rules/<name>.md,
// LSP hover and SARIF rule help.
#pragma once

#include <string>

#include "rules/rule.hpp"

namespace planlint {

enum class DocFormat : std::uint8_t { Text, Markdown };

// The full documentation of one rule (What it does / Why is this bad? / Example / Use instead /
// Evidence / Options with defaults / Also reports).
std::string render_rule_doc(const RuleDoc& doc, DocFormat format);

// One threshold's default as text: "10485760 bytes (10.0 MiB)", "5", "5000 ms (5.0 s)".
std::string format_threshold_default(const Threshold& t);

// The table of every rule (name, code, severity, summary).
std::string render_rule_list(DocFormat format);

}  // namespace planlint
