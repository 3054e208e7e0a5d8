// The paste repairs of normalize() as a table of small passes. The input is first split into lines
// (split_lines: CR, trailing blanks, fences, log lines and prompts go, and what the later passes
// need to know is counted on the way); then each pass of kRepairs whose `may_apply` holds runs in
// order, and normalize() records its `what` when `run` returns true (it changed something).
// `may_apply` is a cheap look (a flag of the split, one search of the input, one pass over the
// lines) that is false only when `run` would change nothing; tests/parser/explain/test_repairs.cpp
// checks that on every corpus input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "parser/explain/normalize.hpp"

namespace planlint::repair {

// The text being repaired, with what the split and the earlier passes found.
struct RepairState {
  Normalized out;
  // Found by split_lines.
  std::vector<std::size_t> borders;  // lines that were `+----+` borders of a Dataset.show() table
  std::size_t nonempty = 0;          // kept non-empty lines
  std::size_t margin = 0;            //   of them, lines that start like a stripMargin `|` line
  bool magic_start = false;          // a kept line starts like a notebook `MAGIC` / `COMMAND` prefix
  bool comment_start = false;        // a kept line starts (after blanks) like a comment or quote prefix
  bool comment_vote = false;         //   and the text after that prefix carries a plan marker
                                     //   (comment_line_votes: strip_comment_prefix's vote)
  bool any_tab = false;              // a kept line holds a tab
  bool elision = false;              // a kept line is an elision (is_elision_line)
  bool zero_start = false;           // a kept line starts with `0` (numberedTreeString's `00 `)
  // Kept lines that hold two bytes or more that are `-` or `=`, ascending (a marker needs a `-`, a
  // `== Title ==` two `=`: collapsed_lines splits no other line); marked_valid false: not kept
  // (too many, or too many lines for 32-bit indices).
  std::vector<std::uint32_t> marked;
  bool marked_valid = true;
  // may_rebuild_flattened_trees' and may_join_continuations' answers for the split's lines (a
  // ShapeWalk fed by the split): they hold while the lines are as split and `relaid` is false.
  bool split_flat = false, split_join = false;
  // Set by passes that later passes look at.
  bool magic = false;      // strip_notebook_magic rewrote lines
  bool stripped = false;   // strip_comment_prefix or strip_annotations rewrote lines
  bool dropped = false;    // drop_elisions dropped lines
  bool unescaped = false;  // unescape_markup rewrote lines
  bool json = false;       // ipynb decoded notebook JSON (lines may hold what the input does not)
  bool lit = false;        // literal_newlines split a line
  bool collapsed = false;  // collapsed_lines split a line (the tree passes rebuild its tree)
  bool flattened = false;  // flattened_trees rebuilt a tree
  bool relaid = false;     // tree_numbers, undouble_spacing, expand_tabs, find_cut, read_cut_root or
                           // common_indent changed lines (lines_as_split does not look at these)
  // may_rebuild_flattened_trees answers may_join_continuations's question in the same walk: the
  // answer, for the line table at join_lines of join_count lines (nullptr: none kept).
  mutable bool join_work = false;
  mutable const NormLine* join_lines = nullptr;
  mutable std::size_t join_count = 0;
  // Searches of the whole input that two passes ask: -1 not searched yet, else 0 / 1.
  mutable signed char backslash = -1;  // the input holds a `\\`
  mutable signed char gutter = -1;     // the input holds ` //>` or ` //|` (a worksheet gutter)
  mutable bool slash_comment = false;  //   with gutter: the input holds `  // ` (a comment after code)
};

// The two searches above, each made once.
bool input_has_backslash(const RepairState& s);
bool input_has_gutter(const RepairState& s);

bool may_strip_margins(const RepairState& s);

// Whether the lines are still the split's (their text, or less of it at either end), as far as
// the flags above tell: no pass that adds, drops, joins or rewrites lines changed any (a table or
// margins the split found are taken as changed).
inline bool lines_as_split(const RepairState& s) {
  return !s.magic && !s.stripped && !s.dropped && s.borders.empty() && !may_strip_margins(s) && !s.json && !s.lit &&
         !s.unescaped && !s.collapsed;
}

struct Repair {
  std::string_view what;                        // recorded in Normalized::repairs when run is true
  bool (*may_apply)(const RepairState&);        // false: run would change nothing
  bool (*run)(RepairState&);                    // true: it changed something
};

// Step 1: split the input (after a byte order mark) into lines; records the CRLF, fence and log
// line repairs itself.
RepairState split_lines(std::string_view input);

// Whether line t (a line of the split) would vote in strip_comment_prefix: it starts (after blanks)
// with a comment token and the text after it carries a plan marker. A worksheet gutter after code
// is not looked for (input_has_gutter answers that for the whole input).
bool comment_line_votes(std::string_view t);

// The passes, one per kind of paste damage (repair/notebook.cpp, repair/comments.cpp, repair/layout.cpp,
// repair/text.cpp, repair/tree_shape.cpp).
bool may_strip_notebook_magic(const RepairState& s);
bool strip_notebook_magic(RepairState& s);
bool may_strip_comment_prefix(const RepairState& s);
bool strip_comment_prefix(RepairState& s);
bool may_strip_annotations(const RepairState& s);
bool strip_annotations(RepairState& s);
bool may_drop_elisions(const RepairState& s);
bool drop_elisions(RepairState& s);
bool may_remove_show_table(const RepairState& s);
bool remove_show_table(RepairState& s);
bool may_strip_margins(const RepairState& s);
bool strip_margins(RepairState& s);
bool may_unwrap_ipynb(const RepairState& s);
bool unwrap_ipynb(RepairState& s);
bool may_split_literal_newlines(const RepairState& s);
bool split_literal_newlines(RepairState& s);
bool may_unescape_markup(const RepairState& s);
bool unescape_markup(RepairState& s);
bool may_split_collapsed_lines(const RepairState& s);
bool split_collapsed_lines(RepairState& s);
bool may_strip_tree_numbers(const RepairState& s);
bool strip_tree_numbers(RepairState& s);
bool may_undouble_spacing(const RepairState& s);
bool undouble_spacing(RepairState& s);
bool may_expand_tabs(const RepairState& s);
bool expand_tabs(RepairState& s);
bool may_find_cut(const RepairState& s);
bool find_cut(RepairState& s);  // sets Normalized::cut; no repair message (its `what` is empty)
bool may_read_cut_root(const RepairState& s);
bool read_cut_root(RepairState& s);
bool may_remove_common_indent(const RepairState& s);
bool remove_common_indent(RepairState& s);
bool may_rebuild_flattened_trees(const RepairState& s);
bool rebuild_flattened_trees(RepairState& s);
bool may_join_continuations(const RepairState& s);
bool join_continuations(RepairState& s);

// In the order they run (the order of Normalized::repairs).
inline constexpr std::array<Repair, 18> kRepairs = {{
    {"removed Databricks notebook 'MAGIC' prefixes", may_strip_notebook_magic, strip_notebook_magic},
    {"removed the comment prefix of the plan lines ('// ', '# ', ' * ', '-- ', '% ', '> ', a worksheet gutter); lines without it are not read",
     may_strip_comment_prefix, strip_comment_prefix},
    {"removed an author's annotation after a plan line ('<- ...', '<-- ...', '  // ...')", may_strip_annotations,
     strip_annotations},
    {"left out the author's elision lines ('...', '(...)'): a gap in the tree, not an operator", may_drop_elisions,
     drop_elisions},
    {"removed the ASCII table of .show()", may_remove_show_table, remove_show_table},
    {"removed '|' stripMargin margins", may_strip_margins, strip_margins},
    {"read the plan out of notebook (.ipynb) JSON strings", may_unwrap_ipynb, unwrap_ipynb},
    {"split a line at literal '\\n'", may_split_literal_newlines, split_literal_newlines},
    {"removed markdown / HTML escaping", may_unescape_markup, unescape_markup},
    {"rebuilt lines from a plan whose newlines were lost", may_split_collapsed_lines, split_collapsed_lines},
    {"removed numberedTreeString numbers", may_strip_tree_numbers, strip_tree_numbers},
    {"removed the blank line after every line", may_undouble_spacing, undouble_spacing},
    {"expanded tabs", may_expand_tabs, expand_tabs},
    {"", may_find_cut, find_cut},
    {"read a tree whose root line was left out (it starts at '+- '): its first operator is taken as the root",
     may_read_cut_root, read_cut_root},
    {"removed a common indent", may_remove_common_indent, remove_common_indent},
    {"rebuilt the indentation of a flattened tree from its ':' guides", may_rebuild_flattened_trees,
     rebuild_flattened_trees},
    {"joined hand-wrapped continuation lines to their operator", may_join_continuations, join_continuations},
}};

// The comment prefix ("//", "#", ...) that the lines with plan markers of `text` carry, empty when
// none (for the hint of an input nothing was read from).
std::string_view comment_prefix_name(std::string_view text);

}  // namespace planlint::repair
