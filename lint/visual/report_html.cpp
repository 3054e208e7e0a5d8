#include "lint/visual/report_html.hpp"

#include <map>
#include <set>

#include "model/op_time.hpp"
#include "lint/visual/report_template.hpp"
#include "lint/visual/show.hpp"
#include "lint/engine/summary.hpp"

namespace planlint {

namespace {

using nlohmann::json;

std::string metric_text(const Metric& m) {
  if (!m.value) return "";
  switch (m.unit) {
    case MetricUnit::Bytes: return format_bytes(*m.value);
    case MetricUnit::Millis: return format_millis(*m.value);
    case MetricUnit::Count: break;
  }
  return format_count(*m.value);
}

json op_json(const Operator& op, const PlanTimes& times) {
  json o;
  o["id"] = op.id;
  o["name"] = op.name.empty() ? op.label : op.name;
  if (!op.label.empty() && op.label != op.name) o["label"] = op.label;
  o["kind"] = std::string(to_string(op.kind));
  o["engine"] = std::string(to_string(op.engine));
  o["section"] = std::string(to_string(op.section));
  if (op.codegen) o["codegen"] = true;
  if (!op.table().empty()) o["table"] = op.table();
  o["children"] = op.children;
  if (op.reuses) o["reuses"] = *op.reuses;
  if (op.rows()) {
    o["rows"] = format_count(*op.rows());
    o["nrows"] = *op.rows();
  }
  // Exclusive time (model/op_time.hpp); a wrapper's own duration is shown as its stage time.
  const OpTime& t = times.ops[op.index];
  if (t.self_ms) {
    o["time"] = format_millis(*t.self_ms);
    o["ms"] = *t.self_ms;
    o["basis"] = t.basis;
    if (t.inclusive_ms && *t.inclusive_ms - *t.self_ms >= 1) {
      o["inclusive"] = format_millis(*t.inclusive_ms);
      o["inclusive_ms"] = *t.inclusive_ms;
    }
  } else if (op.duration_ms()) {
    o["stage_time"] = format_millis(*op.duration_ms());
  }
  if (op.extra()->peak_memory_bytes) o["memory"] = format_bytes(*op.extra()->peak_memory_bytes);
  if (auto share = times.share(op.index)) o["share"] = *share;
  if (op.stats()->size_bytes) o["estimate"] = format_bytes(*op.stats()->size_bytes);
  json fields = json::array();
  for (const auto& f : op.fields) fields.push_back({f.key, f.value});
  if (!op.arguments.empty() && op.fields.empty()) fields.push_back({"Arguments", op.arguments});
  o["fields"] = std::move(fields);
  json metrics = json::array();
  for (const auto& m : op.metrics())
    if (!m.hidden) metrics.push_back({m.label, metric_text(m)});
  o["metrics"] = std::move(metrics);
  if (op.loc.line) o["line"] = op.loc.line;
  return o;
}

// The stage view (runtime inputs): per stage its tasks, their total time, the median and the
// longest task and the histogram of task times, and whether it failed; stages in id order. The
// query block names the jobs that failed.
json stages_json(const Plan& p) {
  json stages = json::array();
  for (const StageInfo& st : p.stages) {
    json s;
    s["id"] = st.id;
    // A stage that failed or never completed: its task figures count only the tasks that succeeded.
    if (st.partial()) s["status"] = st.status == StageStatus::Failed ? "failed" : "did not complete";
    if (st.num_tasks) s["tasks"] = *st.num_tasks;
    if (st.task_ms_total) {
      s["total"] = format_millis(*st.task_ms_total);
      s["ntotal"] = *st.task_ms_total;
    }
    if (st.task_ms_median) s["median"] = format_millis(*st.task_ms_median);
    if (st.task_ms_max) {
      s["max"] = format_millis(*st.task_ms_max);
      s["nmax"] = *st.task_ms_max;
    }
    if (st.task_ms_median && st.task_ms_max && *st.task_ms_median > 0) s["skew"] = *st.task_ms_max / *st.task_ms_median;
    if (st.duration_ms) s["duration"] = format_millis(*st.duration_ms);
    if (!st.task_ms_histogram.empty()) s["hist"] = st.task_ms_histogram;
    s["ops"] = st.operators;
    stages.push_back(std::move(s));
  }
  return stages;
}

// The query's own metrics (wall-clock, task time, bytes read, ...) and its SQL text.
json query_json(const Plan& p) {
  json q = json::object();
  json metrics = json::array();
  for (const auto& m : p.query.metrics)
    if (!m.hidden && m.value) metrics.push_back({m.label, metric_text(m)});
  if (!metrics.empty()) q["metrics"] = std::move(metrics);
  if (!p.query.sql_text.empty()) q["sql"] = p.query.sql_text;
  if (!p.query.description.empty()) q["description"] = p.query.description;
  if (!p.query.statement_id.empty()) q["id"] = p.query.statement_id;
  for (const JobInfo* j : p.failed_jobs())
    q["failed_jobs"].push_back(json{{"id", j->id}, {"failure", j->failure}});
  return q;
}

json executions_json(const ExecutionList& list) {
  json rows = json::array();
  for (const auto& r : list.rows) {
    json e;
    e["id"] = r.id;
    e["description"] = r.description;
    if (r.duration_ms) e["duration"] = format_millis(*r.duration_ms);
    if (r.task_ms) e["task"] = format_millis(*r.task_ms);
    e["findings"] = r.findings;
    if (!r.trivial.empty()) e["trivial"] = r.trivial;
    if (!r.failed_jobs.empty()) e["failed"] = failed_text(r.failed_jobs);
    rows.push_back(std::move(e));
  }
  return rows;
}

}  // namespace

json report_data(const std::vector<LintResult>& results, const std::vector<ExecutionList>& executions) {
  json files = json::array();
  std::set<std::string> fired;
  for (std::size_t ri = 0; ri < results.size(); ++ri) {
    const LintResult& r = results[ri];
    json file;
    if (ri < executions.size() && executions[ri].folds()) file["executions"] = executions_json(executions[ri]);
    file["path"] = r.parse.path;
    file["format"] = std::string(to_string(r.parse.format));
    json messages = json::array();
    for (const auto& m : r.parse.messages) {
      const char* sev = m.severity == MessageSeverity::Error ? "error" : m.severity == MessageSeverity::Warning ? "warning" : "note";
      messages.push_back({{"line", m.loc.line}, {"column", m.loc.column}, {"severity", sev}, {"message", m.message}});
    }
    file["messages"] = std::move(messages);
    auto summaries = summarize(r);
    json plans = json::array();
    for (std::size_t pi = 0; pi < r.parse.plans.size(); ++pi) {
      const Plan& p = r.parse.plans[pi];
      const PlanTimes times = operator_times(p);
      const double total = times.total_ms;
      bool photon = false, jvm = false;
      for (const auto& op : p.ops) {
        if (op.engine != Engine::Spark) photon = true;
        else if (op.kind != OpKind::Transition && op.kind != OpKind::AdaptivePlan) jvm = true;
      }
      json plan;
      plan["name"] = p.name.empty() ? "plan " + std::to_string(pi + 1) : p.name;
      plan["format"] = std::string(to_string(p.format));
      if (total > 0) plan["operator_time"] = format_millis(total);
      plan["mixed"] = photon && jvm;
      plan["adaptive"] = p.adaptive;
      if (pi < summaries.size()) {
        plan["summary"] = summaries[pi].line;
        plan["phase"] = summaries[pi].phase;
        plan["verdict"] = summaries[pi].verdict;
      }
      std::vector<std::size_t> roots = p.roots;
      roots.insert(roots.end(), p.logical_roots.begin(), p.logical_roots.end());
      plan["roots"] = roots;
      json ops = json::array();
      for (const auto& op : p.ops) ops.push_back(op_json(op, times));
      // The top-operators table: by time, with rows, spill and shuffle bytes as further columns.
      for (const TopRow& r : top_operators(p, times, TopBy::Spill, p.ops.size())) {
        ops[r.op]["spill"] = format_bytes(r.value);
        ops[r.op]["nspill"] = r.value;
      }
      for (const TopRow& r : top_operators(p, times, TopBy::Shuffle, p.ops.size())) {
        ops[r.op]["shuffle"] = format_bytes(r.value);
        ops[r.op]["nshuffle"] = r.value;
      }
      json top = json::array();  // by time first; then the largest by rows, spill, shuffle not yet listed
      std::set<std::size_t> listed;
      for (TopBy by : {TopBy::Time, TopBy::Rows, TopBy::Spill, TopBy::Shuffle})
        for (const TopRow& r : top_operators(p, times, by, by == TopBy::Time ? 10 : 5))
          if (listed.insert(r.op).second) top.push_back(r.op);
      plan["top"] = std::move(top);
      json diags = json::array();
      for (const auto& d : r.diagnostics) {
        if (d.plan_index != pi) continue;
        fired.insert(d.rule);
        json dj;
        dj["rule"] = d.rule;
        dj["code"] = d.code;
        dj["severity"] = std::string(to_string(d.severity));
        dj["message"] = d.message;
        dj["fix"] = d.fix;
        if (d.op && *d.op < p.ops.size()) {
          dj["op"] = *d.op;
          ops[*d.op]["findings"].push_back(diags.size());
        }
        if (d.range.line) dj["line"] = d.range.line;
        json ev = json::array();
        for (const auto& e : d.evidence) ev.push_back({e.name, e.value});
        dj["evidence"] = std::move(ev);
        if (!d.impact_text.empty()) dj["impact"] = d.impact_text;
        diags.push_back(std::move(dj));
      }
      plan["ops"] = std::move(ops);
      plan["diags"] = std::move(diags);
      if (!p.stages.empty()) plan["stages"] = stages_json(p);
      if (json q = query_json(p); !q.empty()) plan["query"] = std::move(q);
      plans.push_back(std::move(plan));
    }
    file["plans"] = std::move(plans);
    files.push_back(std::move(file));
  }
  json rules = json::object();
  for (const auto& name : fired) {
    const Rule* rule = find_rule(name);
    if (!rule) continue;
    const RuleDoc& doc = rule->doc();
    rules[name] = {{"code", doc.code_of(name)},       {"severity", std::string(to_string(doc.severity))},
                   {"summary", doc.summary}, {"what", doc.what},
                   {"why", doc.why},         {"example", doc.example},
                   {"use_instead", doc.use_instead}};
  }
  return {{"version", PLANLINT_VERSION}, {"files", std::move(files)}, {"rules", std::move(rules)}};
}

std::string script_safe_json(const json& j) {
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (char c : text) {
    // These only occur inside JSON strings, where the \u escape means the same character.
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

std::string report_html(const std::vector<LintResult>& results, const std::vector<ExecutionList>& executions) {
  std::string data = script_safe_json(report_data(results, executions));
  std::string page(report_template_head);
  page += data;
  page += report_template_tail;
  return page;
}

}  // namespace planlint
