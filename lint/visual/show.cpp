#include "lint/visual/show.hpp"

#include <cstdio>
#include <map>

#include "lint/output/plan_tree.hpp"

namespace planlint {

bool counts_for_time(const Operator& op) {
  // Wrappers whose time includes their members' would count the same work twice.
  return op.kind != OpKind::CodegenStage && op.kind != OpKind::AdaptivePlan && op.kind != OpKind::QueryStage;
}

namespace {

std::string compact(double v) {
  char buf[32];
  if (v >= 1e9)
    std::snprintf(buf, sizeof buf, "%.1fG", v / 1e9);
  else if (v >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1fM", v / 1e6);
  else if (v >= 1e4)
    std::snprintf(buf, sizeof buf, "%.1fK", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Cut to `width` display columns (UTF-8 aware), marking the cut with "…".
std::string fit(const std::string& s, std::size_t width) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (++cols > width) {
      std::size_t cut = i;
      // step back one column for the ellipsis
      do --cut;
      while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80);
      return s.substr(0, cut) + "…";
    }
  }
  return s;
}

std::string pad_left(const std::string& s, std::size_t n) { return s.size() >= n ? s : std::string(n - s.size(), ' ') + s; }

const char* band(double share) {
  if (share > 0.9) return "\x1b[1;97;41m";  // bold white on red
  if (share > 0.5) return "\x1b[1;31m";     // bold red
  if (share > 0.1) return "\x1b[33m";       // yellow
  return "";
}

std::string engine_mark(const Operator& op, bool mixed) {
  if (!mixed) return "";
  if (op.engine == Engine::Photon) return "P ";
  if (op.engine == Engine::Gluten) return "V ";
  return "J ";
}

std::string details(const Operator& op) {
  std::string s;
  if (op.kind == OpKind::Join) {
    s += op.join.type_text.empty() ? std::string(to_string(op.join.type)) : op.join.type_text;
    if (op.join.build != BuildSide::None) s += " " + std::string(to_string(op.join.build));
    if (op.join.skew) s += " skew";
  }
  if (!op.table.empty() && op.name.find(op.table) == std::string::npos) s += (s.empty() ? "" : " ") + op.table;
  if (op.stats.size_bytes) s += (s.empty() ? "" : " ") + std::string("est. ") + format_bytes(*op.stats.size_bytes);
  return s;
}

}  // namespace

std::string show_text(const LintResult& result, const ShowOptions& o) {
  const char* reset = o.color ? "\x1b[0m" : "";
  const char* dim = o.color ? "\x1b[2m" : "";
  std::string out;
  for (std::size_t pi = 0; pi < result.parse.plans.size(); ++pi) {
    const Plan& p = result.parse.plans[pi];
    std::map<std::size_t, std::vector<const Diagnostic*>> by_op;
    std::vector<const Diagnostic*> plan_level;
    for (const auto& d : result.diagnostics) {
      if (d.plan_index != pi) continue;
      if (d.op) by_op[*d.op].push_back(&d);
      else plan_level.push_back(&d);
    }
    double total = 0;
    bool any_rows = false, mixed = false, any_photon = false, any_spark_work = false;
    for (const auto& op : p.ops) {
      if (op.duration_ms && counts_for_time(op)) total += *op.duration_ms;
      any_rows = any_rows || op.rows.has_value();
      if (op.engine != Engine::Spark) any_photon = true;
      else if (op.kind != OpKind::Transition && op.kind != OpKind::AdaptivePlan) any_spark_work = true;
    }
    mixed = any_photon && any_spark_work;
    bool metrics = total > 0 || any_rows;

    if (pi) out += '\n';
    std::string head = p.name.empty() ? "plan " + std::to_string(pi + 1) : p.name;
    head += "  (" + std::string(to_string(p.format)) + ", " + std::to_string(p.ops.size()) + " operators";
    if (p.adaptive) head += p.is_final_plan.value_or(false) ? ", AQE final plan" : ", AQE";
    head += ")";
    out += fit(head, o.width) + '\n';
    if (auto t = p.query.metric_value("totalTimeMs")) out += "total time " + format_millis(*t) + "; ";
    if (total > 0) out += "operator time " + format_millis(total) + "; ";
    out += std::to_string(by_op.size()) + " operators with findings";
    if (mixed) out += "; P = Photon, J = JVM";
    out += '\n';
    if (metrics) out += std::string(dim) + " share     rows       time  operator" + reset + '\n';

    for (const TreeRow& row : plan_tree_rows(p)) {
      if (!row.heading.empty()) {
        out += std::string(dim) + fit("-- " + row.heading + " --", o.width) + reset + '\n';
        continue;
      }
      const Operator& op = p.ops[row.op];
      std::string cols;
      const char* colour = "";
      if (metrics) {
        double share = (total > 0 && op.duration_ms && counts_for_time(op)) ? *op.duration_ms / total : -1;
        cols += pad_left(share >= 0 ? [&] {
          char b[16];
          std::snprintf(b, sizeof b, "%.1f%%", share * 100);
          return std::string(b);
        }() : "", 6);
        cols += pad_left(op.rows ? compact(*op.rows) : "", 9);
        cols += pad_left(op.duration_ms ? format_millis(*op.duration_ms) : "", 11);
        cols += "  ";
        if (o.color && share >= 0) colour = band(share);
      }
      std::string label = (op.codegen ? "* " : "") + (op.name.empty() ? op.label : op.name);
      if (!op.id.empty()) label += " (" + op.id + ")";
      std::string det = details(op);
      if (!det.empty()) label += "  " + det;
      if (row.repeated) label += "  (shown above)";
      auto found = by_op.find(row.op);
      if (found != by_op.end()) {
        std::string names;
        for (const auto* d : found->second) names += (names.empty() ? "" : ", ") + d->rule;
        label += "  ◀ " + names;
      }
      std::string line = fit(cols + row.guide + engine_mark(op, mixed) + label, o.width);
      if (*colour) {
        // Colour the numbers and the operator, not the tree guides.
        out += std::string(colour) + line.substr(0, cols.size()) + reset + line.substr(cols.size());
      } else {
        out += line;
      }
      out += '\n';
      if (found != by_op.end() && !row.repeated) {
        std::string indent(cols.size() + row.guide.size() + 3, ' ');
        if (indent.size() > o.width / 2) indent.resize(o.width / 2);
        for (const auto* d : found->second) {
          const char* sc = !o.color ? "" : d->severity == Severity::Error ? "\x1b[31m" : d->severity == Severity::Warning ? "\x1b[33m" : "\x1b[36m";
          std::string msg = indent + "! " + std::string(to_string(d->severity)) + "[" + d->rule + "] " + d->message;
          out += sc + fit(msg, o.width) + reset + '\n';
        }
      }
    }
    for (const auto* d : plan_level)
      out += fit("! " + std::string(to_string(d->severity)) + "[" + d->rule + "] " + d->message, o.width) + '\n';
  }
  for (const auto& m : result.parse.messages)
    if (m.severity == MessageSeverity::Error)
      out += fit(result.parse.path + ":" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) +
                     ": error: " + m.message,
                 o.width) +
             '\n';
  return out;
}

namespace {
std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}
}  // namespace

std::string show_dot(const LintResult& result) {
  std::string out = "digraph planlint {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  for (std::size_t pi = 0; pi < result.parse.plans.size(); ++pi) {
    const Plan& p = result.parse.plans[pi];
    std::map<std::size_t, std::string> rules;
    for (const auto& d : result.diagnostics)
      if (d.plan_index == pi && d.op) rules[*d.op] += (rules[*d.op].empty() ? "" : ", ") + d.rule;
    out += "  subgraph cluster_" + std::to_string(pi) + " {\n    label=\"" + dot_escape(p.name) + "\";\n";
    for (const auto& op : p.ops) {
      std::string label = op.name.empty() ? op.label : op.name;
      if (!op.id.empty()) label += " (" + op.id + ")";
      if (op.rows) label += "\nrows: " + format_count(*op.rows);
      if (op.duration_ms) label += "\ntime: " + format_millis(*op.duration_ms);
      std::string attrs;
      if (auto r = rules.find(op.index); r != rules.end()) {
        label += "\n" + r->second;
        attrs = ", color=red, penwidth=2";
      }
      if (op.engine == Engine::Photon) attrs += ", style=filled, fillcolor=\"#e8f0fe\"";
      out += "    p" + std::to_string(pi) + "_" + std::to_string(op.index) + " [label=\"" + dot_escape(label) + "\"" + attrs + "];\n";
    }
    for (const auto& op : p.ops) {
      for (std::size_t c : op.children)
        out += "    p" + std::to_string(pi) + "_" + std::to_string(c) + " -> p" + std::to_string(pi) + "_" + std::to_string(op.index) + ";\n";
      if (op.reuses)
        out += "    p" + std::to_string(pi) + "_" + std::to_string(*op.reuses) + " -> p" + std::to_string(pi) + "_" +
               std::to_string(op.index) + " [style=dashed, label=\"reused\"];\n";
    }
    out += "  }\n";
  }
  out += "}\n";
  return out;
}

}  // namespace planlint
