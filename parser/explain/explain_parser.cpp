// The explain-text reader's driver: a line-level state machine over the normalised input
// (parser/explain/normalize) that follows the `== ... ==` headers, tells the physical plan's mode
// from its first line and hands every line to the handler of the region and mode it is in
// (explain_state.hpp lists them by file). Formatted, default, extended, cost and codegen modes;
// several plans per input. The handlers run the PEGTL line grammars (grammar/explain.hpp via
// parser/explain/explain_lines) and place operators with the column stack (outline.hpp).
#include <functional>
#include <memory>
#include <string>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "parser/explain/codegen_subtrees.hpp"
#include "parser/explain/explain.hpp"
#include "parser/explain/explain_state.hpp"
#include "parser/common/facts_fill.hpp"
#include "parser/common/input_pages.hpp"

namespace planlint {

namespace {

using namespace explain;

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

// Reads the normalised lines of one explain text (every mode) into plans.
class ExplainTextReader {
 public:
  ExplainTextReader(const Normalized& n, ParseResult& r, std::shared_ptr<const std::string> input,
                    const std::function<void(Plan&&)>* each_plan, const ExplainFillHints& hints)
      : s_(n, r, shared_text(input)), input_(std::move(input)), each_plan_(each_plan), hints_(hints) {}

  void run() {
    const Normalized& n = s_.n;
    const std::size_t count = n.line_count();
    for (std::size_t i = 0; i < count;) {
      if (s_.region != Region::Physical || starts_with_eq(n.text(i))) {
        line(i++);
        continue;
      }
      // A run of physical lines: they add to plan() only (operators, children, fields), whose
      // lists live in its store, and never start a plan; only a `== ... ==` header can leave the
      // region or start another plan (and hand this one over). One BlockScope for the run, not
      // one per line: the run ends before any line that starts with '=' (such a line is read
      // outside it).
      const BlockScope blocks(s_.plan().text_store());
      do physical_line(i++);
      while (i < count && !starts_with_eq(n.text(i)));
    }
    if (outline_.releasing) end_outline(count);
    finish_plan(s_);  // the last plan is handed over once the line table is gone (parse_explain_text)
    summarize(s_);
    fold_codegen_subtrees(s_.r, codegen_plans_);
    if (n.cut) {
      // (a later repair can drop the cut's line: the range is then unknown)
      const std::size_t cut_size = n.cut_line < n.line_count() ? n.text(n.cut_line).size() : 0;
      s_.r.messages.push_back({MessageSeverity::Warning, n.range(n.cut_line, 0, cut_size),
                               "the plan text was cut by Spark ('" + n.cut_text +
                                   "', spark.sql.maxPlanStringLength): the rest of the plan is missing"});
    }
    // Overall format: the first plan's.
    if (!s_.r.plans.empty() && s_.r.handed_over_plans == 0) s_.r.format = s_.r.plans.front().format;
  }

 private:
  ExplainState s_;
  std::shared_ptr<const std::string> input_;  // the shared input: plans view it (may be null)
  std::vector<std::size_t> codegen_plans_;    // plans read from `== Subtree k / n ==` sections
  const std::function<void(Plan&&)>* each_plan_;  // set: finished plans are handed over, not kept
  const ExplainFillHints& hints_;
  // A large formatted outline being read with its texts copied, to be given back once read
  // (parser/common/input_pages.hpp): its first line and the unread lines when it started.
  struct OutlineRelease {
    bool releasing = false;
    std::size_t first = 0;
    std::size_t bad = 0;
  } outline_;

  // The outline starting at line i (a formatted plan's first tree line): when the owner of the
  // input lets a reader give bytes back (an InputPages scope) and the outline is large, its
  // operators copy what they keep of it (ids, labels) instead of viewing the input, and
  // end_outline gives its pages back once it is read. Lines rewritten by a repair may lie
  // elsewhere: then nothing is given back.
  void begin_outline(std::size_t i) {
    const InputPages* pages = InputPages::current();
    const Normalized& n = s_.n;
    if (pages == nullptr || !input_ || !n.repairs.empty()) return;
    // Its extent: up to the blank line (or header) that ends it (a pass over the line table's
    // sizes, only under a scope).
    std::size_t last = i;
    for (std::size_t j = i + 1; j < n.line_count(); ++j) {
      const std::string_view t = n.text(j);
      if (t.empty() || starts_with_eq(t)) break;
      last = j;
    }
    if (!pages->may_release(lines_span(i, last))) return;
    outline_ = {true, i, s_.bad.size()};
    s_.input_text = {};
    s_.plan().text_store().set_views_input(false);
  }
  // The outline begun at outline_.first ended before line `end` (its first line not in it): texts
  // are viewed again, and the outline's bytes given back unless a line of it was not understood
  // (the unread lines' hint reads them again at the end: finish.cpp).
  void end_outline(std::size_t end) {
    outline_.releasing = false;
    s_.input_text = shared_text(input_);
    s_.plan().text_store().set_views_input(true);
    const InputPages* pages = InputPages::current();
    if (pages == nullptr || s_.bad.size() != outline_.bad || end <= outline_.first) return;
    pages->release(lines_span(outline_.first, end - 1));
  }
  // The bytes from line `first`'s start to line `last`'s end (views of the input, in order when no
  // repair rewrote them); empty if they are not in order.
  [[nodiscard]] std::string_view lines_span(std::size_t first, std::size_t last) const {
    const std::string_view a = s_.n.text(first), b = s_.n.text(last);
    if (b.data() < a.data()) return {};
    return {a.data(), static_cast<std::size_t>(b.data() + b.size() - a.data())};
  }

  // A finished plan (finish_plan) to each_plan_, its facts filled: no line of the text reaches a
  // plan once the next one has started (new_plan).
  void hand_over() {
    ParseResult& r = s_.r;
    if (!each_plan_ || r.plans.empty()) return;
    // EXPLAIN CODEGEN sections stay until the end: a later section may print this one again
    // inside it (fold_codegen_subtrees), and their indexes must stay valid.
    if (!codegen_plans_.empty()) return;
    Plan& p = r.plans.back();
    fill_explain_facts(p, hints_);
    if (r.handed_over_plans == 0) r.format = p.format;  // the first plan's (run())
    s_.handed_over_photon = s_.handed_over_photon || p.photon.present;
    ++r.handed_over_plans;
    r.handed_over_ops += p.ops.size();
    (*each_plan_)(std::move(p));
    r.plans.clear();
  }

  void new_plan(std::size_t i) {
    if (outline_.releasing) end_outline(i);
    finish_plan(s_);
    hand_over();
    s_.reset();
    ParseResult& r = s_.r;
    const Normalized& n = s_.n;
    r.plans.emplace_back();
    if (input_) r.plans.back().text_store().view_input(input_);
    // Only this plan's lines count (up to the next `== ... ==` header): an input of many plans
    // must not reserve room for the whole input once per plan.
    // Operators are about one per tree line (`+- ` / `:- ` after the guides) plus the roots: count
    // them, so the vector of operators is allocated once (a doubling copies every operator and
    // holds both copies at the peak).
    std::size_t end = i + 1, tree_lines = 0;
    // A header starts with '=', a tree line with a guide byte or '+': most lines start with a
    // letter or '(' (detail lines, operators at column 0) and are passed by one look at that byte.
    constexpr std::uint64_t kLead = std::uint64_t{1} << '=' | std::uint64_t{1} << ' ' | std::uint64_t{1} << ':' |
                                    std::uint64_t{1} << '+';
    for (const std::size_t count = n.line_count(); end < count; ++end) {
      const std::string_view t = n.text(end);
      if (t.empty()) continue;
      if (const auto c = static_cast<unsigned char>(t[0]); !(c < 64 ? (kLead >> c) & 1 : c == '|')) continue;
      if (t.size() > 3 && t[0] == '=' && t[1] == '=' && t[2] == ' ') break;
      // Only a line that starts with a guide byte has guides to skip.
      const std::size_t k = t[0] == ' ' || t[0] == ':' || t[0] == '|' ? skip_guide_bytes(t) : 0;
      if (k < t.size() && ((t[k] == '-' && k > 0 && t[k - 1] == ':') ||
                           (t[k] == '+' && k + 1 < t.size() && t[k + 1] == '-')))
        ++tree_lines;
    }
    // The roots (the outline's, each subquery's, each logical section's) have no connector: a
    // few, not one in 16 (that slack was 6,250 unused operators, 1.5 MB, for 100,000).
    r.plans.back().ops.reserve(tree_lines + tree_lines / 128 + 64);
    s_.outline.reserve_edges(tree_lines + 8);  // one edge per tree line, and the roots
    s_.outline.reserve_ops(tree_lines + tree_lines / 128 + 64);
    s_.have_plan = true;
    s_.plan().name = "plan " + std::to_string(r.handed_over_plans + r.plans.size());
    s_.plan().loc = n.range(i, 0, n.text(i).size());
  }

  // ---- dispatch ----
  static bool starts_with_eq(std::string_view t) { return !t.empty() && t[0] == '='; }

  void line(std::size_t i) {
    std::string_view t = s_.n.text(i);
    if (!t.empty()) s_.last_text_line = i;
    std::string_view title;
    if (!t.empty() && t[0] == '=' && match_mode_header(t, title)) {
      header(i, title);
      return;
    }
    switch (s_.region) {
      case Region::None: headerless(i); break;
      case Region::Physical: {
        // physical() adds to plan() only (operators, children, fields): their lists live in its
        // store. It never starts a plan.
        const BlockScope blocks(s_.plan().text_store());
        physical(i);
        break;
      }
      case Region::Logical: logical_line(s_, i); break;
      case Region::Trailer: trailer_line(s_, i); break;
    }
  }

  // line(i) for a line of the physical region that does not start with '=' (no header), inside
  // the BlockScope of run()'s run of physical lines.
  void physical_line(std::size_t i) {
    const std::string_view t = s_.n.text(i);
    if (!t.empty()) s_.last_text_line = i;
    physical(i);
    // The outline ends with line i when its mode does (a blank line, a detail block's header).
    if (outline_.releasing && s_.mode != PhysMode::Outline) end_outline(i);
  }

  void header(std::size_t i, std::string_view title) {
    if (outline_.releasing) end_outline(i);
    // A section of a custom optimizer (`== Materialized Logical Plan ==`) between the logical
    // sections is kept as a trailer and does not end the plan.
    bool custom_logical = s_.region == Region::Trailer && s_.trailer &&
                          s_.plan().trailers[*s_.trailer].title.size() > 12 &&
                          s_.plan().trailers[*s_.trailer].title.ends_with("Logical Plan");
    bool same_plan_ok = s_.have_plan && s_.has_logical && !s_.has_physical && (s_.region != Region::Trailer || custom_logical);
    // EXPLAIN CODEGEN: "== Subtree 1 / 2 (maxMethodCodeSize:...) ==" then a default-mode tree and the
    // generated Java source, which is skipped (it belongs to no block).
    bool codegen_subtree = title.starts_with("Subtree ") && title.find(" / ") != std::string_view::npos;
    if (title == "Physical Plan" || codegen_subtree) {
      if (!same_plan_ok || codegen_subtree) new_plan(i);
      if (codegen_subtree) codegen_plans_.push_back(s_.r.plans.size() - 1);
      end_block(s_);
      s_.region = Region::Physical;
      s_.mode = PhysMode::Start;
      s_.has_physical = true;
      s_.outline.clear_stack();
      return;
    }
    Section sec = Section::Main;
    if (title == "Parsed Logical Plan") sec = Section::ParsedLogical;
    else if (title == "Analyzed Logical Plan") sec = Section::AnalyzedLogical;
    else if (title == "Optimized Logical Plan") sec = Section::OptimizedLogical;
    if (sec != Section::Main) {
      if (sec == Section::ParsedLogical || !same_plan_ok) new_plan(i);
      s_.region = Region::Logical;
      s_.logical.section = sec;
      s_.has_logical = true;
      s_.has_parsed = s_.has_parsed || sec == Section::ParsedLogical;
      s_.has_optimized = s_.has_optimized || sec == Section::OptimizedLogical;
      s_.logical.expect_schema = sec == Section::AnalyzedLogical;
      s_.logical.done = false;
      s_.outline.clear_stack();
      return;
    }
    // A trailer: Photon Explanation, Optimizer Statistics, Extended Information, anything else.
    bool photon = title == "Photon Explanation";
    if (!s_.have_plan || (photon && s_.plan().photon.present) || (photon && has_trailer(s_.plan(), title))) new_plan(i);
    end_block(s_);
    s_.region = Region::Trailer;
    open_trailer(s_, i, title);
  }

  // No header yet: a plan root followed by tree lines starts a plan whose header is missing.
  void headerless(std::size_t i) {
    const Normalized& n = s_.n;
    std::string_view t = n.text(i);
    if (t.empty()) return;
    // A root indented a little more than its children (`  Execute ...` over `+- WriteFiles`).
    std::size_t k = t.find_first_not_of(' ');
    if (k == std::string_view::npos || k > 4 || t[k] == ':' || t.substr(k).starts_with("+- ") ||
        t.substr(k).starts_with(":- "))
      return;
    std::string_view next = i + 1 < n.line_count() ? n.text(i + 1) : std::string_view{};
    // The child may be indented further (InMemoryRelation prints its plan as an inner child).
    std::size_t nk = next.find_first_not_of(' ');
    bool next_child = nk != std::string_view::npos && nk <= 6 &&
                      (next.substr(nk).starts_with("+- ") || next.substr(nk).starts_with(":- "));
    if (k > 0 && !next_child) return;
    TreeLine tl;
    bool formatted = match_formatted_tree_line(t, tl, nullptr) && !tl.connector;
    if (!(next_child || (formatted && next.empty()))) return;
    if (!formatted && !next_child) return;
    new_plan(i);
    s_.error(i, 0, "the '== Physical Plan ==' header is missing; reading the plan anyway", MessageSeverity::Warning);
    s_.region = Region::Physical;
    s_.mode = PhysMode::Start;
    s_.has_physical = true;
    physical(i);
  }

  // ---- physical plans: the mode's handler ----
  void physical(std::size_t i) {
    switch (s_.mode) {
      case PhysMode::Start: first_physical_line(i); return;
      case PhysMode::Outline:
        if (s_.kind == PhysKind::Default) default_line(s_, i);
        else formatted_outline(s_, i);
        return;
      case PhysMode::EntryStart: entry_start(i); return;
      case PhysMode::Details: details(s_, i); return;
    }
  }

  // The plan's first line tells its mode: a formatted outline line (`* Name (1)`), Spark's notes
  // that there is no plan, or else a default-mode tree.
  void first_physical_line(std::size_t i) {
    std::string_view t = s_.n.text(i);
    if (t.empty()) return;
    TreeLine tl;
    if (match_formatted_tree_line(t, tl, nullptr)) {
      start_outline(PhysKind::Formatted);
      begin_outline(i);
      formatted_node(s_, i, tl);
      return;
    }
    if (looks_formatted(t)) {
      // A formatted outline line that is broken (cut before its id): report it as such.
      start_outline(PhysKind::Formatted);
      formatted_outline(s_, i);
      return;
    }
    if (t.starts_with("Truncated plan of ")) {
      s_.error(i, 0, "Spark printed no plan ('" + std::string(t) + "', spark.sql.maxPlanStringLength)",
               MessageSeverity::Warning);
      s_.mode = PhysMode::Details;
      return;
    }
    if (t.find("Exception") != std::string_view::npos || t.starts_with("Error occurred")) {
      s_.error(i, 0, "the plan is an error message, not a plan", MessageSeverity::Warning);
      s_.mode = PhysMode::Details;
      return;
    }
    s_.kind = PhysKind::Default;
    s_.mode = PhysMode::Outline;
    default_line(s_, i);
  }

  void start_outline(PhysKind kind) {
    s_.kind = kind;
    s_.mode = PhysMode::Outline;
    s_.outline.base = Section::Main;
  }

  // The line after a `Subquery:` / `Subplan:` entry: the entry's outline, or more details.
  void entry_start(std::size_t i) {
    std::string_view t = s_.n.text(i);
    if (t.empty()) {
      s_.mode = PhysMode::Details;
      s_.block.blank = true;
      s_.outline.entry.reset();
      return;
    }
    TreeLine tl;
    if (!t.starts_with("Subquery:") && !t.starts_with("Subplan:") && t[0] != '(' &&
        match_formatted_tree_line(t, tl, nullptr)) {
      s_.mode = PhysMode::Outline;
      s_.outline.clear_stack();
      formatted_node(s_, i, tl);
      return;
    }
    s_.mode = PhysMode::Details;
    s_.outline.entry.reset();
    details(s_, i);
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
};

}  // namespace

ParseResult parse_explain_text(std::string_view text, const std::string& path,
                               std::shared_ptr<const std::string> input,
                               const std::function<void(Plan&&)>* each_plan) {
  ParseResult r;
  r.path = path;
  r.traits = kExplainTextTraits;
  ExplainFillHints hints;
  {
    Normalized n = normalize(text);
    // Operator texts are views into `text` unless normalize rewrote lines (it then names a
    // repair): a word that is not in `text` is in no operator's text. One search of the input
    // instead of one per operator text.
    hints = explain_fill_hints(text, !n.repairs.empty());
    ExplainTextReader reader(n, r, std::move(input), each_plan, hints);
    reader.run();
  }
  // The typed facts once the line table and the reader's indexes are gone (they need neither):
  // the peak of a large plan is lower.
  for (Plan& p : r.plans) fill_explain_facts(p, hints);
  if (each_plan) {
    // The last plan (the only one of most inputs), now that the line table is gone.
    for (Plan& p : r.plans) {
      ++r.handed_over_plans;
      r.handed_over_ops += p.ops.size();
      (*each_plan)(std::move(p));
    }
    std::vector<Plan>().swap(r.plans);
  }
  if (r.format == InputFormat::Unknown) r.format = InputFormat::ExplainFormatted;
  return r;
}

}  // namespace planlint
