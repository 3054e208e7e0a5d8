// The state of the explain-text reader while it reads one text, and its line handlers. The driver
// (`ExplainTextReader` in explain_parser.cpp) reads the normalised lines in order, follows the
// `== ... ==` headers and hands each line to the handler of the region and mode it is in; every
// handler takes the `ExplainState` and the line's index, so what it reads and changes is in view.
// Internal to parser/explain/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/plan.hpp"
#include "parser/explain/explain_lines.hpp"
#include "parser/explain/normalize.hpp"
#include "parser/explain/operator_ids.hpp"
#include "parser/explain/outline.hpp"
#include "support/text_search.hpp"

namespace planlint::explain {

// The part of a plan the current line is in (set by the `== ... ==` headers).
enum class Region : std::uint8_t { None, Physical, Logical, Trailer };
// Where a physical plan's reading is: before its first line, in its tree (outline), in the
// formatted details, or at the first line after a `Subquery:` / `Subplan:` entry line.
enum class PhysMode : std::uint8_t { Start, Outline, Details, EntryStart };
// Which physical format the plan's first tree line showed.
enum class PhysKind : std::uint8_t { Unknown, Formatted, Default };

// A ReusedExchange whose target is resolved when the plan ends (forward references are allowed):
// a printed id (formatted mode) or an exchange label (default mode).
struct PendingReuse {
  std::size_t op;
  std::string target;
  SourceRange loc;
};

// The formatted mode's detail block being read: `(N) Name` and its `Key: value` lines.
struct DetailBlock {
  std::optional<std::size_t> op;         // the block's operator
  bool open = false;                     // inside a block (even for an id missing from the outline)
  std::optional<std::size_t> last_field; // the field a continuation line extends
  std::size_t last_field_first_line = 0;
  SourceRange last_field_at;             // the last field's lines (the field keeps where they start)
  SourceRange last_value_at;             // where the last field's value starts
  bool blank = true;                     // the previous line was blank (a block header may follow)
};

// The logical section being read (extended and cost modes).
struct LogicalState {
  Section section = Section::OptimizedLogical;
  bool expect_schema = false;  // the analyzed plan starts with a `a: int, b: string` schema line
  bool done = false;           // the tree ended (a blank line): the rest is ignored
};

struct ExplainState {
  ExplainState(const Normalized& norm, ParseResult& result, std::string_view input)
      : n(norm), r(result), input_text(input) {}

  const Normalized& n;
  ParseResult& r;
  std::string_view input_text;  // the shared input's bytes ("" when none)

  // ---- for the whole text ----
  std::vector<std::uint32_t> bad;      // original line numbers of lines that were not understood
  std::vector<std::size_t> bad_index;  // their normalised indexes
  std::size_t last_text_line = 0;      // the last non-empty line read
  bool handed_over_photon = false;     // a plan handed over (ParseResult::handed_over_plans) had one

  // ---- per plan (reset()) ----
  bool have_plan = false;
  Region region = Region::None;
  PhysMode mode = PhysMode::Start;
  PhysKind kind = PhysKind::Unknown;
  bool has_physical = false;
  bool has_logical = false;
  bool has_parsed = false;
  bool has_optimized = false;
  Outline outline;
  OperatorIds ids;  // printed id -> operator (the ids are views kept in the plan)
  DetailBlock block;
  LogicalState logical;
  std::vector<PendingReuse> reuses;
  std::vector<std::pair<std::size_t, std::string>> hosting;  // subquery entry -> hosting id
  std::optional<std::size_t> trailer;                        // the trailer being read

  Plan& plan() { return r.plans.back(); }

  // plan().keep(s), tested for the shared input first: nearly every key and value of a detail
  // line is a view into it, which the plan's store keeps alive (view_input) without a copy.
  // (The copy is out of line so that the test inlines where it is called.)
  Text keep(std::string_view s) {
    if (!s.empty() && lies_within(s, input_text)) return Text::stable(s);
    return keep_copy(s);
  }
  [[gnu::noinline]] Text keep_copy(std::string_view s) { return plan().keep(s); }

  // A message at column `col` of line `i`; an error also lists the line as not understood.
  void error(std::size_t i, std::uint32_t col, std::string msg, MessageSeverity sev = MessageSeverity::Error) {
    if (sev == MessageSeverity::Error) {
      bad.push_back(n.line_number(i));
      bad_index.push_back(i);
    }
    SrcPos p = n.pos(i, col);
    r.messages.push_back({sev, {p.line, p.col, p.line, p.col + 1}, std::move(msg)});
  }

  // The per-plan state back to a plan's start.
  void reset() {
    region = Region::None;
    mode = PhysMode::Start;
    kind = PhysKind::Unknown;
    has_physical = has_logical = has_parsed = has_optimized = false;
    logical.expect_schema = false;
    logical.done = false;
    outline.reset();
    ids.clear();
    block.op.reset();
    block.open = false;
    block.last_field.reset();
    block.blank = true;
    reuses.clear();
    hosting.clear();
    trailer.reset();
  }
};

// ---- the line handlers, by file ----
// formatted_outline.cpp: a line of the formatted mode's numbered outline, and one of its nodes.
void formatted_outline(ExplainState& s, std::size_t i);
void formatted_node(ExplainState& s, std::size_t i, const TreeLine& tl);
// formatted_details.cpp: the detail area (`(N) Name` blocks, `Subquery:` / `Subplan:` entries).
void details(ExplainState& s, std::size_t i);
void end_block(ExplainState& s);  // the block being read is complete
void mark_missing_details(ExplainState& s);  // at the plan's end: outline operators without a block
// default_mode.cpp: a line of the default (simple / extended / codegen) physical tree.
void default_line(ExplainState& s, std::size_t i);
// logical.cpp: a line of a parsed / analyzed / optimized logical plan; its hints at the plan's end.
void logical_line(ExplainState& s, std::size_t i);
void link_logical_hints(Plan& p);
// trailers.cpp: sections after the plans (Photon Explanation, Optimizer Statistics, any other).
void open_trailer(ExplainState& s, std::size_t i, std::string_view title);
bool has_trailer(const Plan& p, std::string_view title);
void trailer_line(ExplainState& s, std::size_t i);
void finish_trailers(Plan& p);  // at the plan's end: their text trimmed and read
// finish.cpp: the end of a plan (links, format) and of the text (the summary of what was read).
void finish_plan(ExplainState& s);
void summarize(ExplainState& s);

}  // namespace planlint::explain
