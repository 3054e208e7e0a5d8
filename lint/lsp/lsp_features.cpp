#include "lint/lsp/lsp_features.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <optional>
#include <cstdint>
#include <vector>

#include "lint/core/report.hpp"
#include "lint/engine/parse_errors.hpp"
#include "lint/core/suppress.hpp"

namespace planlint::lsp {

namespace {

// LSP DiagnosticSeverity.
int lsp_severity(Severity s) {
  switch (s) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Info: break;
  }
  return 3;
}

// LSP SymbolKind for an operator.
int symbol_kind(OpKind k) {
  switch (k) {
    case OpKind::Scan:
    case OpKind::LocalData:
    case OpKind::InMemoryScan: return 8;             // Field: where data comes from
    case OpKind::Exchange:
    case OpKind::BroadcastExchange:
    case OpKind::ReusedExchange:
    case OpKind::ShuffleRead: return 24;             // Event: data moves
    case OpKind::Aggregate:
    case OpKind::Window:
    case OpKind::PythonEval: return 12;              // Function
    case OpKind::QueryStage:
    case OpKind::CodegenStage:
    case OpKind::AdaptivePlan: return 3;             // Namespace: groups operators
    case OpKind::Subquery:
    case OpKind::ReusedSubquery: return 5;           // Class
    case OpKind::Command:
    case OpKind::Write: return 6;                    // Method
    default: break;
  }
  return 25;                                          // Operator
}

std::string truncate(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return std::string(s.substr(0, cut)) + "…";
}

std::string one_line(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

const SourceRange& op_range(const Operator& op) { return op.loc.known() ? op.loc : op.detail_loc; }

Range diagnostic_range(const DocumentView& doc, const Diagnostic& d) {
  if (d.range.known()) return doc.lines.to_range(d.range);
  if (d.plan_index < doc.lint.parse.plans.size()) {
    const Plan& plan = doc.lint.parse.plans[d.plan_index];
    if (d.op && *d.op < plan.ops.size()) {
      const SourceRange& r = op_range(plan.ops[*d.op]);
      if (r.known()) return doc.lines.to_range(r);
    }
    return doc.lines.to_range(plan.loc);
  }
  return {};
}

bool contains(const Range& r, Position p) { return !(p < r.start) && (p < r.end || r.start == r.end); }

bool overlaps(const Range& a, const Range& b) {
  if (a.end < b.start || b.end < a.start) return false;
  return true;
}

json rule_diagnostic_json(const DocumentView& doc, const Diagnostic& d) {
  Range range = diagnostic_range(doc, d);
  json j = {{"range", to_json(range)}, {"severity", lsp_severity(d.severity)}, {"source", "planlint"}};
  if (!d.rule.empty()) {
    j["code"] = d.rule;
    // Built-in findings (parse-error, unused-suppression) have no page under docs/rules/.
    if (const RuleDoc* rd = find_rule_doc(d.rule); !rd || rd->family != RuleFamily::Builtin)
      if (std::string url = rule_doc_url(d.rule); !url.empty()) j["codeDescription"] = {{"href", url}};
  }
  std::string message = labelled_message(d);
  if (!d.fix.empty()) message += "\nFix: " + d.fix;
  j["message"] = message;
  json related = json::array();
  json location = {{"uri", doc.uri}, {"range", to_json(range)}};
  for (const auto& e : d.evidence)
    related.push_back({{"location", location}, {"message", e.name + ": " + e.value}});
  if (!d.impact_text.empty()) related.push_back({{"location", location}, {"message", "impact: " + d.impact_text}});
  if (!related.empty()) j["relatedInformation"] = std::move(related);
  j["data"] = {{"rule", d.rule}, {"ruleCode", d.code}, {"plan", d.plan_index}, {"operator", d.operator_id}};
  return j;
}

// Operators the diagnostics of this document point at, for hover.
std::vector<const Diagnostic*> findings_on(const DocumentView& doc, const OperatorRef& ref) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : doc.lint.diagnostics)
    if (d.plan_index == ref.plan && d.op && *d.op == ref.op) out.push_back(&d);
  return out;
}

void append_rule_doc(std::string& md, const Diagnostic& d) {
  md += "\n---\n\n### " + d.rule;
  if (!d.code.empty()) md += " (" + d.code + ")";
  md += " · " + std::string(to_string(d.severity)) + "\n\n";
  md += labelled_message(d) + "\n\n";
  if (!d.evidence.empty()) {
    md += "**Evidence**\n\n";
    for (const auto& e : d.evidence) md += "- " + e.name + ": " + e.value + "\n";
    md += "\n";
  }
  if (!d.fix.empty()) md += "**Fix**: " + d.fix + "\n\n";
  const RuleDoc* found = find_rule_doc(d.rule);
  if (!found) return;
  const RuleDoc& rd = *found;
  if (!rd.summary.empty()) md += "*" + rd.summary + "*\n\n";
  auto section = [&md](const char* title, const std::string& body, bool code) {
    if (body.empty()) return;
    md += std::string("**") + title + "**\n\n";
    md += code ? "```\n" + body + (body.back() == '\n' ? "" : "\n") + "```\n\n" : body + "\n\n";
  };
  section("What it does", rd.what, false);
  section("Why is this bad?", rd.why, false);
  section("Example", rd.example, true);
  section("Use instead", rd.use_instead, true);
  if (std::string url = rule_doc_url(rd.name); !url.empty()) md += "[" + rd.name + " documentation](" + url + ")\n";
}

std::string operator_hover(const DocumentView& doc, const OperatorRef& ref) {
  const Plan& plan = doc.lint.parse.plans[ref.plan];
  const Operator& op = plan.ops[ref.op];
  std::string md = "**" + (op.name.empty() ? op.label : op.name) + "**";
  if (!op.id.empty()) md += " · operator " + op.id;
  md += "\n\n";
  md += std::string(to_string(op.kind)) + " · " + std::string(to_string(op.engine));
  if (op.section != Section::Main) md += " · " + std::string(to_string(op.section));
  if (op.codegen_stage) md += " · codegen stage " + std::to_string(*op.codegen_stage);
  if (doc.lint.parse.plans.size() > 1) md += " · " + plan.name;
  md += "\n\n";

  std::vector<std::string> details;
  if (!op.table().empty()) details.push_back("Table: " + op.table());
  if (!op.scan_format().empty()) details.push_back("Format: " + op.scan_format());
  if (op.kind == OpKind::Join) {
    std::string j = "Join: " + (op.join->type_text.empty() ? std::string(to_string(op.join->type)) : op.join->type_text.str());
    if (op.join->strategy != JoinStrategy::None) j += ", " + std::string(to_string(op.join->strategy));
    if (op.join->build != BuildSide::None) j += ", " + std::string(to_string(op.join->build));
    if (op.join->skew) j += ", skew";
    details.push_back(j);
  }
  if (op.stats()->size_bytes || op.stats()->row_count) {
    std::string s = "Statistics:";
    if (op.stats()->size_bytes) s += " " + format_bytes(*op.stats()->size_bytes);
    if (op.stats()->row_count) s += " " + format_count(*op.stats()->row_count) + " rows";
    details.push_back(s);
  }
  constexpr std::size_t kMaxFields = 8;
  std::size_t shown = 0;
  for (const auto& f : op.fields) {
    if (shown == kMaxFields) {
      details.push_back("… " + std::to_string(op.fields.size() - kMaxFields) + " more");
      break;
    }
    std::string line = f.key.empty() ? one_line(f.value) : f.key + ": " + one_line(f.value);
    details.push_back(truncate(line, 160));
    ++shown;
  }
  if (!details.empty()) {
    md += "```text\n";
    for (const auto& d : details) md += d + "\n";
    md += "```\n\n";
  }

  std::vector<std::pair<std::string, std::string>> rows;
  if (op.rows()) rows.emplace_back("Rows", format_count(*op.rows()));
  if (op.duration_ms()) rows.emplace_back("Time", format_millis(*op.duration_ms()));
  if (op.extra()->peak_memory_bytes) rows.emplace_back("Peak memory", format_bytes(*op.extra()->peak_memory_bytes));
  constexpr std::size_t kMaxByteMetrics = 6;
  std::size_t byte_metrics = 0;
  for (const auto& m : op.metrics()) {
    if (m.unit != MetricUnit::Bytes || !m.value || m.hidden) continue;
    if (op.extra()->peak_memory_bytes && *m.value == *op.extra()->peak_memory_bytes &&
        m.label.find("emory") != std::string::npos)
      continue;  // already shown as peak memory
    if (byte_metrics++ == kMaxByteMetrics) break;
    rows.emplace_back(m.label, format_bytes(*m.value));
  }
  if (!rows.empty()) {
    md += "| Metric | Value |\n| --- | ---: |\n";
    for (const auto& [k, v] : rows) md += "| " + k + " | " + v + " |\n";
    md += "\n";
  }
  for (const Diagnostic* d : findings_on(doc, ref)) append_rule_doc(md, *d);
  return md;
}

}  // namespace

namespace {

std::mutex g_rule_doc_mutex;
std::optional<std::filesystem::path> g_rule_doc_dir;  // set_rule_doc_dir, or found once

std::filesystem::path default_rule_doc_dir() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  const std::filesystem::path bin = exe.parent_path();
  for (const auto& dir : {bin.parent_path() / "share" / "doc" / "planlint" / "rules",  // installed
                          bin.parent_path() / "docs" / "rules"}) {                     // source tree/build
    if (std::filesystem::is_directory(dir, ec)) return dir.lexically_normal();
  }
  return {};
}

}  // namespace

void set_rule_doc_dir(std::string dir) {
  std::lock_guard lock(g_rule_doc_mutex);
  if (dir.empty())
    g_rule_doc_dir.reset();
  else
    g_rule_doc_dir = std::filesystem::path(std::move(dir));
}

std::string rule_doc_url(std::string_view rule) {
  std::filesystem::path dir;
  {
    std::lock_guard lock(g_rule_doc_mutex);
    if (!g_rule_doc_dir) g_rule_doc_dir = default_rule_doc_dir();
    dir = *g_rule_doc_dir;
  }
  if (dir.empty() || rule.empty() || rule.find('/') != std::string_view::npos) return {};
  std::filesystem::path page = dir / (std::string(rule) + ".md");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(page, ec)) return {};
  return path_to_uri(page.string());
}

json to_json(const Position& p) { return {{"line", p.line}, {"character", p.character}}; }
json to_json(const Range& r) { return {{"start", to_json(r.start)}, {"end", to_json(r.end)}}; }

std::optional<Position> position_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  auto line = j.find("line");
  auto ch = j.find("character");
  if (line == j.end() || ch == j.end() || !line->is_number_unsigned() || !ch->is_number_unsigned())
    return std::nullopt;
  auto clamp = [](const json& v) {
    auto n = v.get<std::uint64_t>();
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(n, UINT32_MAX));
  };
  return Position{clamp(*line), clamp(*ch)};
}

std::optional<Range> range_from_json(const json& j) {
  if (!j.is_object() || !j.contains("start") || !j.contains("end")) return std::nullopt;
  auto s = position_from_json(j["start"]);
  auto e = position_from_json(j["end"]);
  if (!s || !e) return std::nullopt;
  return Range{*s, *e};
}

json diagnostics_json(const DocumentView& doc) {
  json out = json::array();
  for (const auto& d : doc.lint.diagnostics) out.push_back(rule_diagnostic_json(doc, d));
  return out;
}

std::optional<OperatorRef> operator_at(const DocumentView& doc, Position pos) {
  std::optional<OperatorRef> best;
  // JSON profiles, minified (one line) or pretty-printed: the operator whose node object starts
  // last at or before the cursor is the one the cursor is in (nodes are consecutive objects).
  if (doc.lint.parse.traits.operator_at_node_start) {
    Position best_start{};
    const auto& ps = doc.lint.parse.plans;
    for (std::size_t p = 0; p < ps.size(); ++p)
      for (const auto& op : ps[p].ops) {
        if (!op.loc.known()) continue;
        Position st = doc.lines.to_range(op.loc).start;
        if (pos < st) continue;
        if (!best || best_start < st) {
          best = OperatorRef{p, op.index};
          best_start = st;
        }
      }
    if (best) return best;
  }
  // Rank: exact containment beats "same line", then the smallest range wins.
  std::tuple<int, std::uint64_t, std::uint64_t> best_rank{};
  const auto& plans = doc.lint.parse.plans;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    for (const auto& op : plans[p].ops) {
      for (const SourceRange* sr : {&op.loc, &op.detail_loc}) {
        if (!sr->known()) continue;
        Range r = doc.lines.to_range(*sr);
        bool exact = contains(r, pos);
        bool same_line = !exact && r.start.line == pos.line && r.end.line <= pos.line + 1;
        if (!exact && !same_line) continue;
        std::tuple<int, std::uint64_t, std::uint64_t> rank{
            exact ? 0 : 1, std::uint64_t{r.end.line} - r.start.line,
            r.end.line == r.start.line ? std::uint64_t{r.end.character} - r.start.character : 0};
        if (!best || rank < best_rank) {
          best = OperatorRef{p, op.index};
          best_rank = rank;
        }
      }
    }
  }
  return best;
}

json hover_json(const DocumentView& doc, Position pos) {
  auto ref = operator_at(doc, pos);
  if (!ref || ref->op >= doc.lint.parse.plans[ref->plan].ops.size()) return nullptr;
  const Operator& op = doc.lint.parse.plans[ref->plan].ops[ref->op];
  // The range of the hovered occurrence (outline line or detail header).
  Range range = doc.lines.to_range(op_range(op));
  if (op.detail_loc.known()) {
    Range detail = doc.lines.to_range(op.detail_loc);
    if (detail.start.line == pos.line) range = detail;
  }
  return {{"contents", {{"kind", "markdown"}, {"value", operator_hover(doc, *ref)}}}, {"range", to_json(range)}};
}

json document_symbols_json(const DocumentView& doc) {
  constexpr std::size_t kMaxDepth = 128;  // deeper operators are listed as siblings at this depth
  struct Node {
    std::size_t op = 0;
    std::size_t depth = 0;
    std::size_t parent = SIZE_MAX;  // node index; SIZE_MAX for top-level symbols
    std::vector<std::size_t> kids;  // node indices
  };
  json out = json::array();
  const auto& plans = doc.lint.parse.plans;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    const Plan& plan = plans[p];
    std::vector<Node> nodes;
    std::vector<std::size_t> top;  // node indices of the top-level symbols
    std::vector<bool> seen(plan.ops.size(), false);
    // Depth-first, preorder: a node is created before its children, so building the JSON in
    // reverse creation order sees every child before its parent (no recursion).
    auto grow = [&](std::size_t root) {
      if (root >= plan.ops.size() || seen[root]) return;
      seen[root] = true;
      nodes.push_back({root, 0, SIZE_MAX, {}});
      top.push_back(nodes.size() - 1);
      std::vector<std::size_t> stack{nodes.size() - 1};
      while (!stack.empty()) {
        std::size_t n = stack.back();
        stack.pop_back();
        // Below the depth limit children become siblings, so the tree stays shallow.
        std::size_t attach = nodes[n].depth >= kMaxDepth ? nodes[n].parent : n;
        std::vector<std::size_t> created;
        for (std::size_t c : plan.ops[nodes[n].op].children) {
          if (c >= plan.ops.size() || seen[c]) continue;
          seen[c] = true;
          nodes.push_back({c, nodes[attach].depth + 1, attach, {}});
          created.push_back(nodes.size() - 1);
        }
        for (std::size_t id : created) nodes[attach].kids.push_back(id);
        for (auto it = created.rbegin(); it != created.rend(); ++it) stack.push_back(*it);
      }
    };
    for (std::size_t r : plan.roots) grow(r);
    for (std::size_t r : plan.logical_roots) grow(r);
    for (const auto& sq : plan.subqueries)
      if (sq.root) grow(*sq.root);
    for (const auto& op : plan.ops)
      if (op.parents.empty()) grow(op.index);
    for (const auto& op : plan.ops) grow(op.index);  // cycles and leftovers

    std::vector<json> built(nodes.size());
    std::vector<Range> extent(nodes.size());
    for (std::size_t i = nodes.size(); i-- > 0;) {
      const Operator& op = plan.ops[nodes[i].op];
      Range own = doc.lines.to_range(op_range(op));
      if (!op_range(op).known()) own = doc.lines.to_range(plan.loc);
      Range full = own;
      json children = json::array();
      for (std::size_t k : nodes[i].kids) {
        full.start = std::min(full.start, extent[k].start);
        full.end = std::max(full.end, extent[k].end);
        children.push_back(std::move(built[k]));
      }
      extent[i] = full;
      std::string name(op.name.empty() ? (op.label.empty() ? Text("operator") : op.label) : op.name);
      if (!op.id.empty()) name += " (" + op.id + ")";
      std::string detail(to_string(op.kind));
      if (op.rows()) detail += " · " + format_count(*op.rows()) + " rows";
      if (op.duration_ms()) detail += " · " + format_millis(*op.duration_ms());
      json sym = {{"name", truncate(one_line(name), 120)},
                  {"detail", detail},
                  {"kind", symbol_kind(op.kind)},
                  {"range", to_json(full)},
                  {"selectionRange", to_json(own)}};
      if (!children.empty()) sym["children"] = std::move(children);
      built[i] = std::move(sym);
    }
    json plan_children = json::array();
    Range plan_range = doc.lines.to_range(plan.loc);
    bool first = !plan.loc.known();
    for (std::size_t t : top) {
      if (first) {
        plan_range = extent[t];
        first = false;
      }
      plan_range.start = std::min(plan_range.start, extent[t].start);
      plan_range.end = std::max(plan_range.end, extent[t].end);
      plan_children.push_back(std::move(built[t]));
    }
    if (plans.size() == 1) return plan_children;
    json sym = {{"name", plan.name.empty() ? "plan " + std::to_string(p + 1) : plan.name},
                {"detail", std::string(to_string(plan.format))},
                {"kind", 2},
                {"range", to_json(plan_range)},
                {"selectionRange", to_json(Range{plan_range.start, plan_range.start})}};
    if (!plan_children.empty()) sym["children"] = std::move(plan_children);
    out.push_back(std::move(sym));
  }
  return out;
}

std::string suppression_directive(std::string_view rule, std::string_view operator_id) {
  std::string s = "# planlint: disable=" + std::string(rule);
  if (!operator_id.empty()) s += " operator=" + std::string(operator_id);
  return s;
}

namespace {

bool names_rule(const Suppression& s, const Diagnostic& d) {
  for (const auto& e : s.rules)
    if (e.rule == d.rule || (!d.code.empty() && e.rule == d.code)) return true;
  return false;
}

// A directive in the text already covers `d` (the document changed since it was linted).
bool already_suppressed(const std::vector<Suppression>& found, const Diagnostic& d) {
  for (const auto& s : found) {
    if (!names_rule(s, d)) continue;
    if (s.operator_ids.empty()) return true;
    if (std::find(s.operator_ids.begin(), s.operator_ids.end(), d.operator_id) != s.operator_ids.end()) return true;
  }
  return false;
}

}  // namespace

json code_actions_json(const DocumentView& doc, Range range) {
  json out = json::array();
  bool is_json = doc.lint.parse.traits.json;
  std::vector<Suppression> directives = find_suppressions(doc.text);
  std::vector<std::string> offered;
  // JSON: the findings of the operator the cursor is in, wherever in its node object it is.
  std::optional<OperatorRef> at = is_json ? operator_at(doc, range.start) : std::nullopt;
  for (const auto& d : doc.lint.diagnostics) {
    Range r = diagnostic_range(doc, d);
    bool here = at && d.op && d.plan_index == at->plan && *d.op == at->op;
    if (!overlaps(r, range) && !here) continue;
    if (d.rule.empty()) continue;  // a notice from the server, not a finding
    json diag = rule_diagnostic_json(doc, d);
    if (d.rule == kUnusedSuppressionRule) {
      // The directive suppresses nothing: offer to delete its line when it names only this rule.
      for (const auto& s : directives) {
        if (s.loc.line != d.range.line || s.rules.size() != 1) continue;
        Range line{{s.loc.line - 1, 0}, {s.loc.line, 0}};
        json edit = {{"range", to_json(line)}, {"newText", ""}};
        out.push_back({{"title", "Remove the unused planlint directive"},
                       {"kind", "quickfix"},
                       {"isPreferred", true},
                       {"diagnostics", json::array({diag})},
                       {"edit", {{"changes", {{doc.uri, json::array({edit})}}}}}});
      }
      continue;
    }
    std::string directive = suppression_directive(d.rule, d.operator_id);
    // JSON inputs have no comments: a directive would break the file; use the config there.
    if (!is_json && !already_suppressed(directives, d) &&
        std::find(offered.begin(), offered.end(), directive) == offered.end()) {
      offered.push_back(directive);
      std::string title = "Suppress " + d.rule + (d.operator_id.empty() ? "" : " on operator " + d.operator_id);
      json edit = {{"range", to_json(Range{})}, {"newText", directive + "\n"}};
      out.push_back({{"title", title},
                     {"kind", "quickfix"},
                     {"diagnostics", json::array({diag})},
                     {"edit", {{"changes", {{doc.uri, json::array({edit})}}}}}});
    }
    if (!d.fix.empty()) {
      json args = {{"rule", d.rule}, {"operator", d.operator_id}, {"fix", d.fix}};
      if (const RuleDoc* rd = find_rule_doc(d.rule); rd && !rd->use_instead.empty()) args["useInstead"] = rd->use_instead;
      std::string title = "Show fix for " + d.rule + ": " + truncate(one_line(d.fix), 80);
      out.push_back({{"title", title},
                     {"kind", "quickfix"},
                     {"isPreferred", true},
                     {"diagnostics", json::array({diag})},
                     {"command", {{"title", title}, {"command", kShowFixCommand}, {"arguments", json::array({args})}}}});
    }
  }
  return out;
}

}  // namespace planlint::lsp
