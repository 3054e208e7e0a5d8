#include "lint/core/executions.hpp"

#include <algorithm>

#include "lint/core/sanitize.hpp"
#include "model/format.hpp"

namespace planlint {

namespace {

bool driver_only(const Plan& p) {
  return !p.ops.empty() && std::all_of(p.ops.begin(), p.ops.end(), [](const Operator& op) {
    return op.kind == OpKind::Command || op.kind == OpKind::LocalData;
  });
}

bool has_metrics(const Plan& p) {
  if (std::any_of(p.stages.begin(), p.stages.end(), [](const StageInfo& s) { return s.task_ms_max.has_value(); }))
    return true;
  return std::any_of(p.ops.begin(), p.ops.end(), [](const Operator& op) {
    return op.rows().has_value() || op.duration_ms().has_value() || !op.metrics().empty();
  });
}

// Display columns of a UTF-8 string cut to `width` (0: no cut), the cut marked with "…".
std::string fit(const std::string& s, std::size_t width) {
  if (!width) return s;
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (++cols > width) {
      std::size_t cut = i;
      do --cut;
      while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80);
      return s.substr(0, cut) + "…";
    }
  }
  return s;
}

std::string pad_left(const std::string& s, std::size_t n) { return s.size() >= n ? s : std::string(n - s.size(), ' ') + s; }

// "0-5, 7, 9" from ids in any order (numeric ids as runs, others as they are).
std::string id_runs(std::vector<std::string> ids) {
  auto num = [](const std::string& s) -> std::optional<long long> {
    if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return std::stoll(s);
  };
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) {
    auto x = num(a), y = num(b);
    if (x && y) return *x < *y;
    return x.has_value() && !y.has_value();
  });
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    auto first = num(ids[i]);
    while (first && j + 1 < ids.size() && num(ids[j + 1]) && *num(ids[j + 1]) == *num(ids[j]) + 1) ++j;
    out += (out.empty() ? "" : ", ") + visible(ids[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + visible(ids[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string failed_text(const std::vector<std::string>& failed_jobs) {
  if (failed_jobs.empty()) return "";
  return std::string("failed (") + (failed_jobs.size() == 1 ? "job " : "jobs ") + id_runs(failed_jobs) + "): ";
}

std::size_t ExecutionList::folded() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const ExecutionRow& r) { return !r.trivial.empty(); }));
}

ExecutionList list_executions(const ParseResult& parse, const std::vector<Diagnostic>& diagnostics) {
  ExecutionList list;
  for (std::size_t i = 0; i < parse.plans.size(); ++i) list.shown.push_back(i);
  if (!parse.traits.executions || parse.plans.size() < 2) return list;
  double longest = 0;
  for (std::size_t i = 0; i < parse.plans.size(); ++i) {
    const Plan& p = parse.plans[i];
    ExecutionRow r;
    r.plan = i;
    r.id = p.query.statement_id;
    r.description = p.query.description;
    r.duration_ms = p.query.metric_value("totalTimeMs");
    r.task_ms = p.query.metric_value(Metric::TaskTotalTime);
    if (r.duration_ms) longest = std::max(longest, *r.duration_ms);
    for (const auto& d : diagnostics) r.findings += d.plan_index == i;
    for (const JobInfo* j : p.failed_jobs()) r.failed_jobs.push_back(j->id);
    list.rows.push_back(std::move(r));
  }
  for (auto& r : list.rows) {
    if (r.findings || !r.failed_jobs.empty()) continue;  // a finding or a failure is never folded away
    const Plan& p = parse.plans[r.plan];
    if (driver_only(p)) r.trivial = "driver-only command";
    else if (!has_metrics(p)) r.trivial = "no metrics";
    else if (r.duration_ms && longest > 0 && *r.duration_ms < 0.01 * longest) r.trivial = "under 1% of the longest";
  }
  std::stable_sort(list.rows.begin(), list.rows.end(), [](const ExecutionRow& a, const ExecutionRow& b) {
    double da = a.duration_ms.value_or(-1), db = b.duration_ms.value_or(-1);
    if (da != db) return da > db;
    return a.task_ms.value_or(-1) > b.task_ms.value_or(-1);
  });
  std::vector<std::size_t> main;
  for (const auto& r : list.rows)
    if (r.trivial.empty()) main.push_back(r.plan);
  if (!main.empty()) {
    std::sort(main.begin(), main.end());
    list.shown = std::move(main);
  } else {
    for (auto& r : list.rows) r.trivial.clear();  // nothing stands out: fold nothing
  }
  return list;
}

std::string executions_text(const ExecutionList& list, std::size_t width) {
  if (!list.folds()) return "";
  std::string out = fit(std::to_string(list.rows.size()) + " SQL executions, longest first (`--execution ID` shows one):", width) + '\n';
  out += fit("       id     duration    task time  description", width) + '\n';
  std::vector<std::string> folded_ids;
  std::vector<std::string> reasons;
  for (const auto& r : list.rows) {
    if (!r.trivial.empty()) {
      folded_ids.push_back(r.id);
      if (std::find(reasons.begin(), reasons.end(), r.trivial) == reasons.end()) reasons.push_back(r.trivial);
      continue;
    }
    std::string line = pad_left(visible(r.id), 9) + pad_left(r.duration_ms ? format_millis(*r.duration_ms) : "-", 13) +
                       pad_left(r.task_ms ? format_millis(*r.task_ms) : "-", 13) + "  " + failed_text(r.failed_jobs) +
                       visible(r.description);
    out += fit(line, width) + '\n';
  }
  if (!folded_ids.empty()) {
    std::string why;
    for (const auto& w : reasons) why += (why.empty() ? "" : ", ") + w;
    out += fit("  + " + std::to_string(folded_ids.size()) + (folded_ids.size() == 1 ? " trivial execution" : " trivial executions") +
                   " folded (" + why + "): " + id_runs(folded_ids),
               width) +
           '\n';
  }
  return out;
}

void keep_shown_executions(const ExecutionList& list, ParseResult& parse, std::vector<Diagnostic>& diagnostics) {
  if (!list.folds() || list.shown.size() == parse.plans.size()) return;
  std::vector<std::optional<std::size_t>> renumber(parse.plans.size());
  std::vector<Plan> kept;
  kept.reserve(list.shown.size());
  for (std::size_t i : list.shown) {
    renumber[i] = kept.size();
    kept.push_back(std::move(parse.plans[i]));
  }
  parse.plans = std::move(kept);
  std::vector<Diagnostic> ds;
  for (auto& d : diagnostics) {
    if (d.plan_index >= renumber.size() || !renumber[d.plan_index]) continue;
    d.plan_index = *renumber[d.plan_index];
    ds.push_back(std::move(d));
  }
  diagnostics = std::move(ds);
}

}  // namespace planlint
