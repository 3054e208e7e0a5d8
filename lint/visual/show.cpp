#include "lint/visual/show.hpp"

#include "lint/core/executions.hpp"
#include "lint/core/report.hpp"
#include "lint/core/sanitize.hpp"
#include "lint/core/text_width.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "model/op_time.hpp"
#include "lint/core/plan_tree.hpp"

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

// Cut to `width` display columns (wide characters take two), marking the cut with "…".
std::string fit(const std::string& s, std::size_t width) { return fit_columns(s, width); }

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string percent(double share) {
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", share * 100);
  return b;
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
  if (op.engine == Engine::Gpu) return "G ";
  return "J ";
}

std::string details(const Operator& op) {
  std::string s;
  if (op.kind == OpKind::Join) {
    s += op.join->type_text.empty() ? std::string(to_string(op.join->type)) : op.join->type_text.str();
    if (op.join->build != BuildSide::None) s += " " + std::string(to_string(op.join->build));
    if (op.join->skew) s += " skew";
  }
  if (!op.table().empty() && op.name.find(op.table()) == std::string::npos) s += (s.empty() ? "" : " ") + op.table();
  if (op.stats()->size_bytes) s += (s.empty() ? "" : " ") + std::string("est. ") + format_bytes(*op.stats()->size_bytes);
  return s;
}

// Whether the plan mixes engines: native (Photon, Velox, ...) operators and JVM operators that
// do work (then each operator is marked P or J).
bool mixes_engines(const Plan& p) {
  bool any_photon = false, any_spark_work = false;
  for (const auto& op : p.ops) {
    if (op.engine != Engine::Spark) any_photon = true;
    else if (op.kind != OpKind::Transition && op.kind != OpKind::AdaptivePlan) any_spark_work = true;
  }
  return any_photon && any_spark_work;
}

// One summary line per graph: its name, format, size and AQE state, then the query's times and how
// many operators have findings. The facts are never cut: when the line would not fit, they go on
// a line of their own.
std::string summary_line(const Plan& p, std::size_t pi, const PlanTimes& times, std::size_t ops_with_findings, bool mixed,
                         std::size_t width) {
  const double total = times.total_ms;
  std::string head = p.name.empty() ? "plan " + std::to_string(pi + 1) : visible(p.name);
  head += "  (" + std::string(to_string(p.format)) + ", " + plural(p.ops.size(), "operator", "operators");
  if (p.adaptive) head += p.is_final_plan.value_or(false) ? ", AQE final plan" : ", AQE";
  head += ")";
  std::string facts;
  // Failed jobs first: the times after them count only the tasks that succeeded.
  if (const auto failed = p.failed_jobs(); !failed.empty()) {
    std::vector<std::string> ids;
    for (const JobInfo* j : failed) ids.push_back(j->id);
    std::string f = failed_text(ids);  // "failed (job 32): "
    facts += f.substr(0, f.size() - 2) + "; ";
  }
  if (auto t = p.query.metric_value("totalTimeMs")) facts += "total time " + format_millis(*t) + "; ";
  // Task time (all tasks of the query), what the operators' exclusive times explain of it, and
  // what they leave unexplained (deserialisation, scheduling, untimed operators).
  const auto task = p.query.metric_value(Metric::TaskTotalTime);
  if (task && *task > 0)
    facts += "task time " + format_millis(*task) + (p.task_times_partial() ? " (of the tasks that succeeded)" : "") + "; ";
  if (total > 0) {
    facts += "operator time " + format_millis(total);
    if (task && *task > 0) {
      facts += " (" + format_percent(std::min(1.0, total / *task)) + " of task time)";
      if (*task > total) facts += "; unattributed " + format_millis(*task - total);
    }
    facts += "; ";
  }
  facts += plural(ops_with_findings, "operator", "operators") + " with findings";
  if (mixed) {
    const bool any_gpu = std::any_of(p.ops.begin(), p.ops.end(), [](const Operator& op) { return op.engine == Engine::Gpu; });
    facts += any_gpu ? "; G = GPU (RAPIDS), J = JVM" : "; P = Photon, J = JVM";
  }
  std::string line = head + ": " + facts;
  if (fit(line, width) == line) return line + '\n';
  return fit(head + ":", width) + "\n  " + facts + '\n';
}

// Top operators (like pev2's stats grid): by exclusive time, then rows, spill, shuffle bytes.
std::string top_operator_lines(const Plan& p, const PlanTimes& times, bool mixed, const ShowOptions& o) {
  const char* reset = o.color ? "\x1b[0m" : "";
  const char* dim = o.color ? "\x1b[2m" : "";
  const double total = times.total_ms;
  std::string out;
  auto name_of = [&](const Operator& op) {
    std::string l = engine_mark(op, mixed) + (op.name.empty() ? op.label : op.name);
    if (!op.id.empty()) l += " (" + op.id + ")";
    return l;
  };
  if (total > 0) {
    out += std::string(dim) + "top operators by time (exclusive; docs/profile.md):" + reset + '\n';
    for (const TopRow& r : top_operators(p, times, TopBy::Time, o.top)) {
      double share = r.value / total;
      std::string line = pad_left(percent(share), 7) + " " + pad_left(format_millis(r.value), 12) + "  " +
                         name_of(p.ops[r.op]) + "  [" + times.ops[r.op].basis + "]";
      line = fit(line, o.width);
      if (o.color && *band(share)) line = std::string(band(share)) + line + reset;
      out += line + '\n';
    }
  }
  struct Extra {
    TopBy by;
    const char* title;
    bool bytes;
  };
  for (const Extra& e : {Extra{TopBy::Rows, "rows", false}, Extra{TopBy::Spill, "spill", true},
                         Extra{TopBy::Shuffle, "shuffle bytes written", true}}) {
    auto rows = top_operators(p, times, e.by, std::min<std::size_t>(o.top, 3));
    if (rows.empty() || (e.by == TopBy::Rows && total <= 0)) continue;
    out += std::string(dim) + "top by " + e.title + ":" + reset + '\n';
    for (const TopRow& r : rows)
      out += fit(pad_left(e.bytes ? format_bytes(r.value) : compact(r.value), 20) + "  " + name_of(p.ops[r.op]),
                 o.width) + '\n';
  }
  return out;
}

// The share, rows and time columns of one row of the tree (`share` < 0: none), in fixed widths,
// each separated by a space, so that wide values never run together.
// With `inclusive`, a fourth column holds the operator's inclusive time where it differs from the
// exclusive one (pev2's and explain.depesz.com's convention).
std::string metric_columns(const Operator& op, const OpTime& time, double share, bool inclusive) {
  const auto& self = time.self_ms;
  std::optional<double> shown_ms = self ? self : op.duration_ms();  // wrappers: their own total
  std::string cols;
  cols += pad_left(share >= 0 ? percent(share) : "", 7) + " ";
  cols += pad_left(op.rows() ? compact(*op.rows()) : "", 9) + " ";
  cols += pad_left(shown_ms ? format_millis(*shown_ms) : "", 12);
  if (inclusive) {
    const bool differs = self && time.inclusive_ms && *time.inclusive_ms - *self >= 1;
    cols += " " + pad_left(differs ? format_millis(*time.inclusive_ms) : "", 12);
  }
  cols += "  ";
  return cols;
}

// Whether any operator's inclusive time differs from its exclusive one by a second or more (then
// `show` adds the inclusive column; plans whose timers are all exclusive keep three columns).
bool shows_inclusive(const PlanTimes& t) {
  return std::any_of(t.ops.begin(), t.ops.end(), [](const OpTime& o) {
    return o.self_ms && o.inclusive_ms && *o.inclusive_ms - *o.self_ms >= 1000;
  });
}

// Display columns of a UTF-8 string (code points, as fit() counts them).
std::size_t columns(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// What must stay visible of an operator's row: its name and id (the codegen mark before them).
std::string name_and_id(const Operator& op) {
  std::string label = (op.codegen ? "* " : "") + visible(op.name.empty() ? op.label : op.name);
  if (!op.id.empty()) label += " (" + visible(op.id) + ")";
  return label;
}

// The tree's rows, folded when a row would not show its operator's name and id within the width
// (deep left-deep join chains): subtrees below the depth that still fits are drawn again from the
// left margin, under a heading, with a reference row where they hang. Plans that fit are drawn as
// they are.
std::vector<TreeRow> fitted_tree_rows(const Plan& p, std::size_t cols, std::size_t mark, std::size_t width) {
  std::vector<TreeRow> rows = plan_tree_rows(p);
  std::size_t longest = 0;
  bool cut = false;
  for (const TreeRow& row : rows) {
    if (!row.heading.empty()) continue;
    const std::size_t need = columns(name_and_id(p.ops[row.op]));
    longest = std::max(longest, need);
    if (cols + columns(row.guide) + mark + need > width) cut = true;
  }
  if (!cut) return rows;
  // Rows down to fold_depth + 1 (reference rows there: "↪ " before the name) must fit: the longest
  // name and id, as long as two levels of guide still fit beside it.
  const std::size_t room_for_label = width > cols + mark + 6 ? width - cols - mark - 6 : 0;
  const std::size_t label = std::min(longest + 2, room_for_label);
  const std::size_t room = width > cols + mark + label ? width - cols - mark - label : 0;
  const std::size_t fold_depth = std::max<std::size_t>(2, room / 3) - 1;
  return plan_tree_rows(p, fold_depth);
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
    const PlanTimes times = operator_times(p);
    const double total = times.total_ms;
    const bool mixed = mixes_engines(p);
    const bool metrics = total > 0 || std::any_of(p.ops.begin(), p.ops.end(), [](const Operator& op) { return op.rows().has_value(); });

    if (pi) out += '\n';
    out += summary_line(p, pi, times, by_op.size(), mixed, o.width);
    out += top_operator_lines(p, times, mixed, o);
    const bool inclusive = metrics && shows_inclusive(times);
    if (metrics)
      out += std::string(dim) + "  share      rows         time" + (inclusive ? "    inclusive" : "") + "  operator" + reset + '\n';

    const std::size_t cols_width = metrics ? metric_columns(Operator{}, OpTime{}, -1, inclusive).size() : 0;
    for (const TreeRow& row : fitted_tree_rows(p, cols_width, mixed ? 2 : 0, o.width)) {
      if (!row.heading.empty()) {
        out += std::string(dim) + fit("-- " + visible(row.heading) + " --", o.width) + reset + '\n';
        continue;
      }
      const Operator& op = p.ops[row.op];
      if (row.continued) {  // a folded subtree: drawn below under its heading
        out += fit(std::string(cols_width, ' ') + row.guide + engine_mark(op, mixed) + "↪ " + name_and_id(op) +
                       "  (continued below)",
                   o.width) +
               '\n';
        continue;
      }
      std::string cols;
      const char* colour = "";
      if (metrics) {
        double share = times.share(row.op).value_or(-1);
        cols = metric_columns(op, times.ops[row.op], share, inclusive);
        if (o.color && share >= 0) colour = band(share);
      }
      std::string label = (op.codegen ? "* " : "") + visible(op.name.empty() ? op.label : op.name);
      if (!op.id.empty()) label += " (" + visible(op.id) + ")";
      std::string det = visible(details(op));
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
          std::string msg = indent + "! " + std::string(to_string(d->severity)) + "[" + rule_label(*d) + "] " + visible(d->message);
          out += sc + fit(msg, o.width) + reset + '\n';
        }
      }
    }
    for (const auto* d : plan_level)
      out += fit("! " + std::string(to_string(d->severity)) + "[" + rule_label(*d) + "] " + visible(d->message), o.width) + '\n';
  }
  for (const auto& m : result.parse.messages)
    if (m.severity == MessageSeverity::Error)
      out += fit(visible(result.parse.path) + ":" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) +
                     ": error: " + visible(m.message),
                 o.width) +
             '\n';
  return no_workflow_commands(out);  // no line a CI log could read as a workflow command
}

namespace {
std::string dot_escape(const std::string& text) {
  std::string out;
  const std::string s = visible(text, true);  // escape sequences shown as \x1b, line breaks kept
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
    const PlanTimes times = operator_times(p);
    out += "  subgraph cluster_" + std::to_string(pi) + " {\n    label=\"" + dot_escape(p.name) + "\";\n";
    for (const auto& op : p.ops) {
      std::string label((op.name.empty() ? op.label : op.name).view());
      if (!op.id.empty()) label += " (" + op.id + ")";
      if (op.engine == Engine::Photon) label += " [Photon]";
      const auto& self = times.ops[op.index].self_ms;
      if (self) label += "\ntime: " + format_millis(*self);
      else if (op.duration_ms()) label += "\ntime (stage): " + format_millis(*op.duration_ms());
      auto share = times.share(op.index);
      if (share) label += " (" + percent(*share) + ")";
      if (op.stats()->size_bytes) label += "\nest. " + format_bytes(*op.stats()->size_bytes);
      std::string attrs;
      if (auto r = rules.find(op.index); r != rules.end()) {
        label += "\n" + r->second;
        attrs = ", color=red, penwidth=2";
      }
      // Fill by share of time, in the bands of `show` and the report (10 / 50 / 90 %).
      const char* fill = !share ? nullptr
                         : *share > 0.9 ? "#d73027"
                         : *share > 0.5 ? "#fc8d59"
                         : *share > 0.1 ? "#fee08b"
                                        : nullptr;
      if (fill) attrs += std::string(", style=filled, fillcolor=\"") + fill + "\"";
      else if (op.engine == Engine::Photon) attrs += ", style=filled, fillcolor=\"#e8f0fe\"";
      out += "    p" + std::to_string(pi) + "_" + std::to_string(op.index) + " [label=\"" + dot_escape(label) + "\"" + attrs + "];\n";
    }
    for (const auto& op : p.ops) {
      for (std::size_t c : op.children) {
        // The rows flowing along the edge: the producer's output rows.
        std::string edge = c < p.ops.size() && p.ops[c].rows() ? " [label=\"" + format_count(*p.ops[c].rows()) + " rows\"]" : "";
        out += "    p" + std::to_string(pi) + "_" + std::to_string(c) + " -> p" + std::to_string(pi) + "_" +
               std::to_string(op.index) + edge + ";\n";
      }
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
