// The language features of `planlint lsp`, as pure functions from one linted document to LSP
// JSON: diagnostics, hover, document symbols and code actions. The server (lint/lsp/lsp_server.*)
// owns the state and the protocol; nothing here reads or writes a stream.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "lint/engine/engine.hpp"
#include "lint/lsp/lsp_text.hpp"

namespace planlint::lsp {

using json = nlohmann::json;

// The command behind the "show suggested fix" code action (workspace/executeCommand).
inline constexpr std::string_view kShowFixCommand = "planlint.showFix";

// The rule's documentation page (docs/rules/<name>.md) as a file:// URI, when the page is on this
// machine: in <prefix>/share/doc/planlint/rules/ beside an installed planlint (cmake --install, the
// Debian package), or in docs/rules/ of the source tree above the build folder the executable runs
// from. Empty when it is not: no link rather than an address that may not exist (the project
// publishes no web address for its pages).
std::string rule_doc_url(std::string_view rule);
// Where rule_doc_url looks (tests); an empty path restores the default (from the executable).
void set_rule_doc_dir(std::string dir);

json to_json(const Position& p);
json to_json(const Range& r);
std::optional<Position> position_from_json(const json& j);
std::optional<Range> range_from_json(const json& j);

// One linted document as the features see it.
struct DocumentView {
  std::string uri;
  std::string_view text;
  const LineIndex& lines;
  const LintResult& lint;
};

// `textDocument/publishDiagnostics` items: parser messages and rule findings.
json diagnostics_json(const DocumentView& doc);

// The operator under `pos` (innermost when ranges nest); nullopt when none.
struct OperatorRef {
  std::size_t plan = 0;
  std::size_t op = 0;
};
std::optional<OperatorRef> operator_at(const DocumentView& doc, Position pos);

// Markdown hover for the operator under `pos`, or null.
json hover_json(const DocumentView& doc, Position pos);

// Hierarchical DocumentSymbol[] of the operator tree (one Module per plan when there are several).
json document_symbols_json(const DocumentView& doc);

// CodeAction[] for the findings that touch `range`.
json code_actions_json(const DocumentView& doc, Range range);

// The suppression comment the CLI understands for `rule` on operator `operator_id`.
std::string suppression_directive(std::string_view rule, std::string_view operator_id);

}  // namespace planlint::lsp
