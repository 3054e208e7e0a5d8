// Numbers that add up, because a report whose shares and totals disagree is not trusted: on every runtime input of corpus/ and ../shared
// (Query Profiles, event logs, History Server answers), the operators' exclusive times of a query
// never add up to more than its task time, nor the operators of one Spark stage more than that
// stage's tasks ran, and every number a finding quotes is checked against
// the input: a time at most the query's task time, a percent at most 100, a share at most 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lint/engine/engine.hpp"
#include "model/op_time.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {

// Files whose plans can carry runtime metrics: JSON (profiles, History Server answers) and event
// logs (plain or compressed). Explain text carries none and is left out.
bool runtime_name(const std::string& name) {
  for (const char* ext : {".json", ".eventlog", ".zstd", ".zst", ".lz4", ".snappy", ".gz"})
    if (name.size() > std::string(ext).size() && name.compare(name.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      return true;
  return name.rfind("events_", 0) == 0 || name.rfind("app-", 0) == 0 || name.rfind("local-", 0) == 0;
}

std::vector<fs::path> runtime_inputs() {
  std::vector<fs::path> roots{test::corpus_dir()};
  if (auto shared = test::shared_dir()) roots.push_back(*shared / "corpus");
  std::vector<fs::path> out;
  for (const auto& root : roots) {
    if (!fs::is_directory(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string name = e.path().filename().string();
      // Expected outputs of other tests (goldens) are not inputs.
      if (!e.is_regular_file() || name.find(".parse.") != std::string::npos || name.find(".check.") != std::string::npos ||
          name.find(".show.") != std::string::npos || name.find(".golden") != std::string::npos || e.file_size() > (64u << 20))
        continue;
      if (e.path().string().find("/fuzz_regressions/") != std::string::npos) continue;
      if (runtime_name(name)) out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("time invariants: operator times and finding numbers add up on every runtime input" * doctest::test_suite("shared")) {
  auto inputs = runtime_inputs();
  REQUIRE(inputs.size() >= 10);
  if (!test::shared_dir()) test::without_shared("corpus/ only");
  std::size_t plans_with_task_time = 0, timed_findings = 0, stages_checked = 0;
  for (const auto& path : inputs) {
    LintRequest req;
    req.path = path.string();
    LintOptions opts;
    opts.finish = false;
    Linted l = lint_input(req, Config{}, opts);
    if (!l.error.empty()) continue;  // not a plan (a config, a manifest): nothing to add up
    const ParseResult& parse = l.result.parse;
    for (std::size_t pi = 0; pi < parse.plans.size(); ++pi) {
      const Plan& p = parse.plans[pi];
      const PlanTimes t = operator_times(p);
      for (const auto& o : t.ops)
        if (o.self_ms) CHECK(*o.self_ms >= 0);
      const auto task = p.query.metric_value(Metric::TaskTotalTime);
      if (!task || *task <= 0 || t.total_ms <= 0) continue;
      ++plans_with_task_time;
      INFO(path.string() << " plan " << pi << ": operator time " << t.total_ms << " ms, task time " << *task << " ms");
      // A rounding margin: Spark's metrics are summed per task in whole milliseconds.
      CHECK(t.total_ms <= *task * 1.01 + 1000);
    }
    // Per Spark stage (event logs, History Server answers): the operators whose metrics only that
    // stage's tasks updated never hold more time than those tasks ran; an operator updated by
    // several stages (an exchange: written by one, read by the next) holds at most their sum.
    for (std::size_t pi = 0; pi < parse.plans.size(); ++pi) {
      const Plan& p = parse.plans[pi];
      if (p.stages.empty()) continue;
      const PlanTimes t = operator_times(p);
      std::map<int, double> stage_ms;  // Spark stage id -> its tasks' time
      for (const auto& st : p.stages) {
        int id = 0;
        if (!st.task_ms_total || std::from_chars(st.id.data(), st.id.data() + st.id.size(), id).ec != std::errc{}) continue;
        stage_ms[id] += *st.task_ms_total;
      }
      std::map<int, double> held;  // stage id -> the exclusive time of its own operators
      for (const auto& op : p.ops) {
        const auto& self = t.ops[op.index].self_ms;
        const auto& ids = op.extra()->spark_stages;
        if (!self || ids.empty()) continue;
        double bound = 0;
        bool known = true;
        for (int id : ids) {
          auto it = stage_ms.find(id);
          if (it == stage_ms.end()) known = false;
          else bound += it->second;
        }
        if (!known) continue;  // a stage without task times (skipped, or cut from the log)
        ++stages_checked;
        INFO(path.string() << " plan " << pi << ": " << op.name.view() << " (" << op.id.view() << ") "
                           << *self << " ms exclusive, its stages' tasks " << bound << " ms");
        CHECK(*self <= bound * 1.01 + 1000);
        if (ids.size() == 1) held[ids.front()] += *self;
      }
      for (const auto& stage : held) {  // not a structured binding: INFO's lambda captures it (clang 14)
        const auto id = stage.first;
        const auto ms = stage.second;
        INFO(path.string() << " plan " << pi << ": stage " << id << ": operators " << ms << " ms, tasks " << stage_ms[id] << " ms");
        CHECK(ms <= stage_ms[id] * 1.01 + 1000);
      }
    }
    for (const auto& d : l.result.diagnostics) {
      if (d.plan_index >= parse.plans.size()) continue;
      const Plan& p = parse.plans[d.plan_index];
      // slow-phase quotes phases of the query's wall time (compilation, waiting for compute): they
      // are bounded by the query's total time; every other time is a sum over tasks.
      const auto task = d.rule == "slow-phase" ? p.query.metric_value(Metric::TotalTime)
                                               : p.query.metric_value(Metric::TaskTotalTime);
      for (const auto& e : d.evidence) {
        if (!e.number) continue;
        INFO(path.string() << ": " << d.rule << " on " << d.operator_name << ": " << e.name << " = " << e.value);
        if (e.unit == "percent") {
          CHECK(*e.number >= 0);
          CHECK(*e.number <= 100.0 + 1e-9);
        }
        if (e.unit == "ms") {
          CHECK(*e.number >= 0);
          // Wall times of the query and per-task figures are no sum over tasks; the rest are.
          if (task && *task > 0) {
            ++timed_findings;
            CHECK(*e.number <= *task * 1.01 + 1000);
          }
        }
      }
      if (d.impact && d.impact_unit == "ms" && task && *task > 0) {
        INFO(path.string() << ": " << d.rule << " impact " << *d.impact);
        CHECK(*d.impact <= *task * 1.01 + 1000);
      }
    }
  }
  MESSAGE(inputs.size() << " runtime inputs, " << plans_with_task_time << " plans with task time, "
                        << timed_findings << " time figures in findings checked, " << stages_checked
                        << " operator times checked against their stages' task time");
  CHECK(plans_with_task_time >= 3);
  CHECK(stages_checked >= 10);
}
