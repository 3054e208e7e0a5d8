#include "model/op_time.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace planlint {

namespace {

bool is_wrapper(const Operator& op) {
  return op.kind == OpKind::CodegenStage || op.kind == OpKind::AdaptivePlan || op.kind == OpKind::QueryStage;
}

// Where the tasks change: an exchange (and a reused one) is written by the tasks of its input and
// read by others; a broadcast is built by a job of its own; a subquery runs apart.
bool starts_other_tasks(const Operator& op) {
  return op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange || op.kind == OpKind::ReusedExchange ||
         op.kind == OpKind::Subquery || op.kind == OpKind::ReusedSubquery;
}

// Timing metrics Spark's JVM operators record for themselves (profiles and event logs spell them
// differently), with the name shown as the basis, and whether the timer runs while the operator
// pulls its input (then its input's timed operators are inside it).
struct JvmTiming {
  const char* label;
  const char* basis;
  bool holds_input;
};
constexpr JvmTiming kJvmTimings[] = {
    {"Time in aggregation build", "aggregation build", true}, {"time in aggregation build", "aggregation build", true},
    {"Sort time", "sort", false},                             {"sort time", "sort", false},
    {"Time to build hash map", "hash map build", false},      {"time to build hash map", "hash map build", false},
    {"Shuffle write time", "shuffle write", false},           {"shuffle write time", "shuffle write", false},
};

struct Recorded {
  OpTime time;
  bool holds_input = false;
};

Recorded own_time(const Operator& op) {
  if (is_wrapper(op)) return {};
  if (op.engine == Engine::Gpu) {
    // RAPIDS: `op time`, the operator's own GPU time without its children's (spark-rapids tuning
    // guide, "Metrics"). The `total time` of 0.x releases is not taken: on real logs (rt01) it
    // nests (GpuCoalesceBatches holds its GpuShuffleCoalesce), so it is not exclusive.
    for (const char* l : {"Op time", "op time", "GPU time"})
      if (auto v = op.metric_value(l)) return {{v, "GPU op time", {}}, false};
    if (op.duration_ms()) return {{op.duration_ms(), "GPU op time", {}}, false};
    return {};
  }
  if (op.engine != Engine::Spark) {
    if (op.duration_ms())
      return {{op.duration_ms(), op.engine == Engine::Photon ? "Photon operator time" : "native operator time", {}}, false};
    return {};
  }
  if (op.duration_ms()) return {{op.duration_ms(), "operator time", {}}, false};
  double sum = 0;
  std::string basis;
  bool holds = false;
  for (const auto& t : kJvmTimings)
    if (auto v = op.metric_value(t.label)) {
      sum += *v;
      holds = holds || t.holds_input;
      if (basis.find(t.basis) == std::string::npos) basis += (basis.empty() ? "" : " + ") + std::string(t.basis);
    }
  if (basis.empty()) return {};
  return {{sum, basis, {}}, holds};
}

// The codegen stage of each JVM operator: the profile's subgraphParent, else the stage operator
// with the same codegen id, else (event logs, where the text never shows the wrapper) the codegen
// id itself, as key n + id. Each stage's duration: its operator's, or the one event logs put on
// the stage's top operator ("WholeStageCodegen duration").
struct CodegenStages {
  std::vector<std::optional<std::size_t>> of;  // operator -> its stage key
  std::map<std::size_t, double> ms;            // stage key -> its duration
};

CodegenStages codegen_stages(const Plan& plan) {
  const std::size_t n = plan.ops.size();
  CodegenStages cs;
  std::map<int, std::size_t> stage_by_id;
  for (const auto& op : plan.ops)
    if (op.kind == OpKind::CodegenStage && op.engine == Engine::Spark) {
      if (op.codegen_stage) stage_by_id.emplace(*op.codegen_stage, op.index);
      if (op.duration_ms()) cs.ms[op.index] = *op.duration_ms();
    }
  std::vector<std::optional<std::size_t>>& stage = cs.of;
  stage.resize(n);
  for (const auto& op : plan.ops) {
    if (is_wrapper(op) || op.engine != Engine::Spark) continue;
    if (op.extra()->stage_parent && *op.extra()->stage_parent < n && plan.ops[*op.extra()->stage_parent].kind == OpKind::CodegenStage)
      stage[op.index] = op.extra()->stage_parent;
    else if (op.codegen_stage && *op.codegen_stage >= 0) {
      auto it = stage_by_id.find(*op.codegen_stage);
      stage[op.index] = it != stage_by_id.end() ? it->second : n + static_cast<std::size_t>(*op.codegen_stage);
    }
    if (stage[op.index])
      if (auto d = op.metric_value("WholeStageCodegen duration"); d && *d > cs.ms[*stage[op.index]])
        cs.ms[*stage[op.index]] = *d;
  }
  return cs;
}

// Tasks: operators joined by an edge that does not start other tasks run in the same tasks
// (a union-find over the operators; find(i) names the tasks of operator i).
class Tasks {
 public:
  explicit Tasks(const Plan& plan) : task_(plan.ops.size()) {
    const std::size_t n = task_.size();
    for (std::size_t i = 0; i < n; ++i) task_[i] = i;
    for (const auto& op : plan.ops)
      for (std::size_t c : op.children)
        if (c < n && !starts_other_tasks(plan.ops[c])) {
          std::size_t a = find(op.index), b = find(c);
          if (a != b) task_[a] = b;
        }
  }
  std::size_t find(std::size_t x) {
    while (task_[x] != x) x = task_[x] = task_[task_[x]];
    return x;
  }

 private:
  std::vector<std::size_t> task_;
};

// Visits the timed operators children first; `step(i, pulled)` gets the inclusive times of the
// nearest timed operators below operator i in its tasks (wrappers are walked through; exchanges,
// broadcasts and subqueries run in other tasks) and returns operator i's inclusive time.
template <class Step>
std::vector<double> bottom_up(const Plan& plan, const PlanTimes& t, Step&& step) {
  const std::size_t n = plan.ops.size();
  // Each operator is visited once per call of below(); in a tree, once in all (by its nearest
  // timed ancestor).
  std::vector<std::size_t> visited(n, n);
  std::vector<std::size_t> todo;
  std::vector<double> inclusive(n, 0);
  auto pulled_by = [&](std::size_t i) {
    double pulled = 0;
    todo.assign(plan.ops[i].children.begin(), plan.ops[i].children.end());
    while (!todo.empty()) {
      std::size_t c = todo.back();
      todo.pop_back();
      if (c >= n || starts_other_tasks(plan.ops[c]) || visited[c] == i) continue;
      visited[c] = i;
      if (!is_wrapper(plan.ops[c]) && t.ops[c].self_ms) {
        pulled += inclusive[c];
        continue;  // its own timed operators are inside it
      }
      for (std::size_t g : plan.ops[c].children) todo.push_back(g);
    }
    return pulled;
  };
  std::vector<int> state(n, 0);  // 0 new, 1 open, 2 done
  for (std::size_t root = 0; root < n; ++root) {
    if (state[root]) continue;
    std::vector<std::size_t> stack{root};
    while (!stack.empty()) {
      std::size_t i = stack.back();
      if (state[i] == 0) {
        state[i] = 1;
        for (std::size_t c : plan.ops[i].children)
          if (c < n && state[c] == 0) stack.push_back(c);
        continue;
      }
      stack.pop_back();
      if (state[i] == 2) continue;
      state[i] = 2;
      if (t.ops[i].self_ms) inclusive[i] = step(i, pulled_by(i));
    }
  }
  return inclusive;
}

// Exclusive time of each timed operator: an operator whose timer runs while it pulls its input
// loses the inclusive time of what it pulls.
void subtract_pulled_time(const Plan& plan, PlanTimes& t, const std::vector<bool>& holds) {
  bottom_up(plan, t, [&](std::size_t i, double pulled) {
    const double recorded = *t.ops[i].self_ms;
    if (!holds[i]) return recorded + pulled;
    t.ops[i].self_ms = std::max(0.0, recorded - pulled);
    return recorded;
  });
}

// A task's largest stage duration is the time of its pipeline: what its operators leave of it
// goes to that stage's top operator (the member no member consumes).
void add_stage_rests(const Plan& plan, PlanTimes& t, CodegenStages& cs, Tasks& tasks) {
  const std::size_t n = plan.ops.size();
  const std::vector<std::optional<std::size_t>>& stage = cs.of;
  std::map<std::size_t, double>& stage_ms = cs.ms;
  std::map<std::size_t, std::size_t> longest;  // task -> the key of its longest codegen stage
  for (std::size_t i = 0; i < n; ++i) {
    if (!stage[i]) continue;
    auto d = stage_ms.find(*stage[i]);
    if (d == stage_ms.end() || d->second <= 0) continue;
    auto [it, fresh] = longest.emplace(tasks.find(i), *stage[i]);
    if (!fresh && stage_ms[it->second] < d->second) it->second = *stage[i];
  }
  std::map<std::size_t, double> timed;  // task -> the exclusive times of its operators
  for (std::size_t i = 0; i < n; ++i)
    if (t.ops[i].self_ms && !is_wrapper(plan.ops[i])) timed[tasks.find(i)] += *t.ops[i].self_ms;
  // The rests are estimates of untimed pipeline work; a stage's wall-clock duration can hold time
  // another thread of the task spent (a Python runner's writer feeding mapInPandas), so they are
  // never allowed to make the operators add up to more than the query's task time.
  std::vector<std::pair<std::size_t, double>> rests;  // top operator, rest
  double timed_all = 0;
  for (const auto& [tk, ms] : timed) timed_all += ms;
  // Each stage's top operator (its first member no member of the stage consumes), in one pass.
  std::map<std::size_t, std::size_t> top_of;  // stage key -> top operator
  for (std::size_t i = 0; i < n; ++i) {
    if (!stage[i]) continue;
    const std::size_t st = *stage[i];
    bool consumed = std::any_of(plan.ops[i].parents.begin(), plan.ops[i].parents.end(),
                                [&](std::size_t p) { return p < n && stage[p] == st; });
    if (!consumed) top_of.emplace(st, i);  // i grows: the first one stays
  }
  // The Spark stages' task times (event logs, History Server answers): a pipeline never ran longer
  // than the tasks of the stages that ran it, whatever its codegen duration says (q72 of NDS: a
  // Filter hosting runtime-filter subqueries whose stage durations add up to 2.3x its stage's tasks).
  std::map<int, double> spark_stage_ms;
  for (const auto& s : plan.stages) {
    int id = 0;
    if (!s.task_ms_total || s.id.empty()) continue;
    auto [end, ec] = std::from_chars(s.id.data(), s.id.data() + s.id.size(), id);
    if (ec == std::errc{} && end == s.id.data() + s.id.size()) spark_stage_ms[id] += *s.task_ms_total;
  }
  auto tasks_ran = [&](const Operator& op) -> std::optional<double> {
    const auto& ids = op.extra()->spark_stages;
    if (ids.empty()) return std::nullopt;
    double ms = 0;
    for (int id : ids) {
      auto it = spark_stage_ms.find(id);
      if (it == spark_stage_ms.end()) return std::nullopt;
      ms += it->second;
    }
    return ms;
  };
  for (const auto& [tk, st] : longest) {
    auto top = top_of.find(st);
    if (top == top_of.end()) continue;
    // One rest per codegen stage, in the tasks of its top operator: event logs key a stage by its
    // codegen id, which the AQE initial and final plans (and re-planned stages) share, so several
    // task groups can name the same stage (rt04's Filter (3) got three rests before).
    if (tasks.find(top->second) != tk) continue;
    double rest = stage_ms[st] - timed[tk];
    if (auto ran = tasks_ran(plan.ops[top->second])) rest = std::min(rest, *ran - timed[tk]);
    if (rest <= 0) continue;
    rests.emplace_back(top->second, rest);
  }
  double rest_sum = 0;
  for (const auto& r : rests) rest_sum += r.second;
  double scale = 1;
  if (auto task = plan.query.metric_value(Metric::TaskTotalTime); task && *task > 0 && rest_sum > 0)
    scale = std::clamp((*task - timed_all) / rest_sum, 0.0, 1.0);
  for (const auto& [top, rest] : rests) {
    if (rest * scale <= 0) continue;
    OpTime& o = t.ops[top];
    o.self_ms = o.self_ms.value_or(0) + rest * scale;
    o.basis = o.basis.empty() ? "WholeStageCodegen time" : o.basis + " + rest of its WholeStageCodegen";
  }
}

}  // namespace

PlanTimes operator_times(const Plan& plan) {
  PlanTimes t;
  const std::size_t n = plan.ops.size();
  t.ops.resize(n);
  std::vector<bool> holds(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    Recorded r = own_time(plan.ops[i]);
    t.ops[i] = std::move(r.time);
    holds[i] = r.holds_input;
  }
  CodegenStages stages = codegen_stages(plan);
  Tasks tasks(plan);
  subtract_pulled_time(plan, t, holds);
  add_stage_rests(plan, t, stages, tasks);
  const std::vector<double> inclusive =
      bottom_up(plan, t, [&](std::size_t i, double pulled) { return *t.ops[i].self_ms + pulled; });
  for (std::size_t i = 0; i < n; ++i)
    if (t.ops[i].self_ms) {
      t.total_ms += *t.ops[i].self_ms;
      t.ops[i].inclusive_ms = inclusive[i];
    }
  return t;
}

std::vector<TopRow> top_operators(const Plan& plan, const PlanTimes& times, TopBy by, std::size_t n) {
  std::vector<TopRow> rows;
  for (const auto& op : plan.ops) {
    std::optional<double> v;
    switch (by) {
      case TopBy::Time: v = times.ops[op.index].self_ms; break;
      case TopBy::Rows:
        if (!is_wrapper(op)) v = op.rows();
        break;
      case TopBy::Spill:  // bytes spilled: "Spill size" (JVM), "... bytes spilled ..." (Photon)
        for (const auto& m : op.metrics()) {
          if (!m.value || m.unit != MetricUnit::Bytes) continue;
          std::string l = m.label.str();
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
