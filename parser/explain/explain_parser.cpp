// The explain-text reader: a line-level state machine over the normalised input (parser/explain/normalize)
// that runs the PEGTL line grammars (grammar/explain.hpp via parser/explain/explain_lines) and builds the
// operator DAG. Formatted, default, extended and cost modes; several plans per input.
// Parent finding uses the column-stack rule (docs/formats/explain-text.md §2.1): no recursion, linear.
#include <algorithm>
#include <memory>
#include <string>
#include <cstdint>
#include <unordered_map>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "parser/common/photon.hpp"
#include "parser/explain/edge_set.hpp"
#include "parser/explain/explain_lines.hpp"
#include "parser/explain/repair/repair.hpp"
#include "parser/explain/explain_ops.hpp"
#include "parser/explain/normalize.hpp"
#include "parser/explain/operator_ids.hpp"
#include "parser/explain/explain.hpp"
#include "parser/common/facts_fill.hpp"
#include "support/text_search.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

// The first index of `t` whose byte is not a tree guide (' ', ':', '|'), 16 bytes at a time: tree
// lines of deep plans start with long runs of them.
std::size_t skip_guide_bytes(std::string_view t) {
  std::size_t k = 0;
  const std::size_t n = t.size();
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), colon = _mm_set1_epi8(':'), bar = _mm_set1_epi8('|');
  for (; k + 16 <= n; k += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + k));
    const __m128i guide = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, colon)), _mm_cmpeq_epi8(v, bar));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(guide)) & 0xFFFFu;
    if (other != 0) return k + static_cast<std::size_t>(__builtin_ctz(other));
  }
#endif
  while (k < n && (t[k] == ' ' || t[k] == ':' || t[k] == '|')) ++k;
  return k;
}

using explain::TreeLine;


enum class Region : std::uint8_t { None, Physical, Logical, Trailer };
enum class PhysMode : std::uint8_t { Start, Outline, Details, EntryStart };
enum class PhysKind : std::uint8_t { Unknown, Formatted, Default };

struct StackEntry {
  std::uint32_t col;
  std::size_t op;
};
struct SectionEntry {
  std::uint32_t col;  // label column of the section's nodes
  Section section;
};

struct PendingReuse {
  std::size_t op;
  std::string target;
  SourceRange loc;
};

// Reads the normalised lines of one explain text (every mode) into plans: the outline tree from a
// column stack, formatted details, default-mode trees, logical plans and the trailers.
class ExplainTextReader {
 public:
  ExplainTextReader(const Normalized& n, ParseResult& r, std::shared_ptr<const std::string> input)
      : n_(n), r_(r), input_(std::move(input)), input_text_(shared_text(input_)) {}

  void run() {
    for (std::size_t i = 0; i < n_.lines.size(); ++i) {
      if (n_.cut && i == n_.cut_line) cut_seen_ = true;
      line(i);
    }
    finish_plan();
    summarize();
    if (n_.cut) {
      // (a later repair can drop the cut's line: the range is then unknown)
      const std::size_t cut_size = n_.cut_line < n_.lines.size() ? n_.text(n_.cut_line).size() : 0;
      r_.messages.push_back({MessageSeverity::Warning, n_.range(n_.cut_line, 0, cut_size),
                             "the plan text was cut by Spark ('" + n_.cut_text +
                                 "', spark.sql.maxPlanStringLength): the rest of the plan is missing"});
    }
    // Overall format: the first plan's.
    if (!r_.plans.empty()) r_.format = r_.plans.front().format;
  }

 private:
  const Normalized& n_;
  ParseResult& r_;
  std::shared_ptr<const std::string> input_;  // the shared input: plans view it (may be null)
  std::string_view input_text_;               // its bytes ("" when none)
  bool cut_seen_ = false;
  std::vector<std::uint32_t> bad_;      // original line numbers of lines that were not understood
  std::vector<std::size_t> bad_index_;  // their normalised indexes

  // ---- per plan state ----
  bool have_plan_ = false;
  Region region_ = Region::None;
  PhysMode mode_ = PhysMode::Start;
  PhysKind kind_ = PhysKind::Unknown;
  bool has_physical_ = false;
  bool has_logical_ = false;
  bool has_parsed_ = false;
  bool has_optimized_ = false;
  Section logical_section_ = Section::OptimizedLogical;
  bool expect_schema_ = false;
  bool logical_done_ = false;
  Section base_section_ = Section::Main;
  std::optional<std::size_t> entry_;  // subquery entry whose root is the next outline root
  std::vector<StackEntry> stack_;
  std::vector<SectionEntry> sections_;
  std::vector<char> on_stack_;
  explain::EdgeSet placed_;
  explain::OperatorIds ids_;  // printed id -> operator (the ids are views kept in the plan)
  std::optional<std::size_t> block_op_;  // current detail block's operator
  bool in_block_ = false;                // inside a block (even for an id missing from the outline)
  std::size_t last_text_line_ = 0;       // the last non-empty line read
  std::optional<std::size_t> last_field_;
  std::size_t last_field_first_line_ = 0;
  SourceRange last_value_at_;  // where the current field's value starts
  bool blank_ = true;
  std::vector<PendingReuse> reuses_;
  std::vector<std::pair<std::size_t, std::string>> hosting_;  // subquery entry -> hosting id
  std::optional<std::size_t> trailer_;

  Plan& plan() { return r_.plans.back(); }

  // plan().keep(s), tested for the shared input first: nearly every key and value of a detail
  // line is a view into it, which the plan's store keeps alive (view_input) without a copy.
  // (The copy is out of line so that the test inlines where it is called.)
  Text keep(std::string_view s) {
    if (!s.empty() && lies_within(s, input_text_)) return Text::stable(s);
    return keep_copy(s);
  }
  [[gnu::noinline]] Text keep_copy(std::string_view s) { return plan().keep(s); }

  // Never a silent empty answer: say how much was read, which lines were not, and why.
  void summarize() {
    std::size_t ops = 0;
    for (const auto& p : r_.plans) ops += p.ops.size();
    if (ops == 0) {
      std::size_t first = n_.lines.size(), nonempty = 0;  // (a pass over every line: only here)
      for (std::size_t i = 0; i < n_.lines.size(); ++i)
        if (!n_.text(i).empty()) {
          ++nonempty;
          first = std::min(first, i);
        }
      // Only a Photon explanation (no plan pasted with it) is read, not an error.
      bool photon_only = false;
      for (const auto& p : r_.plans) photon_only = photon_only || p.photon.present;
      if (photon_only && bad_.empty() && !orphan_tree_lines()) return;
      SourceRange loc{1, 1, 1, 1};
      if (first < n_.lines.size()) loc = n_.range(first, 0, n_.text(first).size());
      std::string msg = r_.plans.empty() ? "expected '== Physical Plan ==' or an explain plan tree"
                                         : "no operator line under the plan's headers";
      msg += "; no operators were read from " + std::to_string(nonempty) + " non-empty line" +
             (nonempty == 1 ? "" : "s") + ". hint: " + hint();
      r_.messages.push_back({MessageSeverity::Error, loc, std::move(msg)});
      return;
    }
    if (bad_.empty()) return;
    std::vector<std::size_t> unread = bad_index_;
    std::sort(bad_.begin(), bad_.end());
    bad_.erase(std::unique(bad_.begin(), bad_.end()), bad_.end());
    std::string list;
    std::size_t shown = 0;
    for (std::size_t k = 0; k < bad_.size() && shown < 8; ++k, ++shown) {
      std::size_t a = bad_[k];
      std::size_t b = a;
      while (k + 1 < bad_.size() && bad_[k + 1] == b + 1) b = bad_[++k];
      if (!list.empty()) list += ", ";
      list += std::to_string(a) + (b != a ? "-" + std::to_string(b) : "");
    }
    if (shown == 8) list += ", ...";
    SourceRange loc = n_.range(unread.front(), 0, n_.text(unread.front()).size());
    std::string msg = "read " + std::to_string(ops) + " operator" + (ops == 1 ? "" : "s") + "; " +
                      std::to_string(bad_.size()) + " line" + (bad_.size() == 1 ? " was" : "s were") +
                      " not understood (line" + (bad_.size() == 1 ? " " : "s ") + list +
                      "): the plan may be incomplete. hint: " + hint(&unread);
    r_.messages.push_back({MessageSeverity::Warning, loc, std::move(msg)});
  }

  bool orphan_tree_lines() const {
    for (const auto& l : n_.lines) {
      std::string_view t = n_.text(l);
      std::size_t g = t.find_first_not_of(" :");
      if (g != std::string_view::npos && g > 0 && (t.substr(g).starts_with("+- ") || t.substr(g).starts_with(":- ")))
        return true;
    }
    return false;
  }

  // The likely damage, from what the unread lines (all lines when nothing was read) look like.
  std::string hint(const std::vector<std::size_t>* only = nullptr) const {
    std::size_t numbered = 0, midmarker = 0, json = 0, html = 0, text = 0, orphan = 0;
    std::size_t count = only ? only->size() : n_.lines.size();
    for (std::size_t k = 0; k < count; ++k) {
      std::string_view t = n_.text(only ? (*only)[k] : k);
      if (t.empty()) continue;
      ++text;
      std::size_t d = 0;
      while (d < t.size() && t[d] >= '0' && t[d] <= '9') ++d;
      if (d >= 2 && d < t.size() && t[d] == ' ') ++numbered;
      std::size_t m = t.find("+- ");
      if (m != std::string_view::npos && m > 0 && t.find_first_not_of(" :", 0) < m) ++midmarker;
      if (t[0] == '{' || t[0] == '[' || t[0] == '"') ++json;
      std::size_t g = t.find_first_not_of(" :");
      if (g != std::string_view::npos && g > 0 && (t.substr(g).starts_with("+- ") || t.substr(g).starts_with(":- ")))
        ++orphan;
      if (t.find("&gt;") != std::string_view::npos || t.find("<br") != std::string_view::npos) ++html;
    }
    if (numbered * 2 > text) return "the lines look like a numbered tree string ('00 ', '01 '): the numbers must start at 00";
    if (!only) {
      const std::string_view prefix = repair::comment_prefix_name(n_.input);
      if (!prefix.empty())
        return "the plan's lines carry a comment prefix '" + std::string(prefix) +
               "' that could not be told from the code around it; paste the plan without it";
    }
    if (midmarker) return "'+- ' appears in the middle of a line: the plan's newlines may have been lost; paste it with its line breaks";
    if (json * 2 > text) return "the text looks like JSON but not a Databricks Query Profile or a Spark event log; paste the plan text itself";
    if (orphan && !only) return "the lines look like the lower part of a plan tree whose root is missing (the paste starts inside the tree); paste the plan from its first line";
    if (html) return "the text looks like HTML; copy the plan from the rendered page, not its source";
    if (only) return "these lines are neither operator lines nor detail fields: check that they were pasted whole (a cut line, a line an editor wrapped)";
    return "paste the output of df.explain() / EXPLAIN, from '== Physical Plan ==' (or the plan's root line) to the end of its tree";
  }

  void error(std::size_t i, std::uint32_t col, std::string msg, MessageSeverity sev = MessageSeverity::Error) {
    if (sev == MessageSeverity::Error) {
      bad_.push_back(n_.lines[i].line);
      bad_index_.push_back(i);
    }
    SrcPos p = n_.pos(i, col);
    r_.messages.push_back({sev, {p.line, p.col, p.line, p.col + 1}, std::move(msg)});
  }

  void reset_plan_state() {
    region_ = Region::None;
    mode_ = PhysMode::Start;
    kind_ = PhysKind::Unknown;
    has_physical_ = has_logical_ = has_parsed_ = has_optimized_ = false;
    expect_schema_ = false;
    logical_done_ = false;
    base_section_ = Section::Main;
    entry_.reset();
    stack_.clear();
    sections_.clear();
    on_stack_.clear();
    placed_.clear();
    ids_.clear();
    block_op_.reset();
    in_block_ = false;
    last_field_.reset();
    blank_ = true;
    reuses_.clear();
    hosting_.clear();
    trailer_.reset();
  }

  void new_plan(std::size_t i) {
    finish_plan();
    reset_plan_state();
    r_.plans.emplace_back();
    if (input_) r_.plans.back().text_store().view_input(input_);
    // Only this plan's lines count (up to the next `== ... ==` header): an input of many plans
    // must not reserve room for the whole input once per plan.
    // Operators are about one per tree line (`+- ` / `:- ` after the guides) plus the roots: count
    // them, so the vector of operators is allocated once (a doubling copies every operator and
    // holds both copies at the peak).
    std::size_t end = i + 1, tree_lines = 0;
    for (; end < n_.lines.size(); ++end) {
      const std::string_view t = n_.text(end);
      if (t.size() > 3 && t[0] == '=' && t[1] == '=' && t[2] == ' ') break;
      // Only a line that starts with a guide byte has guides to skip (most lines start with a
      // letter or '(': detail lines).
      const std::size_t k = !t.empty() && (t[0] == ' ' || t[0] == ':' || t[0] == '|') ? skip_guide_bytes(t) : 0;
      if (k < t.size() && ((t[k] == '-' && k > 0 && t[k - 1] == ':') ||
                           (t[k] == '+' && k + 1 < t.size() && t[k + 1] == '-')))
        ++tree_lines;
    }
    r_.plans.back().ops.reserve(tree_lines + tree_lines / 16 + 8);
    placed_.reserve(tree_lines + 8);  // one edge per tree line, and the roots
    have_plan_ = true;
    plan().name = "plan " + std::to_string(r_.plans.size());
    plan().loc = n_.range(i, 0, n_.text(i).size());
  }

  // ---- dispatch ----
  void line(std::size_t i) {
    std::string_view t = n_.text(i);
    if (!t.empty()) last_text_line_ = i;
    std::string_view title;
    if (!t.empty() && t[0] == '=' && explain::match_mode_header(t, title)) {
      header(i, title);
      return;
    }
    switch (region_) {
      case Region::None: headerless(i); break;
      case Region::Physical: {
        // physical() adds to plan() only (operators, children, fields): their lists live in its
        // store. It never starts a plan.
        const BlockScope blocks(plan().text_store());
        physical(i);
        break;
      }
      case Region::Logical: logical(i); break;
      case Region::Trailer: trailer_line(i); break;
    }
  }

  void header(std::size_t i, std::string_view title) {
    // A section of a custom optimizer (`== Materialized Logical Plan ==`) between the logical
    // sections is kept as a trailer and does not end the plan.
    bool custom_logical = region_ == Region::Trailer && trailer_ &&
                          plan().trailers[*trailer_].title.size() > 12 &&
                          plan().trailers[*trailer_].title.substr(plan().trailers[*trailer_].title.size() - 12) == "Logical Plan";
    bool same_plan_ok = have_plan_ && has_logical_ && !has_physical_ && (region_ != Region::Trailer || custom_logical);
    // EXPLAIN CODEGEN: "== Subtree 1 / 2 (maxMethodCodeSize:...) ==" then a default-mode tree and the
    // generated Java source, which is skipped (it belongs to no block).
    bool codegen_subtree = title.starts_with("Subtree ") && title.find(" / ") != std::string_view::npos;
    if (title == "Physical Plan" || codegen_subtree) {
      if (!same_plan_ok || codegen_subtree) new_plan(i);
      end_block();
      region_ = Region::Physical;
      mode_ = PhysMode::Start;
      has_physical_ = true;
      pop_stack(0);
      sections_.clear();
      return;
    }
    Section s = Section::Main;
    if (title == "Parsed Logical Plan") s = Section::ParsedLogical;
    else if (title == "Analyzed Logical Plan") s = Section::AnalyzedLogical;
    else if (title == "Optimized Logical Plan") s = Section::OptimizedLogical;
    if (s != Section::Main) {
      if (s == Section::ParsedLogical || !same_plan_ok) new_plan(i);
      region_ = Region::Logical;
      logical_section_ = s;
      has_logical_ = true;
      has_parsed_ = has_parsed_ || s == Section::ParsedLogical;
      has_optimized_ = has_optimized_ || s == Section::OptimizedLogical;
      expect_schema_ = s == Section::AnalyzedLogical;
      logical_done_ = false;
      pop_stack(0);
      sections_.clear();
      return;
    }
    // A trailer: Photon Explanation, Optimizer Statistics, Extended Information, anything else.
    bool photon = title == "Photon Explanation";
    if (!have_plan_ || (photon && plan().photon.present) || (photon && has_trailer(title))) new_plan(i);
    end_block();
    region_ = Region::Trailer;
    Trailer tr;
    tr.title = std::string(title);
    tr.loc = n_.range(i, 0, n_.text(i).size());
    plan().trailers.push_back(std::move(tr));
    trailer_ = plan().trailers.size() - 1;
    if (photon) plan().photon.present = true;
  }

  bool has_trailer(std::string_view title) {
    for (const auto& t : plan().trailers)
      if (t.title == title) return true;
    return false;
  }

  // No header yet: a plan root followed by tree lines starts a plan whose header is missing.
  void headerless(std::size_t i) {
    std::string_view t = n_.text(i);
    if (t.empty()) return;
    // A root indented a little more than its children (`  Execute ...` over `+- WriteFiles`).
    std::size_t k = t.find_first_not_of(' ');
    if (k == std::string_view::npos || k > 4 || t[k] == ':' || t.substr(k).starts_with("+- ") ||
        t.substr(k).starts_with(":- "))
      return;
    std::string_view next = i + 1 < n_.lines.size() ? n_.text(i + 1) : std::string_view{};
    // The child may be indented further (InMemoryRelation prints its plan as an inner child).
    std::size_t nk = next.find_first_not_of(' ');
    bool next_child = nk != std::string_view::npos && nk <= 6 &&
                      (next.substr(nk).starts_with("+- ") || next.substr(nk).starts_with(":- "));
    if (k > 0 && !next_child) return;
    TreeLine tl;
    bool formatted = explain::match_formatted_tree_line(t, tl, nullptr) && !tl.connector;
    if (!(next_child || (formatted && next.empty()))) return;
    if (!formatted && !next_child) return;
    new_plan(i);
    error(i, 0, "the '== Physical Plan ==' header is missing; reading the plan anyway", MessageSeverity::Warning);
    region_ = Region::Physical;
    mode_ = PhysMode::Start;
    has_physical_ = true;
    physical(i);
  }

  // ---- physical plans ----
  void physical(std::size_t i) {
    std::string_view t = n_.text(i);
    switch (mode_) {
      case PhysMode::Start: {
        if (t.empty()) return;
        TreeLine tl;
        if (explain::match_formatted_tree_line(t, tl, nullptr)) {
          kind_ = PhysKind::Formatted;
          mode_ = PhysMode::Outline;
          base_section_ = Section::Main;
          formatted_node(i, tl);
          return;
        }
        if (looks_formatted(t)) {
          // A formatted outline line that is broken (cut before its id): report it as such.
          kind_ = PhysKind::Formatted;
          mode_ = PhysMode::Outline;
          base_section_ = Section::Main;
          formatted_outline(i);
          return;
        }
        if (t.starts_with("Truncated plan of ")) {
          error(i, 0, "Spark printed no plan ('" + std::string(t) + "', spark.sql.maxPlanStringLength)",
                MessageSeverity::Warning);
          mode_ = PhysMode::Details;
          return;
        }
        if (t.find("Exception") != std::string_view::npos || t.starts_with("Error occurred")) {
          error(i, 0, "the plan is an error message, not a plan", MessageSeverity::Warning);
          mode_ = PhysMode::Details;
          return;
        }
        kind_ = PhysKind::Default;
        mode_ = PhysMode::Outline;
        default_line(i);
        return;
      }
      case PhysMode::Outline:
        if (kind_ == PhysKind::Default) default_line(i);
        else formatted_outline(i);
        return;
      case PhysMode::EntryStart:
        if (t.empty()) {
          mode_ = PhysMode::Details;
          blank_ = true;
          entry_.reset();
          return;
        }
        {
          TreeLine tl;
          if (!t.starts_with("Subquery:") && !t.starts_with("Subplan:") && t[0] != '(' &&
              explain::match_formatted_tree_line(t, tl, nullptr)) {
            mode_ = PhysMode::Outline;
            pop_stack(0);
            sections_.clear();
            formatted_node(i, tl);
            return;
          }
        }
        mode_ = PhysMode::Details;
        entry_.reset();
        details(i);
        return;
      case PhysMode::Details: details(i); return;
    }
  }

  // `* Name` (formatted codegen marker; default mode prints `*(n) `) or a line ending in an
  // unfinished ` (<digits>` id.
  static bool looks_formatted(std::string_view t) {
    std::size_t k = 0;
    while (k < t.size() && (t[k] == ' ' || t[k] == ':' || t[k] == '+' || t[k] == '-')) ++k;
    if (t.substr(k, 2) == "* ") return true;
    std::size_t e = t.size();
    while (e > 0 && t[e - 1] >= '0' && t[e - 1] <= '9') --e;
    return e >= 2 && e < t.size() + 1 && t.substr(e - 2, 2) == " (" && t.find('(') == e - 1;
  }

  void formatted_outline(std::size_t i) {
    std::string_view t = n_.text(i);
    if (t.empty()) {
      mode_ = PhysMode::Details;
      blank_ = true;
      return;
    }
    explain::AqeTitle title;
    std::uint32_t col = 0;
    if (explain::match_aqe_header(t, title, col)) {
      aqe_header(title, col);
      return;
    }
    TreeLine tl;
    explain::LineError err;
    if (explain::match_formatted_tree_line(t, tl, &err)) {
      formatted_node(i, tl);
      return;
    }
    explain::BlockHeader bh;
    if (t[0] != ' ' && (explain::match_block_header(t, bh) || t.starts_with("=====") || t.starts_with("Subquery:"))) {
      mode_ = PhysMode::Details;
      blank_ = true;
      details(i);
      return;
    }
    error(i, err.column, err.message);
  }

  void aqe_header(explain::AqeTitle title, std::uint32_t col) {
    std::uint32_t label_col = col + 3;
    pop_stack(label_col);
    while (!sections_.empty() && sections_.back().col >= label_col) sections_.pop_back();
    Section s = title == explain::AqeTitle::Final     ? Section::AqeFinal
                : title == explain::AqeTitle::Current ? Section::AqeCurrent
                                                      : Section::AqeInitial;
    sections_.push_back({label_col, s});
    plan().adaptive = true;
    if (title == explain::AqeTitle::Final) plan().is_final_plan = true;
    else if (title == explain::AqeTitle::Current && !plan().is_final_plan) plan().is_final_plan = false;
  }

  void pop_stack(std::uint32_t col) {
    while (!stack_.empty() && stack_.back().col >= col) {
      on_stack_[stack_.back().op] = 0;
      stack_.pop_back();
    }
  }

  Section section_for(std::uint32_t col) {
    while (!sections_.empty() && col < sections_.back().col) sections_.pop_back();
    return sections_.empty() ? base_section_ : sections_.back().section;
  }

  std::size_t add_op() {
    Plan& p = plan();
    p.ops.emplace_back();
    p.ops.back().index = p.ops.size() - 1;
    on_stack_.push_back(0);
    return p.ops.size() - 1;
  }

  // (parent, child) placed by the outline, roots under kRootParent: an operator printed
  // again (AQE's initial plan repeats ids) is attached once, without scanning the child list.
  static constexpr std::size_t kRootParent = 0xFFFFFFFFu;
  static std::uint64_t edge_key(std::size_t parent, std::size_t child) {
    return (static_cast<std::uint64_t>(parent) << 32) ^ static_cast<std::uint64_t>(child);
  }

  // Attach `op` under the stack top (or as a root) and push it.
  void place(std::size_t op, std::uint32_t col, bool inner_subquery = false) {
    Plan& p = plan();
    if (!stack_.empty()) {
      std::size_t parent = stack_.back().op;
      if (inner_subquery) {
        SubqueryEntry e;
        e.number = static_cast<int>(p.subqueries.size()) + 1;
        e.hosting_op = parent;
        e.hosting_expression = p.ops[op].label;
        e.root = op;
        e.loc = p.ops[op].loc;
        p.subqueries.push_back(std::move(e));
      } else if (parent != op && placed_.insert(edge_key(parent, op))) {
        p.ops[parent].children.push_back(op);
      }
    } else if (entry_) {
      if (!p.subqueries[*entry_].root) p.subqueries[*entry_].root = op;
    } else if (base_section_ == Section::Main) {
      if (placed_.insert(edge_key(kRootParent, op))) p.roots.push_back(op);
    }
    stack_.push_back({col, op});
    on_stack_[op] = 1;
  }

  void formatted_node(std::size_t i, const TreeLine& tl) {
    Plan& p = plan();
    pop_stack(tl.column);
    Section sec = section_for(tl.column);
    std::string_view label = trim_spaces(tl.label);
    std::size_t op;
    bool merged = false;
    if (tl.id != "unknown") {
      auto known = ids_.find(tl.id);
      if (known && !on_stack_[*known] && p.ops[*known].label == label) {
        op = *known;
        merged = true;
      }
    }
    if (!merged) {
      op = add_op();
      Operator& o = p.ops[op];
      if (tl.id != "unknown") {
        o.id = keep(tl.id);
        if (!ids_.add(o.id, op)) {
          error(i, tl.label_column, "operator id " + o.id + " is used by two different operators",
                MessageSeverity::Warning);
        }
      }
      explain::describe_operator(p.text_store(), o, label, {});
      o.section = sec;
      o.loc = n_.range(i, tl.column, n_.text(i).size());
      if (tl.has_stats) set_stats(o, tl.stats, i, tl);
      if (o.kind == OpKind::AdaptivePlan) p.adaptive = true;
    }
    Operator& o = p.ops[op];
    if (tl.codegen) o.codegen = true;
    bool inner_subquery = false;
    place(op, tl.column, inner_subquery);
  }

  void set_stats(Operator& o, std::string_view body, std::size_t i, const TreeLine& tl) {
    explain::StatsValues sv;
    explain::parse_stats_body(body, sv);
    o.stats.edit().size_bytes = sv.size_bytes;
    o.stats.edit().row_count = sv.row_count;
    o.stats.edit().masked = sv.masked;
    o.stats.edit().text = "Statistics(" + std::string(body) + ")";
    std::size_t b = static_cast<std::size_t>(body.data() - n_.text(i).data()) - 11;
    o.stats.edit().loc = n_.range(i, b, b + body.size() + 12);
    (void)tl;
  }

  // Default (simple) mode physical tree line.
  void default_line(std::size_t i) {
    std::string_view t = n_.text(i);
    if (t.empty()) {
      mode_ = PhysMode::Details;  // after the tree: nothing else belongs to a default plan
      return;
    }
    explain::AqeTitle title;
    std::uint32_t col = 0;
    if (explain::match_aqe_header(t, title, col)) {
      aqe_header(title, col);
      return;
    }
    TreeLine tl;
    if (!explain::match_plain_tree_line(t, tl) || trim_spaces(tl.label).empty()) {
      error(i, 0, "expected a plan tree line");
      return;
    }
    Plan& p = plan();
    pop_stack(tl.column);
    Section sec = section_for(tl.column);
    std::size_t op = add_op();
    Operator& o = p.ops[op];
    o.section = sec;
    o.loc = n_.range(i, tl.column, t.size());
    o.codegen = tl.codegen;
    o.codegen_stage = tl.codegen_stage;
    explain::describe_default_node(p.text_store(), o, tl.label, explain::LineLocator{&n_, i, t}, r_.messages);
    if (tl.has_stats) set_stats(o, tl.stats, i, tl);
    if (o.kind == OpKind::AdaptivePlan && stack_.empty() && base_section_ == Section::Main) {
      p.adaptive = true;
      if (o.arguments.find("isFinalPlan=true") != std::string::npos) p.is_final_plan = true;
      else if (o.arguments.find("isFinalPlan=false") != std::string::npos) p.is_final_plan = false;
    }
    // Subqueries are printed inline as inner children (+6 columns): keep them out of children.
    bool inner = false;
    if ((o.kind == OpKind::Subquery || o.kind == OpKind::ReusedSubquery) && !stack_.empty() &&
        tl.column >= stack_.back().col + 6)
      inner = true;
    if (o.kind == OpKind::ReusedExchange) {
      auto items = explain::split_top_level(o.arguments);
      if (items.size() >= 2) {
        std::string_view target = o.arguments;
        target.remove_prefix(static_cast<std::size_t>(items[1].data() - o.arguments.data()));
        reuses_.push_back({op, std::string(target), o.loc});
      }
    }
    place(op, tl.column, inner);
  }

  // ---- formatted detail area ----
  void end_block() {
    if (last_field_ && block_op_) {
      Field& f = plan().ops[*block_op_].fields[*last_field_];
      explain::finish_field(plan().text_store(), f, r_.messages, last_value_at_);
    }
    if (block_op_) {
      explain::apply_fields(plan().text_store(), plan().ops[*block_op_]);
      plan().ops[*block_op_].fields.shrink_to_fit();
    }
    block_op_.reset();
    in_block_ = false;
    last_field_.reset();
  }

  void details(std::size_t i) {
    std::string_view t = n_.text(i);
    if (t.empty()) {
      blank_ = true;
      return;
    }
    bool was_blank = blank_;
    blank_ = false;
    if (t[0] == '(') {
      explain::BlockHeader bh;
      if (explain::match_block_header(t, bh)) {
        std::optional<std::size_t> known = ids_.find(bh.id);
        if (was_blank || !in_block_ || (known && trim_spaces(plan().ops[*known].name) == trim_spaces(bh.name))) {
          block_header(i, bh, known);
          return;
        }
      }
    }
    if (t[0] == '=' || t[0] == 'S') {
      if (explain::match_subqueries_marker(t)) {
        end_block();
        base_section_ = Section::Subquery;
        return;
      }
      if (explain::match_optimized_out_marker(t)) {
        end_block();
        base_section_ = Section::OptimizedOut;
        return;
      }
      explain::LineError err;
      explain::SubqueryLine sq;
      if (explain::match_subquery_line(t, sq, &err)) {
        end_block();
        base_section_ = Section::Subquery;
        Plan& p = plan();
        SubqueryEntry e;
        e.number = sq.number;
        e.hosting_expression = std::string(sq.expression);
        e.loc = n_.range(i, 0, t.size());
        p.subqueries.push_back(std::move(e));
        if (sq.hosting_id != "unknown") hosting_.emplace_back(p.subqueries.size() - 1, std::string(sq.hosting_id));
        entry_ = p.subqueries.size() - 1;
        mode_ = PhysMode::EntryStart;
        return;
      }
      if (t.starts_with("Subquery:")) {
        error(i, err.column, err.message);
        return;
      }
      int number = 0;
      err = {};
      if (explain::match_subplan_line(t, number, &err)) {
        end_block();
        base_section_ = Section::OptimizedOut;
        entry_.reset();
        mode_ = PhysMode::EntryStart;
        return;
      }
      if (t.starts_with("Subplan:")) {
        error(i, err.column, err.message);
        return;
      }
    }
    if (!in_block_) {
      // Text between sections that belongs to no block (damage, prose): ignore it.
      return;
    }
    explain::FieldLine fl;
    if (explain::match_field_line(t, fl)) {
      if (last_field_ && block_op_)
        explain::finish_field(plan().text_store(), plan().ops[*block_op_].fields[*last_field_], r_.messages, last_value_at_);
      last_field_.reset();
      if (!block_op_) return;
      Operator& o = plan().ops[*block_op_];
      Field& f = o.fields.emplace_back();  // built in place: no moved-from field to release
      f.key = keep(fl.key);
      f.value = keep(fl.value);
      f.count = fl.count;
      f.loc = n_.range(i, 0, t.size());
      last_field_ = o.fields.size() - 1;
      last_field_first_line_ = i;
      // A line that is a plain view of the input maps every column by the same shift: the value's
      // start is the line's start moved right, without a second look-up.
      last_value_at_ = n_.lines[i].has_extra()
                           ? n_.range(i, fl.value_column, fl.value_column + 1)
                           : SourceRange{f.loc.line, f.loc.column + fl.value_column, f.loc.line,
                                         f.loc.column + fl.value_column + 1};
      return;
    }
    // Continuation of the previous value (a literal with a newline, PushedJoins lines), or a bare line.
    if (!block_op_) return;
    Operator& o = plan().ops[*block_op_];
    if (last_field_) {
      Field& f = o.fields[*last_field_];
      f.value = plan().text_store().concat({f.value, "\n", t});
      f.loc = n_.range(last_field_first_line_, 0, i, t.size());
      return;
    }
    Field f;
    f.value = keep(t);
    f.loc = n_.range(i, 0, t.size());
    o.fields.push_back(std::move(f));
    last_field_ = o.fields.size() - 1;
    last_field_first_line_ = i;
    last_value_at_ = n_.range(i, 0, 1);
  }

  void block_header(std::size_t i, const explain::BlockHeader& bh, std::optional<std::size_t> op) {
    end_block();
    in_block_ = true;
    if (!op) return;  // a block for an id the outline does not show (Gluten's WholeStageCodegenTransformer)
    Operator& o = plan().ops[*op];
    if (!o.fields.empty() || o.detail_loc.known()) {
      error(i, 1, "second detail block for operator id " + o.id + "; the first one is kept", MessageSeverity::Warning);
      return;
    }
    block_op_ = op;
    // One block for the fields: at most one per line up to the blank line that ends the block
    // (counted up to 64: damaged text without blank lines must not reserve for the rest of it).
    std::size_t lines = 0;
    for (std::size_t j = i + 1; j < n_.lines.size() && !n_.text(j).empty() && lines < 64; ++j) ++lines;
    o.fields.reserve(lines);
    o.detail_loc = n_.range(i, 0, n_.text(i).size());
    if (bh.codegen_stage) {
      o.codegen_stage = bh.codegen_stage;
      o.codegen = true;
    }
    // The block header's bare name is the operator's name (no join type / build side).
    // (only when it agrees with the outline label: a cut-off header must not rename the operator).
    std::string_view hn = trim_spaces(bh.name);
    if (!hn.empty() && o.label.starts_with(hn)) o.name = o.label.sub(0, hn.size());
    else if (!hn.empty())
      error(i, 4, "detail block (" + o.id + ") '" + std::string(hn) + "' does not match the outline's '" + o.label + "'",
            MessageSeverity::Warning);
    if (bh.has_reuses) {
      if (bh.reuses != "unknown") reuses_.push_back({*op, std::string(bh.reuses), o.detail_loc});
    }
  }

  // ---- logical plans (extended / cost) ----
  void logical(std::size_t i) {
    std::string_view t = n_.text(i);
    if (t.empty()) {
      if (!stack_.empty() || !plan().logical_roots.empty()) logical_done_ = true;
      return;
    }
    if (logical_done_) return;
    if (expect_schema_) {
      expect_schema_ = false;
      std::string_view next = i + 1 < n_.lines.size() ? n_.text(i + 1) : std::string_view{};
      bool next_child = next.starts_with("+- ") || next.starts_with(":- ");
      bool has_attr = t.find('#') != std::string_view::npos;
      if (!has_attr && !next_child) return;  // `a: int, b: string` schema line
    }
    TreeLine tl;
    if (!explain::match_plain_tree_line(t, tl) || trim_spaces(tl.label).empty()) {
      error(i, 0, "expected a logical plan tree line");
      return;
    }
    Plan& p = plan();
    pop_stack(tl.column);
    std::size_t op = add_op();
    Operator& o = p.ops[op];
    o.section = logical_section_;
    o.loc = n_.range(i, tl.column, t.size());
    std::string_view label = tl.label;
    if (tl.codegen) {
      // A logical label can start with '*' only as part of the text; put it back.
      label = std::string_view(t).substr(tl.column);
      if (tl.has_stats) label = label.substr(0, label.size() - tl.stats.size() - 13);
    }
    explain::describe_logical_node(p.text_store(), o, label, o.loc);
    if (tl.has_stats) set_stats(o, tl.stats, i, tl);
    if (stack_.empty()) p.logical_roots.push_back(op);
    else {
      auto& ch = p.ops[stack_.back().op].children;
      ch.push_back(op);
    }
    stack_.push_back({tl.column, op});
    on_stack_[op] = 1;
  }

  // ---- trailers ----
  void trailer_line(std::size_t i) {
    if (!trailer_) return;
    Trailer& tr = plan().trailers[*trailer_];
    if (!tr.text.empty() || !n_.text(i).empty()) {
      if (!tr.text.empty()) tr.text += '\n';
      tr.text += n_.text(i);
      tr.loc.end_line = n_.lines[i].line;
      tr.loc.end_column = n_.column(i, n_.text(i).size());
    }
  }

  // ---- end of a plan ----
  void finish_plan() {
    if (!have_plan_) return;
    end_block();
    Plan& p = plan();
    for (auto& tr : p.trailers)
      while (!tr.text.empty() && tr.text.back() == '\n') tr.text.pop_back();
    // Reuse links (forward references allowed). Default mode names the reused exchange by its
    // label: the first exchange with that label, looked up in one index (not a scan per reuse).
    std::unordered_map<std::string_view, std::size_t> exchange_by_label;
    if (kind_ == PhysKind::Default && !reuses_.empty())
      for (const auto& o : p.ops)
        if (o.kind == OpKind::Exchange || o.kind == OpKind::BroadcastExchange) exchange_by_label.emplace(o.label, o.index);
    for (const auto& pr : reuses_) {
      if (kind_ == PhysKind::Default) {
        if (auto it = exchange_by_label.find(pr.target); it != exchange_by_label.end()) p.ops[pr.op].reuses = it->second;
        continue;
      }
      if (auto target = ids_.find(pr.target)) p.ops[pr.op].reuses = *target;
      else
        r_.messages.push_back({MessageSeverity::Warning, pr.loc, "reused operator id " + pr.target + " is not in the plan"});
    }
    for (const auto& [entry, id] : hosting_) {
      if (auto host = ids_.find(id)) p.subqueries[entry].hosting_op = *host;
    }
    // Logical hints: a ResolvedHint under a Join also marks the join side it applies to.
    for (auto& o : p.ops) {
      if (!o.logical || o.name != "Join") continue;
      for (std::size_t k = 0; k < o.children.size() && k < 2; ++k) {
        const Operator& c = p.ops[o.children[k]];
        if (c.name != "ResolvedHint" && c.name != "UnresolvedHint") continue;
        for (const Hint& h : *c.hints) {
          Hint h2 = h;
          h2.side = k == 0 ? BuildSide::Left : BuildSide::Right;
          o.hints.edit().push_back(std::move(h2));
        }
      }
    }
    // A formatted plan prints one `(N) Name` detail block per outline operator: operators without
    // one mean the details section was cut (a paste through `head`, a chat's length limit). Their
    // fields are unknown; say where the text ends (the reader decides nothing else: rules skip
    // what they cannot know).
    if (kind_ == PhysKind::Formatted && !has_parsed_ && !has_optimized_) {
      std::size_t missing = 0, shown = 0;
      const Operator* first = nullptr;
      Operator* last_block = nullptr;  // the block read last: where the text ends, it may be cut too
      for (auto& o : p.ops) {
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
      if (missing > 0) {
        const std::size_t at = std::min(last_text_line_, n_.lines.size() ? n_.lines.size() - 1 : 0);
        std::string msg = missing == shown
                              ? "the plan's details section is missing (no `(N) Name` block for any of its " +
                                    std::to_string(shown) + " operators): the text ends here"
                              : "the plan's details section stops early: " + std::to_string(missing) + " of " +
                                    std::to_string(shown) + " operators have no `(N) Name` block (the first is " +
                                    std::string(first->name.empty() ? std::string_view(first->label) : std::string_view(first->name)) +
                                    " (" + std::string(first->id) + ")); the text ends here";
        msg += "; checks that need an operator's details (conditions, output, pushed filters) are skipped for them — "
               "paste the whole output of explain(\"formatted\")";
        r_.messages.push_back({MessageSeverity::Warning, n_.lines.empty() ? SourceRange{} : n_.range(at, 0, n_.text(at).size()),
                               std::move(msg)});
      }
    }
    if (has_parsed_) p.format = InputFormat::ExplainExtended;
    else if (has_optimized_) p.format = InputFormat::ExplainCost;
    else if (kind_ == PhysKind::Formatted) p.format = InputFormat::ExplainFormatted;
    else if (kind_ == PhysKind::Default) p.format = InputFormat::ExplainDefault;
    else if (p.photon.present) p.format = InputFormat::PhotonExplanation;
    else p.format = InputFormat::ExplainFormatted;
    for (std::size_t root : p.roots)
      if (const Operator& o = p.ops[root]; o.kind == OpKind::AdaptivePlan && !p.is_final_plan) {
        if (const Field* f = o.field("Arguments")) {
          if (f->value.find("isFinalPlan=true") != std::string::npos) p.is_final_plan = true;
          else if (f->value.find("isFinalPlan=false") != std::string::npos) p.is_final_plan = false;
        }
      }
    parse_trailers(p);
    p.link();
    have_plan_ = false;
  }

  static void parse_trailers(Plan& p) {
    for (const auto& tr : p.trailers) {
      if (tr.title == "Photon Explanation") {
        parse_photon_explanation(tr.text, p.photon);
        p.photon.loc = tr.loc;
      } else if (tr.title.starts_with("Optimizer Statistics")) {
        std::string_view text = tr.text;
        std::size_t pos = 0;
        while (pos < text.size()) {
          std::size_t nl = text.find('\n', pos);
          if (nl == std::string_view::npos) nl = text.size();
          std::string_view l = trim_spaces(text.substr(pos, nl - pos));
          if (!l.empty()) p.optimizer_statistics.emplace_back(l);
          pos = nl + 1;
        }
      }
    }
  }
};

}  // namespace

ParseResult parse_explain_text(std::string_view text, const std::string& path,
                               std::shared_ptr<const std::string> input) {
  ParseResult r;
  r.path = path;
  ExplainFillHints hints;
  {
    Normalized n = normalize(text);
    // Operator texts are views into `text` unless normalize rewrote lines (it then names a
    // repair): a word that is not in `text` is in no operator's text. One search of the input
    // instead of one per operator text.
    hints = explain_fill_hints(text, !n.repairs.empty());
    ExplainTextReader reader(n, r, std::move(input));
    reader.run();
  }
  // The typed facts once the line table and the reader's indexes are gone (they need neither):
  // the peak of a large plan is lower.
  for (Plan& p : r.plans) fill_explain_facts(p, hints);
  if (r.format == InputFormat::Unknown) r.format = InputFormat::ExplainFormatted;
  return r;
}

}  // namespace planlint
