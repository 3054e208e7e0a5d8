// The end of a plan (links that may point forward, the format it was printed in, the checks that
// need the whole plan) and the end of the text: never a silent empty answer.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "parser/explain/explain_state.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::explain {

namespace {

// Reuse links (forward references allowed). Default mode names the reused exchange by its label:
// the first exchange with that label, looked up in one index (not a scan per reuse).
void link_reuses(ExplainState& s, Plan& p) {
  std::unordered_map<std::string_view, std::size_t> exchange_by_label;
  if (s.kind == PhysKind::Default && !s.reuses.empty())
    for (const auto& o : p.ops)
      if (o.kind == OpKind::Exchange || o.kind == OpKind::BroadcastExchange) exchange_by_label.emplace(o.label, o.index);
  for (const auto& pr : s.reuses) {
    if (s.kind == PhysKind::Default) {
      if (auto it = exchange_by_label.find(pr.target); it != exchange_by_label.end()) p.ops[pr.op].reuses = it->second;
      continue;
    }
    if (auto target = s.ids.find(pr.target)) p.ops[pr.op].reuses = *target;
    else
      s.r.messages.push_back({MessageSeverity::Warning, pr.loc, "reused operator id " + pr.target + " is not in the plan"});
  }
}

InputFormat plan_format(const ExplainState& s, const Plan& p) {
  if (s.has_parsed) return InputFormat::ExplainExtended;
  if (s.has_optimized) return InputFormat::ExplainCost;
  if (s.kind == PhysKind::Formatted) return InputFormat::ExplainFormatted;
  if (s.kind == PhysKind::Default) return InputFormat::ExplainDefault;
  if (p.photon.present) return InputFormat::PhotonExplanation;
  return InputFormat::ExplainFormatted;
}

// A formatted AdaptiveSparkPlan root says in its Arguments field whether the plan is final.
void final_plan_from_arguments(Plan& p) {
  for (std::size_t root : p.roots)
    if (const Operator& o = p.ops[root]; o.kind == OpKind::AdaptivePlan && !p.is_final_plan) {
      if (const Field* f = o.field("Arguments")) {
        if (f->value.find("isFinalPlan=true") != std::string::npos) p.is_final_plan = true;
        else if (f->value.find("isFinalPlan=false") != std::string::npos) p.is_final_plan = false;
      }
    }
}

bool orphan_tree_lines(const Normalized& n) {
  for (std::size_t i = 0; i < n.line_count(); ++i) {
    std::string_view t = n.text(i);
    std::size_t g = t.find_first_not_of(" :");
    if (g != std::string_view::npos && g > 0 && (t.substr(g).starts_with("+- ") || t.substr(g).starts_with(":- ")))
      return true;
  }
  return false;
}

// The likely damage, from what the unread lines (all lines when nothing was read) look like.
std::string hint(const Normalized& n, const std::vector<std::size_t>* only = nullptr) {
  std::size_t numbered = 0, midmarker = 0, json = 0, html = 0, text = 0, orphan = 0;
  std::size_t count = only ? only->size() : n.line_count();
  for (std::size_t k = 0; k < count; ++k) {
    std::string_view t = n.text(only ? (*only)[k] : k);
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
    for (std::size_t k = 0; k < n.line_count(); ++k) {
      const std::string_view t = n.text(k);
      if (t.empty()) continue;
      if (t.starts_with("Found 0 WholeStageCodegen subtrees"))
        return "Spark printed no whole-stage-codegen subtree: with adaptive execution on, explain('codegen') "
               "before the query has run shows none (the adaptive plan has not planned its stages yet); call it "
               "after an action, or use explain('formatted')";
      break;
    }
    const std::string_view prefix = repair::comment_prefix_name(n.input);
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

// No operator at all: an error that says how many lines were looked at (a Photon explanation
// alone is read, not an error).
void summarize_nothing_read(ExplainState& s) {
  const Normalized& n = s.n;
  std::size_t first = n.line_count(), nonempty = 0;  // (a pass over every line: only here)
  for (std::size_t i = 0; i < n.line_count(); ++i)
    if (!n.text(i).empty()) {
      ++nonempty;
      first = std::min(first, i);
    }
  bool photon_only = s.handed_over_photon;
  for (const auto& p : s.r.plans) photon_only = photon_only || p.photon.present;
  if (photon_only && s.bad.empty() && !orphan_tree_lines(n)) return;
  SourceRange loc{1, 1, 1, 1};
  if (first < n.line_count()) loc = n.range(first, 0, n.text(first).size());
  std::string msg = s.r.plans.empty() && s.r.handed_over_plans == 0 ? "expected '== Physical Plan ==' or an explain plan tree"
                                      : "no operator line under the plan's headers";
  msg += "; no operators were read from " + std::to_string(nonempty) + " non-empty line" +
         (nonempty == 1 ? "" : "s") + ". hint: " + hint(n);
  s.r.messages.push_back({MessageSeverity::Error, loc, std::move(msg)});
}

}  // namespace

void finish_plan(ExplainState& s) {
  if (!s.have_plan) return;
  end_block(s);
  Plan& p = s.plan();
  link_reuses(s, p);
  for (const auto& [entry, id] : s.hosting) {
    if (auto host = s.ids.find(id)) p.subqueries[entry].hosting_op = *host;
  }
  link_logical_hints(p);
  if (s.kind == PhysKind::Formatted && !s.has_parsed && !s.has_optimized) mark_missing_details(s);
  p.format = plan_format(s, p);
  final_plan_from_arguments(p);
  finish_trailers(p);
  s.outline.release_edges();  // no edge is placed in this plan any more
  p.link();
  s.have_plan = false;
}

// Never a silent empty answer: say how much was read, which lines were not, and why.
void summarize(ExplainState& s) {
  std::size_t ops = s.r.handed_over_ops;
  for (const auto& p : s.r.plans) ops += p.ops.size();
  if (ops == 0) {
    summarize_nothing_read(s);
    return;
  }
  if (s.bad.empty()) return;
  std::vector<std::size_t> unread = s.bad_index;
  std::vector<std::uint32_t>& bad = s.bad;
  std::sort(bad.begin(), bad.end());
  bad.erase(std::unique(bad.begin(), bad.end()), bad.end());
  std::string list;
  std::size_t shown = 0;
  for (std::size_t k = 0; k < bad.size() && shown < 8; ++k, ++shown) {
    std::size_t a = bad[k];
    std::size_t b = a;
    while (k + 1 < bad.size() && bad[k + 1] == b + 1) b = bad[++k];
    if (!list.empty()) list += ", ";
    list += std::to_string(a) + (b != a ? "-" + std::to_string(b) : "");
  }
  if (shown == 8) list += ", ...";
  SourceRange loc = s.n.range(unread.front(), 0, s.n.text(unread.front()).size());
  std::string msg = "read " + std::to_string(ops) + " operator" + (ops == 1 ? "" : "s") + "; " +
                    std::to_string(bad.size()) + " line" + (bad.size() == 1 ? " was" : "s were") +
                    " not understood (line" + (bad.size() == 1 ? " " : "s ") + list +
                    "): the plan may be incomplete. hint: " + hint(s.n, &unread);
  s.r.messages.push_back({MessageSeverity::Warning, loc, std::move(msg)});
}

}  // namespace planlint::explain
