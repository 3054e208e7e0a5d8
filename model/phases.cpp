#include "model/phases.hpp"

#include "model/plan_walk.hpp"

#include <algorithm>

namespace planlint {

std::optional<double> query_metric(const Plan& plan, std::initializer_list<Metric::Id> ids) {
  for (Metric::Id id : ids)
    if (auto v = plan.query.metric_value(id)) return v;
  return std::nullopt;
}

const Operator* plan_anchor(const Plan& plan) {
  const bool final_plan = has_final_plan(plan);
  for (std::size_t r : plan.roots)
    if (r < plan.ops.size() && is_active(plan.ops[r], final_plan)) return &plan.ops[r];
  for (const Operator& op : plan.ops)
    if (is_active(op, final_plan)) return &op;
  return nullptr;
}

std::string scan_ref(const Operator& op) {
  std::string ref = op_ref(op);
  if (op.table().empty() || op.name.find(op.table()) != std::string::npos) return ref;
  std::string name((op.name.empty() ? op.label : op.name).view());
  return name + " " + op.table() + (op.id.empty() ? "" : " (" + op.id + ")");
}

bool owns_query_metrics(const Plan& plan) {
  if (plan.format != InputFormat::QueryProfile || plan.ops.empty() || plan.ops.size() > 2) return true;
  return !std::all_of(plan.ops.begin(), plan.ops.end(), [](const Operator& op) {
    return op.kind == OpKind::Command || op.kind == OpKind::Write || op.kind == OpKind::Other ||
           op.kind == OpKind::Unknown;
  });
}

double PhaseBreakdown::share(std::size_t i) const {
  double total = total_ms.value_or(0);
  if (total <= 0)
    for (const Phase& p : phases) total += p.ms;
  return (i < phases.size() && total > 0) ? phases[i].ms / total : 0;
}

PhaseBreakdown phase_breakdown(const Plan& plan) {
  PhaseBreakdown b;
  b.from_result_cache = plan.query.result_from_cache.value_or(false);
  struct Source {
    const char* name;
    const char* title;
    Metric::Id id;
  };
  const Source sources[] = {
      {"waiting-for-compute", "waiting for compute", Metric::WaitingForComputeTime},
      {"queueing", "queued at capacity", Metric::QueuedAtCapacityTime},
      {"compilation", "compilation", Metric::CompilationTime},
      {"execution", "execution", Metric::ExecutionTime},
      {"result-fetch", "result fetch", Metric::ResultFetchTime},
  };
  for (const Source& s : sources)
    if (auto v = query_metric(plan, {s.id}); v && *v >= 0) b.phases.push_back({s.name, s.title, *v});
  b.total_ms = query_metric(plan, {Metric::TotalTime});
  b.task_ms = query_metric(plan, {Metric::TaskTotalTime});
  bool has_exec = false;
  double exec_ms = 0;
  for (const Phase& p : b.phases)
    if (p.name == "execution") {
      has_exec = true;
      exec_ms = p.ms;
    }
  b.known = has_exec || b.phases.size() >= 2;
  if (b.task_ms && has_exec && exec_ms > 0) b.parallelism = *b.task_ms / exec_ms;
  for (std::size_t i = 0; i < b.phases.size(); ++i)
    if (!b.dominant || b.phases[i].ms > b.phases[*b.dominant].ms) b.dominant = i;
  if (b.dominant && b.phases[*b.dominant].ms <= 0) b.dominant.reset();
  return b;
}

bool is_pass_through(const Operator& op) {
  switch (op.kind) {
    case OpKind::Filter:
    case OpKind::Transition:
    case OpKind::CodegenStage:
    case OpKind::Exchange:
    case OpKind::ShuffleRead:
    case OpKind::QueryStage:
    case OpKind::Sort:
    case OpKind::Limit:
      return true;
    default:
      return false;
  }
}

std::vector<std::string_view> field_texts(const Field& f) {
  std::vector<std::string_view> out;
  for_each_field_text(f, [&out](std::string_view t) { out.push_back(t); });
  return out;
}

}  // namespace planlint
