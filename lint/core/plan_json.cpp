#include "lint/core/plan_json.hpp"

#include <cmath>
#include <span>

namespace planlint {

using ojson = nlohmann::ordered_json;

namespace {

void put_number(ojson& j, const char* key, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) j[key] = *v;
}

std::string_view severity_name(MessageSeverity s) {
  switch (s) {
    case MessageSeverity::Warning: return "warning";
    case MessageSeverity::Note: return "note";
    case MessageSeverity::Error: break;
  }
  return "error";
}

std::string_view unit_name(MetricUnit u) {
  switch (u) {
    case MetricUnit::Bytes: return "bytes";
    case MetricUnit::Millis: return "ms";
    case MetricUnit::Count: break;
  }
  return "count";
}

ojson metrics_json(std::span<const Metric> ms) {  // an operator's or the query's metrics
  ojson a = ojson::array();
  for (const auto& m : ms) {
    ojson j;
    j["label"] = m.label;
    if (!m.key.empty()) j["key"] = m.key;
    if (m.value && std::isfinite(*m.value)) j["value"] = *m.value;
    else j["value"] = nullptr;
    j["unit"] = unit_name(m.unit);
    if (m.hidden) j["hidden"] = true;
    a.push_back(std::move(j));
  }
  return a;
}

ojson field_json(const Field& f) {
  ojson j;
  j["key"] = f.key;
  j["value"] = f.value;
  if (f.count) j["count"] = *f.count;
  if (f.is_list) j["items"] = f.items().strings();
  if (f.count_mismatch) j["count_mismatch"] = true;
  if (f.truncated) j["truncated"] = true;
  if (f.loc.known()) {
    j["line"] = f.loc.line;
    j["column"] = f.loc.column;
  }
  return j;
}

std::vector<std::string> expr_texts(const CompactVector<ParsedExpr>& es) {
  std::vector<std::string> out;
  out.reserve(es.size());
  for (const auto& e : es) out.push_back(e.text.str());
  return out;
}

}  // namespace

ojson source_range_json(const SourceRange& r) {
  ojson j;
  j["line"] = r.line;
  j["column"] = r.column;
  j["end_line"] = r.end_line;
  j["end_column"] = r.end_column;
  return j;
}

ojson operator_json(const Operator& op) {
  ojson j;
  j["index"] = op.index;
  j["id"] = op.id;
  j["name"] = op.name;
  if (op.label != op.name && !op.label.empty()) j["label"] = op.label;
  j["kind"] = to_string(op.kind);
  j["engine"] = to_string(op.engine);
  j["section"] = to_string(op.section);
  if (op.logical) j["logical"] = true;
  j["line"] = op.loc.line;
  j["column"] = op.loc.column;
  if (op.detail_loc.known()) j["detail_line"] = op.detail_loc.line;
  if (!op.extra()->tag.empty()) j["tag"] = op.extra()->tag;
  if (op.codegen) j["codegen"] = true;
  if (op.codegen_stage) j["codegen_stage"] = *op.codegen_stage;
  if (!op.table().empty()) j["table"] = op.table();
  if (!op.scan_format().empty()) j["scan_format"] = op.scan_format();
  const JoinInfo& ji = *op.join;
  if (op.kind == OpKind::Join || ji.type != JoinType::None) {
    ojson jj;
    jj["type"] = to_string(ji.type);
    if (!ji.type_text.empty() && ji.type_text != to_string(ji.type)) jj["type_text"] = ji.type_text.str();
    if (ji.build != BuildSide::None) jj["build"] = to_string(ji.build);
    if (ji.strategy != JoinStrategy::None) jj["strategy"] = to_string(ji.strategy);
    if (ji.skew) jj["skew"] = true;
    if (!op.left_keys().empty()) jj["left_keys"] = expr_texts(op.left_keys());
    if (!op.right_keys().empty()) jj["right_keys"] = expr_texts(op.right_keys());
    if (op.join_condition()) jj["condition"] = op.join_condition()->text;
    j["join"] = std::move(jj);
  }
  if (op.stats()->size_bytes || op.stats()->row_count || op.stats()->masked || !op.stats()->text.empty()) {
    ojson s;
    put_number(s, "size_bytes", op.stats()->size_bytes);
    put_number(s, "row_count", op.stats()->row_count);
    if (op.stats()->masked) s["masked"] = true;
    if (!op.stats()->text.empty()) s["text"] = op.stats()->text;
    j["stats"] = std::move(s);
  }
  if (!op.hints()->empty()) {
    ojson hs = ojson::array();
    for (const auto& h : *op.hints()) {
      ojson hj;
      hj["strategy"] = h.strategy;
      if (h.side != BuildSide::None) hj["side"] = h.side == BuildSide::Left ? "left" : "right";
      hs.push_back(std::move(hj));
    }
    j["hints"] = std::move(hs);
  }
  if (!op.arguments.empty()) j["arguments"] = op.arguments;
  if (!op.fields.empty()) {
    ojson fs = ojson::array();
    for (const auto& f : op.fields) fs.push_back(field_json(f));
    j["fields"] = std::move(fs);
  }
  j["children"] = op.children;
  if (op.reuses) j["reuses"] = *op.reuses;
  if (!op.extra()->child_side.empty()) j["child_side"] = op.extra()->child_side;
  put_number(j, "rows", op.rows());
  put_number(j, "duration_ms", op.duration_ms());
  put_number(j, "peak_memory_bytes", op.extra()->peak_memory_bytes);
  if (op.extra()->stage_parent) j["stage_parent"] = *op.extra()->stage_parent;
  if (!op.extra()->spark_stages.empty()) j["spark_stages"] = op.extra()->spark_stages;
  if (op.hidden) j["hidden"] = true;
  if (!op.metrics().empty()) j["metrics"] = metrics_json(op.metrics());
  return j;
}

ojson plan_json(const Plan& p) {
  ojson j;
  j["name"] = p.name;
  j["format"] = to_string(p.format);
  j["line"] = p.loc.line;
  j["operator_count"] = p.ops.size();
  j["roots"] = p.roots;
  if (!p.logical_roots.empty()) j["logical_roots"] = p.logical_roots;
  if (p.adaptive) j["adaptive"] = true;
  if (p.is_final_plan) j["is_final_plan"] = *p.is_final_plan;
  if (!p.subqueries.empty()) {
    ojson a = ojson::array();
    for (const auto& s : p.subqueries) {
      ojson e;
      e["number"] = s.number;
      if (s.hosting_op) e["hosting_op"] = *s.hosting_op;
      e["hosting_expression"] = s.hosting_expression;
      if (s.root) e["root"] = *s.root;
      else e["reused"] = true;
      e["line"] = s.loc.line;
      a.push_back(std::move(e));
    }
    j["subqueries"] = std::move(a);
  }
  if (!p.trailers.empty()) {
    ojson a = ojson::array();
    for (const auto& t : p.trailers) {
      ojson e;
      e["title"] = t.title;
      e["text"] = t.text;
      e["line"] = t.loc.line;
      a.push_back(std::move(e));
    }
    j["trailers"] = std::move(a);
  }
  if (p.photon.present) {
    ojson ph;
    ph["fully_supported"] = p.photon.fully_supported;
    ph["reasons"] = p.photon.reasons;
    ph["reference_nodes"] = p.photon.reference_nodes;
    j["photon_explanation"] = std::move(ph);
  }
  if (!p.optimizer_statistics.empty()) j["optimizer_statistics"] = p.optimizer_statistics;
  const QueryInfo& q = p.query;
  if (!q.statement_id.empty() || !q.sql_text.empty() || !q.status.empty() || !q.metrics.empty() ||
      !q.description.empty() || q.result_from_cache) {
    ojson qj;
    if (!q.statement_id.empty()) qj["statement_id"] = q.statement_id;
    if (!q.sql_text.empty()) qj["sql_text"] = q.sql_text;
    if (!q.status.empty()) qj["status"] = q.status;
    if (!q.statement_type.empty()) qj["statement_type"] = q.statement_type;
    if (!q.description.empty()) qj["description"] = q.description;
    if (q.result_from_cache) qj["result_from_cache"] = *q.result_from_cache;
    if (!q.metrics.empty()) qj["metrics"] = metrics_json(q.metrics);
    j["query"] = std::move(qj);
  }
  if (!p.stages.empty()) {
    ojson a = ojson::array();
    for (const auto& s : p.stages) {
      ojson e;
      e["id"] = s.id;
      if (s.status != StageStatus::Unknown) e["status"] = std::string(to_string(s.status));
      put_number(e, "num_tasks", s.num_tasks);
      put_number(e, "duration_ms", s.duration_ms);
      put_number(e, "peak_memory_bytes", s.peak_memory_bytes);
      put_number(e, "task_ms_min", s.task_ms_min);
      put_number(e, "task_ms_median", s.task_ms_median);
      put_number(e, "task_ms_p75", s.task_ms_p75);
      put_number(e, "task_ms_max", s.task_ms_max);
      e["operators"] = s.operators;
      a.push_back(std::move(e));
    }
    j["stages"] = std::move(a);
  }
  if (!p.jobs.empty()) {
    ojson a = ojson::array();
    for (const JobInfo& job : p.jobs) {
      ojson e;
      e["id"] = job.id;
      if (job.status != JobStatus::Unknown) e["status"] = std::string(to_string(job.status));
      if (!job.failure.empty()) e["failure"] = job.failure;
      if (!job.stages.empty()) e["stages"] = job.stages;
      a.push_back(std::move(e));
    }
    j["jobs"] = std::move(a);
  }
  return j;
}

ojson parse_result_json(const ParseResult& r) {
  ojson j;
  j["path"] = r.path;
  j["format"] = to_string(r.format);
  ojson plans = ojson::array();
  ojson ops = ojson::array();
  for (std::size_t k = 0; k < r.plans.size(); ++k) {
    plans.push_back(plan_json(r.plans[k]));
    for (const auto& op : r.plans[k].ops) {
      ojson o = operator_json(op);
      if (r.plans.size() > 1) {
        ojson with_plan;
        with_plan["plan"] = k;
        for (auto& [key, v] : o.items()) with_plan[key] = std::move(v);
        ops.push_back(std::move(with_plan));
      } else {
        ops.push_back(std::move(o));
      }
    }
  }
  j["plans"] = std::move(plans);
  j["operators"] = std::move(ops);
  ojson diags = ojson::array();
  for (const auto& m : r.messages) {
    ojson d;
    d["severity"] = severity_name(m.severity);
    d["line"] = m.loc.line;
    d["column"] = m.loc.column;
    d["message"] = m.message;
    diags.push_back(std::move(d));
  }
  j["diagnostics"] = std::move(diags);
  return j;
}

std::string dump_json(const ojson& j) {
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace planlint
