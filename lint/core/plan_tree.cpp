#include "lint/core/plan_tree.hpp"

#include "lint/core/sanitize.hpp"

#include <cstdio>
#include <vector>

namespace planlint {

namespace {

constexpr std::size_t kMaxIndentLevels = 60;

std::string fmt_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

struct Frame {
  std::size_t op;
  std::size_t depth;
  bool last;
};

// `fold_depth` > 0: an operator with inputs deeper than that is drawn as a reference row and its
// subtree appended to `deferred` (drawn afterwards from the left margin).
void tree_rows(const Plan& p, std::size_t root, std::vector<char>& printed, std::vector<TreeRow>& rows,
               std::size_t fold_depth = 0, std::vector<std::size_t>* deferred = nullptr) {
  std::vector<Frame> stack{{root, 0, true}};
  std::vector<bool> last_at;  // per depth: was that ancestor the last child
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    last_at.resize(f.depth + 1);
    last_at[f.depth] = f.last;
    TreeRow row;
    row.op = f.op;
    row.depth = f.depth;
    std::size_t shown = f.depth < kMaxIndentLevels ? f.depth : kMaxIndentLevels;
    for (std::size_t d = 1; d < shown; ++d) row.guide += last_at[d] ? "   " : ":  ";
    if (f.depth > 0) row.guide += f.last ? "+- " : ":- ";
    if (f.depth > kMaxIndentLevels) row.guide += "[depth " + std::to_string(f.depth) + "] ";
    const Operator& op = p.ops[f.op];
    row.repeated = printed[f.op] && !op.children.empty();
    if (fold_depth && deferred && f.depth > fold_depth && !row.repeated && !op.children.empty()) {
      row.continued = true;  // drawn below, from the left margin
      deferred->push_back(f.op);
      rows.push_back(std::move(row));
      continue;
    }
    rows.push_back(std::move(row));
    if (rows.back().repeated) continue;
    printed[f.op] = 1;
    for (std::size_t k = op.children.size(); k-- > 0;) {
      std::size_t c = op.children[k];
      if (c >= p.ops.size()) continue;
      stack.push_back({c, f.depth + 1, k + 1 == op.children.size()});
    }
  }
}

// A tree and, when it folds, the subtrees it left for later (each under its heading), in order.
void folded_tree_rows(const Plan& p, std::size_t root, std::vector<char>& printed, std::vector<TreeRow>& rows,
                      std::size_t fold_depth) {
  std::vector<std::size_t> deferred;
  tree_rows(p, root, printed, rows, fold_depth, &deferred);
  for (std::size_t next = 0; next < deferred.size(); ++next) {
    const std::size_t op = deferred[next];
    if (printed[op]) continue;  // drawn in the meantime (a shared subtree)
    const Operator& o = p.ops[op];
    TreeRow h;
    h.heading = "continued: " + std::string((o.name.empty() ? o.label : o.name).view()) + (o.id.empty() ? "" : " (" + o.id + ")");
    rows.push_back(std::move(h));
    tree_rows(p, op, printed, rows, fold_depth, &deferred);
  }
}

void heading(std::vector<TreeRow>& rows, std::string text) {
  TreeRow r;
  r.heading = std::move(text);
  rows.push_back(std::move(r));
}

}  // namespace

std::string operator_summary(const Plan& p, const Operator& op) {
  std::string s((op.name.empty() ? op.label : op.name).view());
  if (!op.id.empty()) s += " (" + op.id + ")";
  std::string facts;
  auto add = [&](std::string_view x) {
    if (x.empty()) return;
    if (!facts.empty()) facts += ' ';
    facts += x;
  };
  add(std::string(to_string(op.kind)));
  if (op.engine != Engine::Spark) add(std::string(to_string(op.engine)));
  if (op.kind == OpKind::Join || op.join->type != JoinType::None) {
    add(op.join->type_text.empty() ? std::string(to_string(op.join->type)) : op.join->type_text.str());
    add(std::string(to_string(op.join->build)));
    if (op.join->skew) add("skew");
  }
  if (!op.table().empty()) add(op.table());
  if (op.codegen_stage) add("codegen " + std::to_string(*op.codegen_stage));
  if (op.reuses && *op.reuses < p.ops.size()) {
    const Operator& t = p.ops[*op.reuses];
    add("reuses " + (t.id.empty() ? t.name.str() : t.name + " (" + t.id + ")"));
  }
  if (op.stats()->size_bytes) add("size=" + fmt_number(*op.stats()->size_bytes) + "B");
  if (op.stats()->row_count) add("rows=" + fmt_number(*op.stats()->row_count));
  if (op.rows()) add("rows=" + fmt_number(*op.rows()));
  if (op.duration_ms()) add("time=" + fmt_number(*op.duration_ms()) + "ms");
  for (const auto& h : *op.hints()) add("hint=" + h.strategy + (h.side == BuildSide::Left ? "(left)" : h.side == BuildSide::Right ? "(right)" : ""));
  if (op.section != Section::Main && op.section != Section::Profile) add(std::string(to_string(op.section)));
  return s + " [" + facts + "]";
}

std::vector<TreeRow> plan_tree_rows(const Plan& p, std::size_t fold_depth) {
  std::vector<TreeRow> rows;
  std::vector<char> printed(p.ops.size(), 0);
  for (std::size_t r : p.logical_roots) {
    if (r >= p.ops.size()) continue;
    heading(rows, std::string(to_string(p.ops[r].section)));
    folded_tree_rows(p, r, printed, rows, fold_depth);
  }
  if (!p.logical_roots.empty() && !p.roots.empty()) heading(rows, "physical");
  for (std::size_t r : p.roots)
    if (r < p.ops.size()) folded_tree_rows(p, r, printed, rows, fold_depth);
  for (const auto& s : p.subqueries) {
    std::string h = "subquery " + std::to_string(s.number);
    if (s.hosting_op && *s.hosting_op < p.ops.size()) h += " in " + operator_summary(p, p.ops[*s.hosting_op]);
    heading(rows, h + ": " + s.hosting_expression + (s.root ? "" : " (reused)"));
    if (s.root && *s.root < p.ops.size()) folded_tree_rows(p, *s.root, printed, rows, fold_depth);
  }
  // Anything not reached (optimized-out exchanges, detached parts).
  bool header = false;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    if (printed[i] || !p.ops[i].parents.empty()) continue;
    if (!header) heading(rows, "other");
    header = true;
    folded_tree_rows(p, i, printed, rows, fold_depth);
  }
  return rows;
}

std::string plan_tree_text(const Plan& p) {
  std::string out;
  out += p.name + " (" + std::string(to_string(p.format)) + ", " + std::to_string(p.ops.size()) + " operators";
  if (p.adaptive) out += p.is_final_plan.value_or(false) ? ", AQE final plan" : ", AQE";
  out += ")\n";
  for (const TreeRow& row : plan_tree_rows(p)) {
    if (!row.heading.empty()) {
      out += "-- " + row.heading + " --\n";
      continue;
    }
    out += row.guide + operator_summary(p, p.ops[row.op]) + (row.repeated ? " (shown above)" : "") + '\n';
  }
  if (p.photon.present)
    out += std::string("-- photon explanation: ") + (p.photon.fully_supported ? "fully supported" : "not fully supported") +
           (p.photon.reasons.empty() ? "" : " (" + std::to_string(p.photon.reasons.size()) + " reasons)") + '\n';
  for (const auto& t : p.trailers)
    if (t.title != "Photon Explanation") out += "-- trailer: " + t.title + '\n';
  return out;
}

std::string parse_result_tree_text(const ParseResult& r) {
  std::string out;
  for (std::size_t k = 0; k < r.plans.size(); ++k) {
    if (k) out += '\n';
    out += plan_tree_text(r.plans[k]);
  }
  return safe_output(out);  // escape sequences shown visibly, no workflow-command lines
}

}  // namespace planlint
