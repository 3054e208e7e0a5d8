// Time attribution (model/op_time.hpp): so that "where did the time go" is answered per operator,
// exclusive time per operator from what each engine
// records, shares that never pass 100 %, and on every real Databricks profile the operator that the
// photon-fallback finding names is among the top three by time in `planlint show`.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "lint/core/config.hpp"
#include "lint/engine/engine.hpp"
#include "model/op_time.hpp"
#include "lint/visual/show.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {
std::vector<fs::path> real_profiles() {
  std::vector<fs::path> out;
  auto shared = test::shared_dir();
  if (!shared) return out;
  for (const auto& e : fs::directory_iterator(*shared / "corpus" / "databricks"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The operator ids listed in `show`'s "top operators by time" table.
std::vector<std::string> show_top_ids(const std::string& show) {
  std::vector<std::string> ids;
  std::istringstream in(show);
  std::string line;
  bool in_top = false;
  while (std::getline(in, line)) {
    if (line.rfind("top operators by time", 0) == 0) {
      in_top = true;
      continue;
    }
    if (!in_top) continue;
    if (line.empty() || line[0] != ' ') {
      in_top = false;
      continue;
    }
    auto close = line.rfind(")  [");
    auto open = line.rfind(" (", close);
    if (close != std::string::npos && open != std::string::npos) ids.push_back(line.substr(open + 2, close - open - 2));
  }
  return ids;
}
}  // namespace

TEST_CASE("op time: timers that hold their input lose what they pull, down to the exchange") {
  // A WholeStageCodegen stage of 100 s with two nested aggregates: the outer one's build time
  // (90 s) includes the inner one's (70 s), which includes the Photon scan it pulls through
  // ColumnarToRow (10 s: outside the stage and in another engine, but in the same tasks). The
  // stage's 100 s are the tasks' pipeline: operators add up to it, not to 110 s.
  Plan p;
  auto add = [&](OpKind kind, Engine engine, std::string name) -> Operator& {
    Operator op;
    op.index = p.ops.size();
    op.id = p.keep(std::to_string(op.index));
    op.kind = kind;
    op.engine = engine;
    op.name = p.keep(name);
    p.ops.push_back(std::move(op));
    return p.ops.back();
  };
  add(OpKind::CodegenStage, Engine::Spark, "WholeStageCodegen").edit_runtime().duration_ms = 100'000;
  auto& outer = add(OpKind::Aggregate, Engine::Spark, "HashAggregate");
  outer.edit_runtime().metrics.push_back({"Time in aggregation build", "", 90'000, MetricUnit::Millis, false});
  outer.edit_runtime().extra.edit().stage_parent = 0;
  auto& inner = add(OpKind::Aggregate, Engine::Spark, "HashAggregate");
  inner.edit_runtime().metrics.push_back({"Time in aggregation build", "", 70'000, MetricUnit::Millis, false});
  inner.edit_runtime().extra.edit().stage_parent = 0;
  add(OpKind::Transition, Engine::Spark, "ColumnarToRow").edit_runtime().extra.edit().stage_parent = 0;
  add(OpKind::Scan, Engine::Photon, "PhotonScan").edit_runtime().duration_ms = 10'000;
  p.ops[1].children = {2};
  p.ops[2].children = {3};
  p.ops[3].children = {4};
  p.link();
  PlanTimes t = operator_times(p);
  CHECK(!t.ops[0].self_ms);                  // the wrapper: its members have the time
  REQUIRE(t.ops[1].self_ms);
  CHECK(*t.ops[1].self_ms == doctest::Approx(20'000 + 10'000));  // 90 - 70, plus the stage's rest (100 - 90)
  CHECK(*t.ops[2].self_ms == doctest::Approx(60'000));            // 70 - the scan's 10
  CHECK(!t.ops[3].self_ms);
  CHECK(*t.ops[4].self_ms == doctest::Approx(10'000));
  CHECK(t.total_ms == doctest::Approx(100'000));
  // Inclusive times, beside the exclusive ones: each holds the timed operators below it in its
  // tasks (the outer aggregate: the whole stage, 100 s; the inner: 60 + 10 s; the scan: its own).
  CHECK(*t.ops[1].inclusive_ms == doctest::Approx(100'000));
  CHECK(*t.ops[2].inclusive_ms == doctest::Approx(70'000));
  CHECK(*t.ops[4].inclusive_ms == doctest::Approx(10'000));
  CHECK(!t.ops[3].inclusive_ms);  // untimed: neither figure
  auto top = top_operators(p, t, TopBy::Time, 3);
  REQUIRE(top.size() == 3);
  CHECK(top[0].op == 2);
  // Below an exchange run other tasks: an aggregate above a shuffle keeps its whole build time.
  {
    Plan q;
    auto addq = [&](OpKind kind, Engine engine) -> Operator& {
      Operator op;
      op.index = q.ops.size();
      op.id = q.keep(std::to_string(op.index));
      op.kind = kind;
      op.engine = engine;
      q.ops.push_back(std::move(op));
      return q.ops.back();
    };
    addq(OpKind::Aggregate, Engine::Spark).edit_runtime().metrics.push_back({"Time in aggregation build", "", 5'000, MetricUnit::Millis, false});
    addq(OpKind::ShuffleRead, Engine::Spark);
    addq(OpKind::Exchange, Engine::Spark).edit_runtime().metrics.push_back({"Shuffle write time", "", 2'000, MetricUnit::Millis, false});
    addq(OpKind::Aggregate, Engine::Spark).edit_runtime().metrics.push_back({"Time in aggregation build", "", 30'000, MetricUnit::Millis, false});
    q.ops[0].children = {1};
    q.ops[1].children = {2};
    q.ops[2].children = {3};
    q.link();
    PlanTimes qt = operator_times(q);
    CHECK(*qt.ops[0].self_ms == doctest::Approx(5'000));   // nothing of its tasks below it is timed
    CHECK(*qt.ops[2].self_ms == doctest::Approx(2'000));   // shuffle write: its own work only
    CHECK(*qt.ops[3].self_ms == doctest::Approx(30'000));  // the map side's aggregate, whole
    CHECK(*qt.ops[0].inclusive_ms == doctest::Approx(5'000));  // the exchange's tasks are not in it
    CHECK(*qt.ops[2].inclusive_ms == doctest::Approx(32'000)); // shuffle write with the map side it pulls
    // A sort's timer holds only the sorting: nothing is subtracted from it, and what it pulls
    // counts towards what an aggregate above it pulls.
    q.ops[1].kind = OpKind::Sort;
    q.ops[1].edit_runtime().metrics.push_back({"Sort time", "", 1'000, MetricUnit::Millis, false});
    q.ops[1].children = {3};
    q.ops[3].edit_runtime().metrics[0].value = 3'000;
    q.ops[2].children = {};
    q.link();
    PlanTimes st = operator_times(q);
    CHECK(*st.ops[1].self_ms == doctest::Approx(1'000));
    CHECK(*st.ops[0].self_ms == doctest::Approx(1'000));  // 5 - (sort 1 + aggregate 3 it pulls)
  }
  // A stage whose members record nothing: its time, less the scan it pulls, goes to its top member.
  p.ops[1].edit_runtime().metrics.clear();
  p.ops[2].edit_runtime().metrics.clear();
  PlanTimes u = operator_times(p);
  REQUIRE(u.ops[1].self_ms);
  CHECK(*u.ops[1].self_ms == doctest::Approx(90'000));
  CHECK(u.total_ms == doctest::Approx(100'000));
  CHECK(u.ops[1].basis == "WholeStageCodegen time");
}

TEST_CASE("op time: on every real profile, shares add up and the finding's operator is in the top three" * doctest::test_suite("shared")) {
  auto profiles = real_profiles();
  if (profiles.empty()) {
    test::shared_missing("../shared/corpus/databricks is absent");
    return;
  }
  std::size_t checked_findings = 0;
  for (const auto& path : profiles) {
    INFO(path.filename().string());
    std::string text = test::read_file(path);
    LintResult r = lint_text(text, path.string(), Config{});
    for (std::size_t pi = 0; pi < r.parse.plans.size(); ++pi) {
      const Plan& p = r.parse.plans[pi];
      PlanTimes t = operator_times(p);
      double sum = 0;
      for (std::size_t i = 0; i < p.ops.size(); ++i)
        if (auto s = t.share(i)) {
          CHECK(*s >= 0);
          sum += *s;
        }
      CHECK(sum <= 1.0 + 1e-9);
      // Nothing with time is a wrapper (a codegen stage would hide its members' work under "other").
      for (const auto& row : top_operators(p, t, TopBy::Time, 3))
        CHECK(p.ops[row.op].kind != OpKind::CodegenStage);
    }
    // The operator the photon-fallback / slow-phase finding names, in the top three of `show`.
    auto show = test::run_planlint("show --no-config --color never --width 400 --top 3 '" + path.string() + "'");
    auto ids = show_top_ids(show.out);
    for (const auto& d : r.diagnostics) {
      if ((d.rule != "native-engine-fallback" && d.rule != "slow-phase") || !d.op) continue;
      const Plan& p = r.parse.plans[d.plan_index];
      // Only plans whose operators record time can rank them.
      if (operator_times(p).total_ms <= 0) continue;
      INFO(d.rule << " names " << p.ops[*d.op].name << " (" << p.ops[*d.op].id << "); show's top three: " << show.out);
      CHECK(std::find(ids.begin(), ids.end(), p.ops[*d.op].id) != ids.end());
      ++checked_findings;
    }
  }
  CHECK(checked_findings >= 1);  // profile-01's JVM aggregate at least
}

TEST_CASE("op time: profile-01 (mixed Photon/JVM) puts the JVM aggregate first, not the scan" * doctest::test_suite("shared")) {
  auto shared = test::require_shared();
  if (!shared) return;
  fs::path path = *shared / "corpus" / "databricks" / "profile-01-itagaki-mixed-photon-jvm.json";
  auto show = test::run_planlint("show --no-config --color never --width 400 '" + path.string() + "'");
  auto ids = show_top_ids(show.out);
  INFO(show.out);
  REQUIRE(!ids.empty());
  CHECK(ids[0] == "34648");  // HashAggregate (34648): 14 min 27 s of its own (18 min 43 s less the Photon scan's 4 min 16 s)
  CHECK(show.out.find("14 min 27 s  J HashAggregate (34648)") != std::string::npos);
  CHECK(show.out.find("task time 19 min 19 s; operator time 19 min 13 s") != std::string::npos);
  CHECK(show.out.find("55619 min") == std::string::npos);  // columns never run together
  CHECK(show.out.find("1 operators") == std::string::npos);
  CHECK(show.out.find("1 operator with findings") != std::string::npos);
  // DOT: coloured by share of time (34648 is in the > 50 % band), rows on the edges.
  auto dot = test::run_planlint("show --no-config --format dot '" + path.string() + "'");
  auto at = dot.out.find("HashAggregate (34648)");
  REQUIRE(at != std::string::npos);
  auto eol = dot.out.find('\n', at);
  CHECK(dot.out.substr(at, eol - at).find("fillcolor=\"#fc8d59\"") != std::string::npos);
  CHECK(dot.out.find(" rows\"]") != std::string::npos);
}

TEST_CASE("show: COLUMNS sets the width when --width is not given") {
  fs::path plan = test::corpus_dir() / "examples" / "orders-by-region.explain.txt";
  std::string cmd = std::string("COLUMNS=50 '") + PLANLINT_BINARY + "' show --no-config --color never '" + plan.string() + "'";
  std::string r;
  if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.append(buf, n);
    ::pclose(pipe);
  }
  REQUIRE(!r.empty());
  std::istringstream in(r);
  std::string line;
  std::size_t longest = 0;
  while (std::getline(in, line)) {
    std::size_t cols = 0;
    for (unsigned char c : line) cols += (c & 0xC0) != 0x80;
    longest = std::max(longest, cols);
  }
  CHECK(longest <= 50);
  CHECK(longest >= 40);
}

TEST_CASE("op time: event logs keep each codegen stage's duration, on the stage's top operator") {
  // The plan text never shows the WholeStageCodegen wrapper; its `duration` metric is kept on the
  // stage's top operator, so that the time the stage's operators do not record is not lost.
  LintRequest req;
  req.path = (test::corpus_dir() / "eventlog" / "skewed-join.eventlog").string();
  LintOptions opts;
  opts.finish = false;
  Linted l = lint_input(req, Config{}, opts);
  REQUIRE(l.error.empty());
  REQUIRE_FALSE(l.result.parse.plans.empty());
  const Plan& p = l.result.parse.plans.front();
  std::size_t with_stage_time = 0;
  for (const auto& op : p.ops)
    if (op.metric_value("WholeStageCodegen duration")) {
      ++with_stage_time;
      CHECK(op.codegen_stage);
      CHECK_FALSE(op.duration_ms());  // never taken for the operator's own time
    }
  CHECK(with_stage_time >= 1);
  PlanTimes t = operator_times(p);
  const auto task = p.query.metric_value(Metric::TaskTotalTime);
  REQUIRE(task);
  CHECK(t.total_ms > 0);
  CHECK(t.total_ms <= *task);
  // The join stage's time beyond its sort goes to the stage's top operator (Project (14)).
  auto top = top_operators(p, t, TopBy::Time, 2);
  REQUIRE(top.size() == 2);
  CHECK(p.ops[top[0].op].name == "Project");
  CHECK(t.ops[top[0].op].basis == "WholeStageCodegen time");
  CHECK(p.ops[top[1].op].name == "Sort");
}

TEST_CASE("op time: a RAPIDS GPU operator's `op time` is its exclusive time (event log rt03, NDS q66)") {
  LintRequest req;
  req.path = (test::corpus_dir() / "real-runtime" / "rt03-rapids-nds-q66-gpu-spark313.zstd").string();
  req.display = "rt03.zstd";
  const Linted linted = lint_input(req, Config{}, lint_options(LintMode::Show));
  const ParseResult& r = linted.result.parse;
  REQUIRE(r.plans.size() == 25);
  const Plan& p = r.plans.back();
  const PlanTimes t = operator_times(p);
  std::size_t gpu_timed = 0;
  for (const Operator& op : p.ops)
    if (op.engine == Engine::Gpu && t.ops[op.index].self_ms) {
      ++gpu_timed;
      CHECK(t.ops[op.index].basis == "GPU op time");
      CHECK(*t.ops[op.index].self_ms == doctest::Approx(*op.metric_value("Op time")));
    }
  CHECK(gpu_timed >= 10);  // before: no GPU operator had a time (3.5 s of 12 min 15 s attributed)
  const auto task = p.query.metric_value(Metric::TaskTotalTime);
  REQUIRE(task);
  CHECK(t.total_ms > 30000);
  CHECK(t.total_ms <= *task);
}
