// Suppression directives inside plan files, for plans that are saved (or generated) next to code:
//   # planlint: disable=rule-a,rule-b            the whole file
//   # planlint: disable=rule-a operator=12       only operator 12 (comma list allowed: 12,14)
// `--` and `//` comments work too; rules by name or code; blanks around `=` are allowed, and the
// first line may start with a UTF-8 BOM. A directive line stands on its own line, anywhere in the
// file (usually before the plan). Directives that suppressed nothing are reported as
// `unused-suppression` (like ruff's RUF100), and so is a comment line starting `planlint:` that is
// not a directive this parser understands (a typo must not silently suppress nothing).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint/core/config.hpp"
#include "rules/rule.hpp"

namespace planlint {

struct Suppression {
  struct Entry {
    std::string rule;                 // as written: a name or a code
    SourceRange loc;                  // of the name in the directive
  };
  std::vector<Entry> rules;
  std::vector<std::string> operator_ids;  // empty: the whole file
  SourceRange loc;                        // the directive line
  bool understood = true;                 // false: a `planlint:` comment that is no directive (no rules)
};

// True when `line` is a directive line, understood or not (a comment starting `planlint:`).
bool is_directive_line(std::string_view line);

// Every directive in `text`, in order.
std::vector<Suppression> find_suppressions(std::string_view text);

// Remove the diagnostics the directives match and append one `unused-suppression` diagnostic per
// directive entry that matched nothing (for rules `config` reports; unknown names always), unless
// `config` ignores `unused-suppression`. Returns the number of diagnostics removed.
std::size_t apply_suppressions(const std::vector<Suppression>& suppressions, std::vector<Diagnostic>& diags,
                               const Config& config);

}  // namespace planlint
