#include "lint/visual/op_time.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace planlint {

namespace {

bool is_wrapper(const Operator& op) {
  return op.kind == OpKind::CodegenStage || op.kind == OpKind::AdaptivePlan || op.kind == OpKind::QueryStage;
}

// Timing metrics Spark's JVM operators record for themselves (profiles and event logs spell them
// differently), with the name shown as the basis.
struct JvmTiming {
  const char* label;
  const char* basis;
};
constexpr JvmTiming kJvmTimings[] = {
    {"Time in aggregation build", "aggregation build"}, {"time in aggregation build", "aggregation build"},
    {"Sort time", "sort"},                              {"sort time", "sort"},
    {"Time to build hash map", "hash map build"},       {"time to build hash map", "hash map build"},
    {"Shuffle write time", "shuffle write"},            {"shuffle write time", "shuffle write"},
};

OpTime own_time(const Operator& op) {
  if (is_wrapper(op)) return {};
  if (op.engine != Engine::Spark) {
    if (op.duration_ms) return {op.duration_ms, op.engine == Engine::Photon ? "Photon operator time" : "native operator time"};
    return {};
  }
  if (op.duration_ms) return {op.duration_ms, "operator time"};
  double sum = 0;
  std::string basis;
  for (const auto& t : kJvmTimings)
    if (auto v = op.metric_value(t.label)) {
      sum += *v;
      if (basis.find(t.basis) == std::string::npos) basis += (basis.empty() ? "" : " + ") + std::string(t.basis);
    }
  if (basis.empty()) return {};
  return {sum, basis};
}

}  // namespace

PlanTimes operator_times(const Plan& plan) {
  PlanTimes t;
  const std::size_t n = plan.ops.size();
  t.ops.resize(n);
  for (std::size_t i = 0; i < n; ++i) t.ops[i] = own_time(plan.ops[i]);

  // The codegen stage of each JVM operator: the profile's subgraphParent, else the stage with the
  // same codegen id (explain text, event logs).
  std::map<int, std::size_t> stage_by_id;
  for (const auto& op : plan.ops)
    if (op.kind == OpKind::CodegenStage && op.engine == Engine::Spark && op.codegen_stage)
      stage_by_id.emplace(*op.codegen_stage, op.index);
  std::vector<std::optional<std::size_t>> stage(n);
  for (const auto& op : plan.ops) {
    if (is_wrapper(op) || op.engine != Engine::Spark) continue;
    if (op.extra->stage_parent && *op.extra->stage_parent < n && plan.ops[*op.extra->stage_parent].kind == OpKind::CodegenStage)
      stage[op.index] = op.extra->stage_parent;
    else if (op.codegen_stage)
      if (auto it = stage_by_id.find(*op.codegen_stage); it != stage_by_id.end()) stage[op.index] = it->second;
  }

  // A JVM aggregate or sort that times itself but that the profile leaves outside any stage, reading
  // the top of a stage: it is that stage's pipeline (Spark codegens it with its input), so its
  // time and the stage's are the same time, not two.
  for (const auto& op : plan.ops) {
    if (stage[op.index] || is_wrapper(op) || op.engine != Engine::Spark || op.kind == OpKind::Exchange ||
        op.duration_ms || !t.ops[op.index].self_ms)
      continue;
    for (std::size_t c : op.children)
      if (c < n && stage[c]) {
        stage[op.index] = stage[c];
        break;
      }
  }

  // Exclusive within a stage: subtract the nearest timed descendants of the same stage.
  std::vector<double> inner(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!stage[i] || !t.ops[i].self_ms || plan.ops[i].duration_ms) continue;
    std::vector<std::size_t> todo(plan.ops[i].children.begin(), plan.ops[i].children.end());
    std::vector<bool> seen(n, false);
    while (!todo.empty()) {
      std::size_t c = todo.back();
      todo.pop_back();
      if (c >= n || seen[c] || stage[c] != stage[i]) continue;
      seen[c] = true;
      if (t.ops[c].self_ms) {
        inner[i] += *t.ops[c].self_ms;
        continue;  // its own timed descendants are inside its time already
      }
      for (std::size_t g : plan.ops[c].children) todo.push_back(g);
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (inner[i] > 0) t.ops[i].self_ms = std::max(0.0, *t.ops[i].self_ms - inner[i]);

  // The rest of each stage's duration goes to its top operator (the member no member consumes).
  for (const auto& st : plan.ops) {
    if (st.kind != OpKind::CodegenStage || st.engine != Engine::Spark || !st.duration_ms) continue;
    double members = 0;
    std::optional<std::size_t> top;
    for (std::size_t i = 0; i < n; ++i) {
      if (stage[i] != st.index) continue;
      if (t.ops[i].self_ms) members += *t.ops[i].self_ms;
      bool consumed = std::any_of(plan.ops[i].parents.begin(), plan.ops[i].parents.end(),
                                  [&](std::size_t p) { return p < n && stage[p] == st.index; });
      if (!consumed && (!top || i < *top)) top = i;
    }
    if (!top) continue;
    double rest = *st.duration_ms - members;
    if (rest <= 0) continue;
    OpTime& o = t.ops[*top];
    o.self_ms = o.self_ms.value_or(0) + rest;
    o.basis = o.basis.empty() ? "WholeStageCodegen time" : o.basis + " + rest of its WholeStageCodegen";
  }
  for (const auto& o : t.ops)
    if (o.self_ms) t.total_ms += *o.self_ms;
  return t;
}

std::vector<TopRow> top_operators(const Plan& plan, const PlanTimes& times, TopBy by, std::size_t n) {
  std::vector<TopRow> rows;
  for (const auto& op : plan.ops) {
    std::optional<double> v;
    switch (by) {
      case TopBy::Time: v = times.ops[op.index].self_ms; break;
      case TopBy::Rows:
        if (!is_wrapper(op)) v = op.rows;
        break;
      case TopBy::Spill:  // bytes spilled: "Spill size" (JVM), "... bytes spilled ..." (Photon)
        for (const auto& m : op.metrics) {
          if (!m.value || m.unit != MetricUnit::Bytes) continue;
          std::string l = m.label;
          std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
          if (l == "spill size" || (l.find("bytes spilled") != std::string::npos && l.find("uncompressed") == std::string::npos))
            v = v.value_or(0) + *m.value;
        }
        break;
      case TopBy::Shuffle:
        if (op.kind != OpKind::Exchange) break;
        for (auto l : {"Sink - Num bytes written", "Shuffle bytes written", "shuffle bytes written", "Data size",
                       "data size"})
          if (!v) v = op.metric_value(l);
        break;
    }
    if (v && *v > 0) rows.push_back({op.index, *v});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const TopRow& a, const TopRow& b) { return a.value > b.value; });
  if (rows.size() > n) rows.resize(n);
  return rows;
}

}  // namespace planlint
