// Line-level matchers over grammar/explain.hpp: each function runs one PEGTL grammar on one
// normalised line and returns the pieces as views into that line. Internal to the explain reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace planlint::explain {

// A syntax error inside one line: 0-based column and the grammar's message.
struct LineError {
  std::uint32_t column = 0;
  std::string message;
};

struct TreeLine {
  std::uint32_t column = 0;        // 0-based column of the node text (after the connector, before `* `)
  std::uint32_t label_column = 0;  // 0-based column of the label (after the codegen marker)
  bool connector = false;          // `+- ` / `:- ` present
  bool codegen = false;            // `* `, `*(n) `, `^ `
  std::optional<int> codegen_stage;
  std::string_view label;          // text between the marker and the id (formatted) or the whole node text
  std::string_view id;             // formatted: digits or "unknown"
  std::string_view stats;          // Statistics(...) body when present
  bool has_stats = false;
  std::string_view columnar;       // formatted 4.0+: "(columnarIn=..., columnarOut=...)"
};

// Whether match_formatted_tree_line finds the end of a line's lead 32 bytes at a time (AVX2) on a
// line of 32 bytes or more: set at start when the processor has AVX2 (x86-64 builds); tests turn
// it off and on to compare both readings.
extern bool lead_wide;

// Formatted outline line `<lead>[* ]<label> (<id>)[, Statistics(...)]`. With `report`, a line that
// is not one fills `err` with the grammar's message (must<>), otherwise it just returns false.
bool match_formatted_tree_line(std::string_view line, TreeLine& out, LineError* err);
// The same read by the grammar alone (match_formatted_tree_line reads the common shape by hand):
// for the test that pins the two together.
bool match_formatted_tree_line_by_grammar(std::string_view line, TreeLine& out);

// Default-mode / logical tree line: lead, optional marker, text, optional `, Statistics(...)`.
bool match_plain_tree_line(std::string_view line, TreeLine& out);

// `+- == Final Plan ==` etc; `column` is the 0-based column of the `+-`.
enum class AqeTitle : std::uint8_t { Final, Current, Initial };
bool match_aqe_header(std::string_view line, AqeTitle& title, std::uint32_t& column);

// `== Title ==`.
bool match_mode_header(std::string_view line, std::string_view& title);

bool match_subqueries_marker(std::string_view line);
bool match_optimized_out_marker(std::string_view line);
// `Subplan:<n>`; false when the line does not start with "Subplan:"; err when malformed.
bool match_subplan_line(std::string_view line, int& number, LineError* err);

struct SubqueryLine {
  int number = 0;
  std::string_view hosting_id;
  std::string_view expression;
  std::uint32_t expression_column = 0;
};
// `Subquery:<n> Hosting operator id = <id> Hosting Expression = <expr>`; false when the line does not
// start with "Subquery:"; err filled when it does but is malformed.
bool match_subquery_line(std::string_view line, SubqueryLine& out, LineError* err);

struct BlockHeader {
  std::string_view id;
  std::string_view name;           // trailing spaces trimmed
  std::optional<int> codegen_stage;
  std::string_view reuses;         // ReusedExchange target: digits or "unknown"
  bool has_reuses = false;
};
bool match_block_header(std::string_view line, BlockHeader& out);
// The same read by the grammar alone (match_block_header reads the common shapes by hand): for the
// test that pins the two together.
bool match_block_header_by_grammar(std::string_view line, BlockHeader& out);

struct FieldLine {
  std::string_view key;
  std::string_view value;
  std::uint32_t value_column = 0;
  std::optional<std::size_t> count;
};
bool match_field_line(std::string_view line, FieldLine& out);
// The same through grammar/explain.hpp's field_line (what match_field_line reads by hand; for tests).
bool match_field_line_by_grammar(std::string_view line, FieldLine& out);

struct StatsValues {
  std::optional<double> size_bytes;
  std::optional<double> row_count;
  bool masked = false;
};
// The body of Statistics(...): sizes with units B..EiB, rowCount in plain or scientific notation.
bool parse_stats_body(std::string_view body, StatsValues& out);

}  // namespace planlint::explain
