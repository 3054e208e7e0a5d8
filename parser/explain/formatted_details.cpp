// The formatted mode's detail area, after the outline: one `(N) Name [codegen id : k]` block per
// operator with its `Key: value` fields (a value may go on over several lines), the
// `===== Subqueries =====` and `===== Adaptively Optimized Out Exchanges =====` markers and the
// `Subquery:N Hosting operator id = ...` / `Subplan:N` entries, each followed by its own outline.
#include <algorithm>
#include <string>

#include "parser/explain/explain_ops.hpp"
#include "parser/explain/explain_state.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

namespace {

// `(N) Name` (a block header): `op` is the operator the outline printed with that id, if any.
void block_header(ExplainState& s, std::size_t i, const BlockHeader& bh, std::optional<std::size_t> op) {
  end_block(s);
  s.block.open = true;
  if (!op) return;  // a block for an id the outline does not show (Gluten's WholeStageCodegenTransformer)
  Operator& o = s.plan().ops[*op];
  if (!o.fields.empty() || o.detail_loc.known()) {
    s.error(i, 1, "second detail block for operator id " + o.id + "; the first one is kept", MessageSeverity::Warning);
    return;
  }
  s.block.op = op;
  // One block for the fields: at most one per line up to the blank line that ends the block
  // (counted up to 64: damaged text without blank lines must not reserve for the rest of it).
  std::size_t lines = 0;
  for (std::size_t j = i + 1; j < s.n.line_count() && !s.n.text(j).empty() && lines < 64; ++j) ++lines;
  o.fields.reserve(lines);
  o.detail_loc = s.n.range(i, 0, s.n.text(i).size());
  if (bh.codegen_stage) {
    o.codegen_stage = bh.codegen_stage;
    o.codegen = true;
  }
  // The block header's bare name is the operator's name (no join type / build side).
  // (only when it agrees with the outline label: a cut-off header must not rename the operator).
  std::string_view hn = trim_spaces(bh.name);
  if (!hn.empty() && o.label.starts_with(hn)) o.name = o.label.sub(0, hn.size());
  else if (!hn.empty())
    s.error(i, 4, "detail block (" + o.id + ") '" + std::string(hn) + "' does not match the outline's '" + o.label + "'",
            MessageSeverity::Warning);
  if (bh.has_reuses) {
    if (bh.reuses != "unknown") s.reuses.push_back({*op, std::string(bh.reuses), o.detail_loc});
  }
}

// The markers and entry lines of the subquery sections (the line starts with '=' or 'S'): true
// when line `i` was one (or a broken `Subquery:` / `Subplan:` line, reported).
bool entry_line(ExplainState& s, std::size_t i, std::string_view t) {
  if (match_subqueries_marker(t)) {
    end_block(s);
    s.outline.base = Section::Subquery;
    return true;
  }
  if (match_optimized_out_marker(t)) {
    end_block(s);
    s.outline.base = Section::OptimizedOut;
    return true;
  }
  LineError err;
  SubqueryLine sq;
  if (match_subquery_line(t, sq, &err)) {
    end_block(s);
    s.outline.base = Section::Subquery;
    Plan& p = s.plan();
    SubqueryEntry e;
    e.number = sq.number;
    e.hosting_expression = std::string(sq.expression);
    e.loc = s.n.range(i, 0, t.size());
    p.subqueries.push_back(std::move(e));
    if (sq.hosting_id != "unknown") s.hosting.emplace_back(p.subqueries.size() - 1, std::string(sq.hosting_id));
    s.outline.entry = p.subqueries.size() - 1;
    s.mode = PhysMode::EntryStart;
    return true;
  }
  if (t.starts_with("Subquery:")) {
    s.error(i, err.column, err.message);
    return true;
  }
  int number = 0;
  err = {};
  if (match_subplan_line(t, number, &err)) {
    end_block(s);
    s.outline.base = Section::OptimizedOut;
    s.outline.entry.reset();
    s.mode = PhysMode::EntryStart;
    return true;
  }
  if (t.starts_with("Subplan:")) {
    s.error(i, err.column, err.message);
    return true;
  }
  return false;
}

// `[a#1, b#2]`: one bracketed list, closed at the end of the text (brackets balanced, none inside quotes).
bool closed_list(std::string_view v) {
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') return false;
  int depth = 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const char c = v[k];
    if (c == '\n' || c == '\'' || c == '"' || c == '`') return false;
    if (c == '[') ++depth;
    else if (c == ']' && --depth == 0 && k + 1 != v.size()) return false;
  }
  return depth == 0;
}

// A line inside a block: a new `Key: value` field, the continuation of the last value (a literal
// with a newline, PushedJoins lines), or a bare line.
void block_line(ExplainState& s, std::size_t i, std::string_view t) {
  DetailBlock& b = s.block;
  FieldLine fl;
  if (match_field_line(t, fl)) {
    if (b.last_field && b.op)
      finish_field(s.plan().text_store(), s.plan().ops[*b.op].fields[*b.last_field], s.r.messages, b.last_field_at,
                   b.last_value_at);
    b.last_field.reset();
    if (!b.op) return;
    Operator& o = s.plan().ops[*b.op];
    Field& f = o.fields.emplace_back();  // built in place: no moved-from field to release
    // The key and the value are parts of the line: one test of the line says whether both are
    // views of the shared input (s.keep tested each). An empty value is still kept as keep() keeps it.
    if (lies_within(t, s.input_text)) {
      f.key = Text::stable(fl.key);  // (never empty: it starts with a capital)
      f.value = fl.value.empty() ? s.keep(fl.value) : Text::stable(fl.value);
    } else {
      f.key = s.keep(fl.key);
      f.value = s.keep(fl.value);
    }
    f.set_count(fl.count);
    b.last_field_at = s.n.range(i, 0, t.size());
    f.loc = b.last_field_at;
    b.last_field = o.fields.size() - 1;
    b.last_field_first_line = i;
    // A line that is a plain view of the input maps every column by the same shift: the value's
    // start is the line's start moved right, without a second look-up.
    b.last_value_at = !s.n.plain(i)
                          ? s.n.range(i, fl.value_column, fl.value_column + 1)
                          : SourceRange{f.loc.line, f.loc.column + fl.value_column, f.loc.line,
                                        f.loc.column + fl.value_column + 1};
    return;
  }
  if (!b.op) return;
  Operator& o = s.plan().ops[*b.op];
  // A DSv2 scan whose Scan has no metadata map (Iceberg, Cassandra, ...) prints its description()
  // on a line of its own after `Output [N]: [...]`: `lake.db.t (branch=null) [filters=x = 42, groupedBy=]`.
  // An Output list holds attributes only and ends on its own line: a line after a closed Output
  // list is no part of it, but a field without a key.
  if (b.last_field && b.last_field_first_line + 1 == i && o.fields[*b.last_field].key == "Output" &&
      closed_list(o.fields[*b.last_field].value)) {
    finish_field(s.plan().text_store(), o.fields[*b.last_field], s.r.messages, b.last_field_at, b.last_value_at);
    b.last_field.reset();
  }
  if (b.last_field) {
    Field& f = o.fields[*b.last_field];
    f.value = s.plan().text_store().concat({f.value, "\n", t});
    b.last_field_at = s.n.range(b.last_field_first_line, 0, i, t.size());
    f.loc = b.last_field_at;
    return;
  }
  Field f;
  f.value = s.keep(t);
  b.last_field_at = s.n.range(i, 0, t.size());
  f.loc = b.last_field_at;
  o.fields.push_back(std::move(f));
  b.last_field = o.fields.size() - 1;
  b.last_field_first_line = i;
  b.last_value_at = s.n.range(i, 0, 1);
}

}  // namespace

void end_block(ExplainState& s) {
  DetailBlock& b = s.block;
  if (b.last_field && b.op) {
    Field& f = s.plan().ops[*b.op].fields[*b.last_field];
    finish_field(s.plan().text_store(), f, s.r.messages, b.last_field_at, b.last_value_at);
  }
  if (b.op) {
    apply_fields(s.plan().text_store(), s.plan().ops[*b.op]);
    s.plan().ops[*b.op].fields.shrink_to_fit();
  }
  b.op.reset();
  b.open = false;
  b.last_field.reset();
}

void details(ExplainState& s, std::size_t i) {
  std::string_view t = s.n.text(i);
  if (t.empty()) {
    s.block.blank = true;
    return;
  }
  bool was_blank = s.block.blank;
  s.block.blank = false;
  if (t[0] == '(') {
    BlockHeader bh;
    if (match_block_header(t, bh)) {
      std::optional<std::size_t> known = s.ids.find(bh.id);
      if (was_blank || !s.block.open ||
          (known && trim_spaces(s.plan().ops[*known].name) == trim_spaces(bh.name))) {
        block_header(s, i, bh, known);
        return;
      }
    }
  }
  if ((t[0] == '=' || t[0] == 'S') && entry_line(s, i, t)) return;
  // Text between sections that belongs to no block (damage, prose): ignore it.
  if (!s.block.open) return;
  block_line(s, i, t);
}

// A formatted plan prints one `(N) Name` detail block per outline operator: operators without
// one mean the details section was cut (a paste through `head`, a chat's length limit). Their
// fields are unknown; say where the text ends (the reader decides nothing else: rules skip
// what they cannot know).
void mark_missing_details(ExplainState& s) {
  std::size_t missing = 0, shown = 0;
  const Operator* first = nullptr;
  Operator* last_block = nullptr;  // the block read last: where the text ends, it may be cut too
  for (auto& o : s.plan().ops) {
    if (o.logical || o.id.empty()) continue;
    ++shown;
    if (o.detail_loc.known()) {
      if (!last_block || o.detail_loc.line > last_block->detail_loc.line) last_block = &o;
      continue;
    }
    o.details_missing = true;
    if (!first) first = &o;
    ++missing;
  }
  if (missing > 0 && last_block) last_block->details_missing = true;
  if (missing == 0) return;
  const std::size_t at = std::min(s.last_text_line, s.n.line_count() ? s.n.line_count() - 1 : 0);
  std::string msg = missing == shown
                        ? "the plan's details section is missing (no `(N) Name` block for any of its " +
                              std::to_string(shown) + " operators): the text ends here"
                        : "the plan's details section stops early: " + std::to_string(missing) + " of " +
                              std::to_string(shown) + " operators have no `(N) Name` block (the first is " +
                              std::string(first->name.empty() ? std::string_view(first->label) : std::string_view(first->name)) +
                              " (" + std::string(first->id) + ")); the text ends here";
  msg += "; checks that need an operator's details (conditions, output, pushed filters) are skipped for them — "
         "paste the whole output of explain(\"formatted\")";
  s.r.messages.push_back({MessageSeverity::Warning, (s.n.line_count() == 0) ? SourceRange{} : s.n.range(at, 0, s.n.text(at).size()),
                          std::move(msg)});
}

}  // namespace planlint::explain
