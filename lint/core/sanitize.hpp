// Output that echoes input text (plan lines, table names, file names, messages) is made safe for
// a terminal, a CI log and an XML parser (docs/security.md).
#pragma once

#include <string>
#include <string_view>

namespace planlint {

// `s` with every control character shown visibly: C0 controls but tab, ESC and DEL as `\x1b`,
// C1 controls and Unicode bidirectional overrides as `\u009b`; invalid UTF-8 replaced by U+FFFD.
// Line breaks are kept when `keep_newlines` (multi-line output), else shown as `\n` and `\r`, so a
// file name with a newline never breaks a `path:line:col` line.
std::string visible(std::string_view s, bool keep_newlines = false);

// GitHub Actions reads a line whose first non-blank characters are `::` as a workflow command
// (`::add-mask::`, `::warning::`, `::stop-commands::`). Such lines get their first `:` written
// `\x3a`; everything else is unchanged.
std::string no_workflow_commands(std::string_view text);

// Both: multi-line output built from input text (`parse`, `show`, DOT, messages on stderr).
inline std::string safe_output(std::string_view text) { return no_workflow_commands(visible(text, true)); }

// XML 1.0 character data: characters XML forbids (most C0 controls, U+FFFE, U+FFFF) shown as
// `\x01`, invalid UTF-8 as U+FFFD, and & < > " ' escaped.
std::string xml_text(std::string_view s);

// Percent-encodes every byte but RFC 3986's unreserved characters and '/' (a path inside a URI:
// SARIF artifact locations, History Server URL segments).
std::string percent_encode_path(std::string_view s);

}  // namespace planlint
