// Unit tests of the troubleshooting-method rules (PL101-PL110) and the per-plan summary, on plans
// built by hand in the model (independent of the readers).
#include <doctest/doctest.h>

#include <algorithm>

#include "lint/engine/summary.hpp"
#include "parser/common/facts_fill.hpp"
#include "rules/rule.hpp"
#include "tests/rules/rule_test_helpers.hpp"

using namespace planlint;
using planlint::test::evidence;

namespace {

struct Builder {
  Plan p;
  std::size_t add(std::string name, OpKind kind, std::vector<std::size_t> children = {}) {
    Operator op;
    op.index = p.ops.size();
    op.id = p.keep(std::to_string(op.index + 1));
    op.name = p.keep(name);
    op.label = op.name;
    op.kind = kind;
    op.children = std::move(children);
    op.loc.line = static_cast<std::uint32_t>(op.index + 1);
    op.loc.column = 1;
    p.ops.push_back(std::move(op));
    return p.ops.size() - 1;
  }
  Operator& op(std::size_t i) { return p.ops[i]; }
  void metric(std::size_t i, std::string label, double v, MetricUnit u = MetricUnit::Count) {
    Metric m;
    m.label = p.keep(label);
    m.value = v;
    m.unit = u;
    p.ops[i].edit_runtime().metrics.push_back(std::move(m));
  }
  void list(std::size_t i, std::string key, std::vector<std::string> items) {
    Field f;
    f.key = p.keep(key);
    f.is_list = true;
    f.count = items.size();
    f.set_items(p.text_store(), items);
    p.ops[i].fields.push_back(std::move(f));
  }
  void field(std::size_t i, std::string key, std::string value) {
    Field f;
    f.key = p.keep(key);
    f.value = p.keep(value);
    p.ops[i].fields.push_back(std::move(f));
  }
  void qmetric(std::string label, double v) {
    Metric m;
    m.label = p.keep(label);
    m.value = v;
    m.unit = MetricUnit::Millis;
    p.query.metrics.push_back(std::move(m));
  }
  Plan& done(std::size_t root) {
    p.roots = {root};
    p.link();
    fill_facts_for_format(p);  // what the reader of this format would have filled
    return p;
  }
};

std::vector<Diagnostic> run(const Plan& plan, std::string_view rule_name,
                            const std::map<std::string, double>& overrides = {}) {
  const Rule* rule = find_rule(rule_name);
  REQUIRE(rule != nullptr);
  std::vector<Diagnostic> out;
  RuleContext ctx(plan, 0, rule->doc(), &overrides, out);
  rule->check(ctx);
  for (const auto& d : out) {
    CHECK(d.rule == rule_name);
    CHECK(!d.message.empty());
    CHECK(!d.fix.empty());
    CHECK(!d.evidence.empty());
  }
  return out;
}

// A profile-like query with the given phase times.
Builder phases(double total, double provisioning, double overload, double compile, double exec, double fetch,
               double task) {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  b.qmetric("totalTimeMs", total);
  b.qmetric("queuedProvisioningTimeMs", provisioning);
  b.qmetric("queuedOverloadTimeMs", overload);
  b.qmetric("compilationTimeMs", compile);
  b.qmetric("executionTimeMs", exec);
  b.qmetric("resultFetchTimeMs", fetch);
  b.qmetric("taskTotalTimeMs", task);
  b.add("Adaptive Plan", OpKind::AdaptivePlan);
  b.p.adaptive = true;
  return b;
}

}  // namespace

TEST_CASE("every method rule is registered with a complete doc") {
  for (const char* name : {"slow-phase", "low-file-pruning", "small-files", "disk-spill", "python-udf",
                           "duplicate-work", "wide-projection", "aqe-disabled", "single-partition-shuffle"}) {
    const Rule* r = find_rule(name);
    REQUIRE_MESSAGE(r != nullptr, name);
    const RuleDoc& d = r->doc();
    CHECK(d.code.substr(0, 3) == "PL1");
    CHECK(!d.summary.empty());
    CHECK(!d.what.empty());
    CHECK(!d.why.empty());
    CHECK(!d.example.empty());
    CHECK(!d.use_instead.empty());
    CHECK(!d.evidence.empty());
    for (const auto& t : d.thresholds) CHECK(!t.description.empty());
    CHECK(find_rule(d.code) == r);
  }
}

TEST_CASE("slow-phase: cold start, queueing, compilation, result fetch, cache, low parallelism") {
  SUBCASE("waiting for compute dominates") {
    Builder b = phases(52000, 45000, 0, 400, 6500, 100, 60000);
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("waiting for compute took 45.0 s of 52.0 s (87%)") != std::string::npos);
    CHECK(ds[0].fix.find("serverless") != std::string::npos);
    CHECK(ds[0].impact == doctest::Approx(45000));
    CHECK(!ds[0].op.has_value());
  }
  SUBCASE("queueing dominates") {
    Builder b = phases(30000, 0, 20000, 300, 9600, 100, 90000);
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("queued at capacity") != std::string::npos);
    CHECK(ds[0].fix.find("clusters") != std::string::npos);
  }
  SUBCASE("compilation dominates") {
    Builder b = phases(14000, 0, 0, 12000, 1900, 100, 9000);
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("compilation took 12.0 s") != std::string::npos);
    // No scan states its format: every format's compaction, named by format.
    CHECK(ds[0].fix.find("Delta: OPTIMIZE") != std::string::npos);
    CHECK(ds[0].fix.find("Iceberg: the rewrite_data_files procedure") != std::string::npos);
    CHECK(ds[0].fix.find("Delta log") != std::string::npos);
  }
  SUBCASE("compilation dominates, the query reads an Iceberg table: no Delta advice") {
    Builder b = phases(14000, 0, 0, 12000, 1900, 100, 9000);
    auto scan = b.add("BatchScan cat.db.t", OpKind::Scan);
    b.op(0).children = {scan};
    Plan& plan = b.done(0);
    if (!plan.ops[scan].scan) plan.ops[scan].scan = SharedPart<ScanFacts>::make();
    plan.ops[scan].scan->source = ScanSource::Iceberg;
    auto ds = run(plan, "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].fix.find("the rewrite_data_files procedure") != std::string::npos);
    CHECK(ds[0].fix.find("OPTIMIZE") == std::string::npos);
    CHECK(ds[0].fix.find("Delta") == std::string::npos);
  }
  SUBCASE("result fetch dominates") {
    Builder b = phases(20000, 0, 0, 300, 4000, 15700, 30000);
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("client") != std::string::npos);
  }
  SUBCASE("near miss: execution dominates with good parallelism") {
    Builder b = phases(22098, 0, 0, 512, 21504, 47, 1159125);
    CHECK(run(b.done(0), "slow-phase").empty());
  }
  SUBCASE("near miss: a short compilation-dominated query") {
    Builder b = phases(1500, 0, 0, 1000, 400, 100, 800);
    CHECK(run(b.done(0), "slow-phase").empty());
  }
  SUBCASE("long execution with parallelism near 1") {
    Builder b = phases(120000, 0, 0, 500, 119000, 500, 130000);
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("effective parallelism of 1.1") != std::string::npos);
  }
  SUBCASE("near miss: the same with a failed job (its task time counts only the tasks that succeeded)") {
    Builder b = phases(120000, 0, 0, 500, 119000, 500, 130000);
    b.p.jobs.push_back({"3", JobStatus::Failed, "Job aborted due to stage failure", {"7"}});
    CHECK(b.p.task_times_partial());
    CHECK(run(b.done(0), "slow-phase").empty());
  }
  SUBCASE("near miss: the same with a stage that failed") {
    Builder b = phases(120000, 0, 0, 500, 119000, 500, 130000);
    StageInfo st;
    st.id = "7";
    st.status = StageStatus::Failed;
    b.p.stages.push_back(st);
    CHECK(run(b.done(0), "slow-phase").empty());
  }
  SUBCASE("result cache") {
    Builder b = phases(300, 0, 0, 0, 0, 300, 0);
    b.p.query.result_from_cache = true;
    auto ds = run(b.done(0), "slow-phase");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].severity == Severity::Info);
    CHECK(ds[0].message.find("result cache") != std::string::npos);
  }
  SUBCASE("explain text: no timings, no finding") {
    Builder b;
    b.add("Project", OpKind::Project);
    CHECK(run(b.done(0), "slow-phase").empty());
  }
}

namespace {
// Scan -> Filter -> Project with file and row metrics.
Builder pruning_plan(double files_read, double files_pruned, double bytes, double scanned, double out_rows) {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  auto scan = b.add("Scan db.sales", OpKind::Scan);
  b.op(scan).set_table("db.sales");
  b.op(scan).edit_runtime().rows = out_rows;
  b.op(scan).edit_runtime().duration_ms = 100000;
  b.metric(scan, "Files read", files_read);
  b.metric(scan, "Files pruned", files_pruned);
  b.metric(scan, "Size of files read", bytes, MetricUnit::Bytes);
  b.metric(scan, "Rows scanned", scanned);
  b.list(scan, "FILTERS", {"(s.customer_id IS NOT NULL)", "(s.customer_id = 42)"});
  b.list(scan, "SCAN_CLUSTERS", {"sale_date"});
  b.add("Project", OpKind::Project, {scan});
  return b;
}
}  // namespace

TEST_CASE("low-file-pruning") {
  SUBCASE("selective scan reading every file") {
    Builder b = pruning_plan(1950, 50, 200e9, 2.1e9, 3200);
    auto ds = run(b.done(1), "low-file-pruning");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].operator_id == "1");
    CHECK(ds[0].message.find("read 1,950 of 2,000 files (98%") != std::string::npos);
    CHECK(evidence(ds[0], "predicate")->value == "(s.customer_id = 42)");
    CHECK(evidence(ds[0], "clustering columns")->value == "sale_date");
    CHECK(ds[0].fix.find("CLUSTER BY") != std::string::npos);
    CHECK(ds[0].impact_unit == "ms");
  }
  SUBCASE("near miss: the pruning worked") {
    Builder b = pruning_plan(50, 1950, 5e9, 2.1e7, 3200);
    CHECK(run(b.done(1), "low-file-pruning").empty());
  }
  SUBCASE("near miss: not selective (the filters keep most rows)") {
    Builder b = pruning_plan(2000, 0, 200e9, 2.1e9, 2.0e9);
    CHECK(run(b.done(1), "low-file-pruning").empty());
  }
  SUBCASE("near miss: no pruned-file count (explain text, event log)") {
    Builder b;
    auto scan = b.add("Scan parquet db.sales", OpKind::Scan);
    b.metric(scan, "number of files read", 2000);
    CHECK(run(b.done(scan), "low-file-pruning").empty());
  }
}

TEST_CASE("small-files") {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  auto scan = b.add("Scan db.events", OpKind::Scan);
  b.op(scan).set_table("db.events");
  b.metric(scan, "Files read", 48000);
  b.metric(scan, "Size of files read", 48000.0 * 200 * 1024, MetricUnit::Bytes);
  b.metric(scan, "Executor time IO wait - fetch footers", 90000, MetricUnit::Millis);
  auto ds = run(b.done(scan), "small-files");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.find("48,000 files of 200.0 KiB on average") != std::string::npos);
  CHECK(ds[0].fix.find("OPTIMIZE db.events") != std::string::npos);
  CHECK(ds[0].impact == doctest::Approx(90000));

  SUBCASE("near miss: large files") {
    Builder n;
    n.p.format = InputFormat::QueryProfile;
    auto s = n.add("Scan db.t", OpKind::Scan);
    n.metric(s, "Files read", 2100);
    n.metric(s, "Size of files read", 119364325312.0, MetricUnit::Bytes);  // ~54 MiB average
    CHECK(run(n.done(s), "small-files").empty());
  }
  SUBCASE("near miss: few files") {
    Builder n;
    n.p.format = InputFormat::EventLog;
    auto s = n.add("Scan db.t", OpKind::Scan);
    n.metric(s, "number of files read", 150);
    n.metric(s, "size of files read", 150.0 * 1024, MetricUnit::Bytes);
    CHECK(run(n.done(s), "small-files").empty());
  }
}

namespace {
// The scan's table format, as a reader states it (ScanFacts::source, ScanFacts::format).
void set_table_format(Plan& plan, std::size_t scan, ScanSource source, const std::string& format) {
  if (!plan.ops[scan].scan) plan.ops[scan].scan = SharedPart<ScanFacts>::make();
  plan.ops[scan].scan->source = source;
  plan.ops[scan].scan->format = format;
}

std::string small_files_fix(ScanSource source, const std::string& format) {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  auto scan = b.add("Scan cat.db.events", OpKind::Scan);
  b.op(scan).set_table("cat.db.events");
  b.metric(scan, "Files read", 48000);
  b.metric(scan, "Size of files read", 48000.0 * 200 * 1024, MetricUnit::Bytes);
  Plan& plan = b.done(scan);
  set_table_format(plan, scan, source, format);
  auto ds = run(plan, "small-files");
  REQUIRE(ds.size() == 1);
  return ds[0].fix;
}

std::string pruning_fix(ScanSource source, const std::string& format) {
  Builder b = pruning_plan(1950, 50, 200e9, 2.1e9, 3200);
  Plan& plan = b.done(1);
  set_table_format(plan, 0, source, format);
  auto ds = run(plan, "low-file-pruning");
  REQUIRE(ds.size() == 1);
  return ds[0].fix;
}

bool has(const std::string& s, std::string_view needle) { return s.find(needle) != std::string::npos; }
}  // namespace

TEST_CASE("small-files, low-file-pruning: the remedy in the words of the scan's table format") {
  // Delta: OPTIMIZE, auto compaction, liquid clustering.
  std::string delta = small_files_fix(ScanSource::Delta, "parquet");
  CHECK(has(delta, "`OPTIMIZE cat.db.events`"));
  CHECK(has(delta, "delta.autoOptimize"));
  CHECK(!has(delta, "rewrite_data_files"));
  CHECK(has(pruning_fix(ScanSource::Delta, "delta"), "CLUSTER BY"));
  // Iceberg: the rewrite_data_files procedure in the table's catalog, a sort order; no OPTIMIZE.
  std::string iceberg = small_files_fix(ScanSource::Iceberg, "iceberg");
  CHECK(has(iceberg, "`CALL cat.system.rewrite_data_files(table => 'db.events')`"));
  CHECK(!has(iceberg, "OPTIMIZE"));
  CHECK(!has(iceberg, "delta."));
  std::string iceberg_pruning = pruning_fix(ScanSource::Iceberg, "iceberg");
  CHECK(has(iceberg_pruning, "WRITE ORDERED BY"));
  CHECK(has(iceberg_pruning, "rewrite_data_files(table => 'db.sales', strategy => 'sort')"));  // no catalog part
  CHECK(has(iceberg_pruning, "CALL <catalog>.system."));
  CHECK(!has(iceberg_pruning, "OPTIMIZE"));
  CHECK(!has(iceberg_pruning, "CLUSTER BY"));
  // Plain Parquet / ORC files and Hive tables: rewritten by a Spark job; no OPTIMIZE, no procedure.
  for (ScanSource plain : {ScanSource::File, ScanSource::Hive}) {
    std::string files = small_files_fix(plain, "orc");
    CHECK(has(files, "REBALANCE"));
    CHECK(has(files, "maxRecordsPerFile"));
    CHECK(!has(files, "OPTIMIZE"));
    CHECK(!has(files, "rewrite_data_files"));
    std::string sorted = pruning_fix(plain, "parquet");
    CHECK(has(sorted, "sortWithinPartitions"));
    CHECK(!has(sorted, "OPTIMIZE"));
  }
  // A scan whose format the input does not state: each format's remedy, named by format.
  std::string unknown = small_files_fix(ScanSource::Unknown, "");
  CHECK(has(unknown, "Delta `OPTIMIZE cat.db.events`"));
  CHECK(has(unknown, "Iceberg `CALL cat.system.rewrite_data_files"));
  CHECK(has(unknown, "plain Parquet/ORC files: "));
}

TEST_CASE("disk-spill") {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  auto scan = b.add("Scan t", OpKind::Scan);
  auto agg = b.add("Grouping Aggregate", OpKind::Aggregate, {scan});
  b.op(agg).edit_runtime().duration_ms = 39361779;
  b.op(agg).edit_runtime().extra.edit().peak_memory_bytes = 2367378423808;
  b.metric(agg, "Num bytes spilled to disk due to memory pressure", 446081360034, MetricUnit::Bytes);
  b.metric(agg, "Num spills to disk due to memory pressure", 1182);
  auto join = b.add("Inner Join", OpKind::Join, {agg});
  b.metric(join, "Num bytes spilled from left side", 600e6, MetricUnit::Bytes);
  b.metric(join, "Num bytes spilled from right side", 600e6, MetricUnit::Bytes);
  auto small = b.add("Sort", OpKind::Sort, {join});
  b.metric(small, "Spill size", 10e6, MetricUnit::Bytes);
  auto ds = run(b.done(small), "disk-spill");
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].operator_name == "Grouping Aggregate");
  CHECK(ds[0].message.find("spilled 415.4 GiB to disk in 1,182 spills") != std::string::npos);
  CHECK(ds[0].impact == doctest::Approx(39361779));
  CHECK(ds[0].fix.find("shuffle partitions") != std::string::npos);
  CHECK(ds[1].operator_name == "Inner Join");  // left + right sides summed: 1.2 GB
  CHECK(evidence(ds[1], "spilled bytes")->number == doctest::Approx(1.2e9));

  SUBCASE("query-level spill without operator metrics") {
    Builder q;
    q.p.format = InputFormat::QueryProfile;
    q.qmetric("spillToDiskBytes", 5e9);
    q.add("Project", OpKind::Project);
    auto qs = run(q.done(0), "disk-spill");
    REQUIRE(qs.size() == 1);
    CHECK(qs[0].message.find("the query spilled 4.7 GiB") != std::string::npos);
  }
  SUBCASE("near miss: a small spill") {
    Builder q;
    q.p.format = InputFormat::EventLog;
    auto s = q.add("Sort", OpKind::Sort);
    q.metric(s, "Spill size", 200e6, MetricUnit::Bytes);
    CHECK(run(q.done(s), "disk-spill").empty());
  }
}

TEST_CASE("python-udf") {
  Builder b;
  auto scan = b.add("Scan parquet db.people", OpKind::Scan);
  auto py = b.add("BatchEvalPython", OpKind::PythonEval, {scan});
  b.op(py).arguments = "[clean(name#2)#10], [pythonUDF0#11]";
  auto arrow = b.add("ArrowEvalPython", OpKind::PythonEval, {py});
  b.op(arrow).arguments = "[score(x#3)#12], [pythonUDF1#13], 200";
  auto proj = b.add("Project", OpKind::Project, {arrow});
  auto ds = run(b.done(proj), "python-udf");
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].severity == Severity::Warning);
  CHECK(ds[0].message.find("[clean(name#2)#10]") != std::string::npos);
  CHECK(ds[0].message.find("one row at a time") != std::string::npos);
  CHECK(ds[0].fix.find("built-in") != std::string::npos);
  CHECK(ds[1].severity == Severity::Info);

  SUBCASE("near miss: the AQE initial plan copy is not reported twice") {
    Builder n;
    auto a = n.add("BatchEvalPython", OpKind::PythonEval);
    n.op(a).section = Section::AqeFinal;
    auto c = n.add("BatchEvalPython", OpKind::PythonEval);
    n.op(c).section = Section::AqeInitial;
    CHECK(run(n.done(a), "python-udf").size() == 1);
  }
}

TEST_CASE("duplicate-work") {
  Builder b;
  auto s1 = b.add("Scan parquet db.events", OpKind::Scan);
  b.op(s1).set_table("db.events");
  b.list(s1, "Output", {"user#1", "day#2"});
  b.list(s1, "PartitionFilters", {"isnotnull(day#2)", "(day#2 >= 2024-01-01)"});
  auto f1 = b.add("Filter", OpKind::Filter, {s1});
  b.field(f1, "Condition", "(user#1 = 5)");
  auto a1 = b.add("HashAggregate", OpKind::Aggregate, {f1});
  auto s2 = b.add("Scan parquet db.events", OpKind::Scan);
  b.op(s2).set_table("db.events");
  b.list(s2, "Output", {"user#21", "day#22"});
  b.list(s2, "PartitionFilters", {"isnotnull(day#22)", "(day#22 >= 2024-01-01)"});
  auto f2 = b.add("Filter", OpKind::Filter, {s2});
  b.field(f2, "Condition", "(user#21 = 5)");
  auto a2 = b.add("HashAggregate", OpKind::Aggregate, {f2});
  auto u = b.add("Union", OpKind::Union, {a1, a2});
  Plan& plan = b.done(u);
  auto ds = run(plan, "duplicate-work");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].operator_id == "4");
  CHECK(ds[0].message.find("computed 2 times") != std::string::npos);
  CHECK(ds[0].severity == Severity::Info);  // no measured size: the cost is unknown

  SUBCASE("near miss: different filter") {
    plan.ops[f2].fields[0].value = "(user#21 = 6)";
    CHECK(run(plan, "duplicate-work").empty());
  }
  SUBCASE("near miss: measured and small") {
    Metric m;
    m.label = "Size of files read";
    m.id = Metric::FilesReadBytes;  // added after the fill: what the profile reader's table sets
    m.value = 10e6;
    plan.ops[s2].edit_runtime().metrics.push_back(m);
    CHECK(run(plan, "duplicate-work").empty());
  }
  SUBCASE("many copies: the first 20 listed, the rest counted") {
    Builder n;
    std::vector<std::size_t> aggs;
    for (int i = 0; i < 25; ++i) {
      auto s = n.add("Scan parquet db.events", OpKind::Scan);
      n.op(s).set_table("db.events");
      n.list(s, "Output", {"user#" + std::to_string(100 + i)});
      aggs.push_back(n.add("HashAggregate", OpKind::Aggregate, {s}));
    }
    auto top = n.add("Union", OpKind::Union, aggs);
    auto many = run(n.done(top), "duplicate-work");
    REQUIRE(many.size() == 1);
    CHECK(many[0].message.find("computed 25 times") != std::string::npos);
    CHECK(evidence(many[0], "copies")->number == doctest::Approx(25));
    CHECK(std::count_if(many[0].evidence.begin(), many[0].evidence.end(),
                        [](const Evidence& e) { return e.name == "copy"; }) == 20);
    REQUIRE(evidence(many[0], "copies not listed") != nullptr);
    CHECK(evidence(many[0], "copies not listed")->number == doctest::Approx(5));
  }
}

TEST_CASE("wide-projection") {
  Builder b;
  auto scan = b.add("Scan parquet db.sales", OpKind::Scan);
  std::vector<std::string> cols;
  for (int i = 0; i < 12; ++i) cols.push_back("c" + std::to_string(i) + "#" + std::to_string(i + 100));
  b.list(scan, "Output", cols);
  auto filter = b.add("Filter", OpKind::Filter, {scan});
  b.field(filter, "Condition", "(isnotnull(c1#101) AND (c1#101 > 5))");
  auto proj = b.add("Project", OpKind::Project, {filter});
  b.list(proj, "Output", {"c0#100", "(c2#102 * 2) AS x#200"});
  b.list(proj, "Input", cols);
  auto ds = run(b.done(proj), "wide-projection");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.find("reads 12 columns but Project (3)") != std::string::npos);
  CHECK(evidence(ds[0], "columns used")->number == doctest::Approx(3));

  SUBCASE("near miss: through a join the use is unknown") {
    Builder n;
    auto s = n.add("Scan parquet db.sales", OpKind::Scan);
    n.list(s, "Output", cols);
    auto other = n.add("Scan parquet db.x", OpKind::Scan);
    auto j = n.add("BroadcastHashJoin", OpKind::Join, {s, other});
    CHECK(run(n.done(j), "wide-projection").empty());
  }
  SUBCASE("near miss: profile names all used by the aggregate") {
    Builder n;
    n.p.format = InputFormat::QueryProfile;
    auto s = n.add("Scan db.customer", OpKind::Scan);
    std::vector<std::string> names;
    for (int i = 0; i < 10; ++i) names.push_back("col_" + std::to_string(i));
    n.list(s, "OUTPUT", names);
    auto a = n.add("Grouping Aggregate", OpKind::Aggregate, {s});
    std::vector<std::string> keys;
    for (const auto& nm : names) keys.push_back("db.customer." + nm);
    n.list(a, "GROUPING_EXPRESSIONS", keys);
    CHECK(run(n.done(a), "wide-projection").empty());
  }
}

TEST_CASE("aqe-disabled") {
  Builder b;
  auto scan = b.add("Scan parquet db.t", OpKind::Scan);
  auto ex = b.add("Exchange", OpKind::Exchange, {scan});
  auto agg = b.add("HashAggregate", OpKind::Aggregate, {ex});
  Plan& plan = b.done(agg);
  auto ds = run(plan, "aqe-disabled");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].operator_id == "3");
  CHECK(ds[0].message.find("1 shuffle exchange but no AdaptiveSparkPlan") != std::string::npos);
  SUBCASE("near miss: adaptive") {
    plan.adaptive = true;
    CHECK(run(plan, "aqe-disabled").empty());
  }
  SUBCASE("near miss: no shuffle") {
    Builder n;
    n.add("Scan parquet db.t", OpKind::Scan);
    CHECK(run(n.done(0), "aqe-disabled").empty());
  }
  SUBCASE("near miss: streaming") {
    Builder n;
    auto s = n.add("Scan parquet db.t", OpKind::Scan);
    auto e = n.add("Exchange", OpKind::Exchange, {s});
    auto save = n.add("StateStoreSave", OpKind::Aggregate, {e});
    CHECK(run(n.done(save), "aqe-disabled").empty());
  }
}

TEST_CASE("single-partition-shuffle") {
  Builder b;
  b.p.format = InputFormat::QueryProfile;
  auto scan = b.add("Scan db.events", OpKind::Scan);
  auto ex = b.add("Shuffle", OpKind::Exchange, {scan});
  b.field(ex, "PARTITIONING_TYPE", "Single");
  b.metric(ex, "Sink - Num bytes written", 48e9, MetricUnit::Bytes);
  b.op(ex).edit_runtime().duration_ms = 600000;
  auto win = b.add("Window", OpKind::Window, {ex});
  b.op(win).edit_runtime().duration_ms = 900000;
  Plan& plan = b.done(win);
  auto ds = run(plan, "single-partition-shuffle");
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.find("moves 44.7 GiB into a single partition") != std::string::npos);
  CHECK(ds[0].message.find("window function without PARTITION BY") != std::string::npos);
  CHECK(ds[0].impact == doctest::Approx(1500000));
  SUBCASE("near miss: small final merge") {
    plan.ops[ex].edit_runtime().metrics[0].value = 391;
    CHECK(run(plan, "single-partition-shuffle").empty());
  }
  SUBCASE("near miss: text without size evidence") {
    Builder n;
    auto s = n.add("Scan parquet db.t", OpKind::Scan);
    auto e = n.add("Exchange", OpKind::Exchange, {s});
    n.op(e).arguments = "SinglePartition, ENSURE_REQUIREMENTS, [plan_id=40]";
    CHECK(run(n.done(e), "single-partition-shuffle").empty());
  }
  SUBCASE("text with AQE statistics") {
    Builder n;
    auto s = n.add("Scan parquet db.t", OpKind::Scan);
    auto e = n.add("Exchange", OpKind::Exchange, {s});
    n.op(e).arguments = "SinglePartition, ENSURE_REQUIREMENTS, [plan_id=40]";
    auto st = n.add("ShuffleQueryStage", OpKind::QueryStage, {e});
    n.op(st).edit_runtime().stats.edit().size_bytes = 3.0 * 1024 * 1024 * 1024;
    auto lim = n.add("GlobalLimit", OpKind::Limit, {st});
    auto r = run(n.done(lim), "single-partition-shuffle");
    REQUIRE(r.size() == 1);
    CHECK(r[0].message.find("LIMIT") != std::string::npos);
  }
}

// An event-log write: Scan -> Exchange (the given partitioning and shuffle bytes) -> WriteFiles,
// the exchange linked to map stage 5 and reading stage 7 (the given tasks and median task time).
Builder sized_shuffle(const std::string& args, double bytes, double parts, double tasks, double median_ms,
                      bool adaptive = false) {
  Builder b;
  b.p.format = InputFormat::EventLog;
  auto scan = b.add("Scan parquet", OpKind::Scan);
  auto ex = b.add("Exchange", OpKind::Exchange, {scan});
  b.op(ex).arguments = b.p.keep(args);
  b.metric(ex, "Shuffle bytes written", bytes, MetricUnit::Bytes);
  b.metric(ex, "Number of partitions", parts);
  b.op(ex).edit_runtime().extra.edit().spark_stages = {5, 7};
  auto top = ex;
  if (adaptive) {
    top = b.add("ShuffleQueryStage", OpKind::QueryStage, {ex});
    b.p.adaptive = true;
    b.p.is_final_plan = true;
  }
  auto write = b.add("WriteFiles", OpKind::Write, {top});
  StageInfo map;
  map.id = "5";
  map.num_tasks = 34;
  map.task_ms_median = 15000;
  map.operators = {scan, ex};
  StageInfo reduce;
  reduce.id = "7";
  reduce.num_tasks = tasks;
  reduce.duration_ms = median_ms * 1.2;
  reduce.task_ms_median = median_ms;
  reduce.task_ms_max = median_ms * 1.2;
  reduce.operators = {write, ex};
  b.p.stages = {map, reduce};
  b.done(write);
  return b;
}

TEST_CASE("shuffle-partition-sizing") {
  SUBCASE("too few: repartition(2) of 10 GiB, four-minute tasks") {
    Builder b = sized_shuffle("RoundRobinPartitioning(2), REPARTITION_BY_NUM, [plan_id=80]", 10758165882, 2, 2,
                              243182, true);
    auto ds = run(b.p, "shuffle-partition-sizing");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("shuffles 10.0 GiB into 2 partitions, 5.0 GiB each") != std::string::npos);
    CHECK(ds[0].message.find("too few partitions") != std::string::npos);
    CHECK(ds[0].message.find("stage 7") != std::string::npos);
    // 10,758,165,882 B / 128 MiB = 80.2 -> 81 partitions of 126.7 MiB.
    CHECK(ds[0].fix.find("repartition(81)") != std::string::npos);
    CHECK(ds[0].fix.find("spark.sql.shuffle.partitions") == std::string::npos);
    REQUIRE(evidence(ds[0], "bytes per partition"));
    CHECK(*evidence(ds[0], "bytes per partition")->number == doctest::Approx(10758165882.0 / 2));
    CHECK(evidence(ds[0], "shuffle origin")->value == "REPARTITION_BY_NUM");
  }
  SUBCASE("too few: a join shuffle of 194 GiB into 64 partitions names spark.sql.shuffle.partitions") {
    Builder b = sized_shuffle("hashpartitioning(k#1, 64), ENSURE_REQUIREMENTS, [plan_id=9]", 194.0 * (1 << 30), 64, 64,
                              600000);
    auto ds = run(b.p, "shuffle-partition-sizing");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("194.0 GiB into 64 partitions, 3.0 GiB each") != std::string::npos);
    CHECK(ds[0].fix.find("spark.sql.shuffle.partitions to at least 1,552") != std::string::npos);
  }
  SUBCASE("near miss: large partitions but fast reduce tasks") {
    Builder b = sized_shuffle("RoundRobinPartitioning(2), REPARTITION_BY_NUM, [plan_id=80]", 10758165882, 2, 2,
                              59000, true);
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("near miss: partitions under 8x the target") {
    // 64 partitions of 1 GiB minus one byte each: just under too-few-factor x target.
    Builder b = sized_shuffle("hashpartitioning(k#1, 64), ENSURE_REQUIREMENTS, [plan_id=9]",
                              64.0 * ((1 << 30) - 1), 64, 64, 600000);
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("near miss: one partition is single-partition-shuffle's") {
    Builder b = sized_shuffle("SinglePartition, ENSURE_REQUIREMENTS, [plan_id=9]", 20e9, 1, 1, 600000);
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("near miss: AQE split the skewed partitions") {
    Builder b = sized_shuffle("hashpartitioning(k#1, 16), ENSURE_REQUIREMENTS, [plan_id=9]", 100e9, 16, 16, 600000,
                              true);
    b.metric(1, "Number of skewed partition splits", 101);
    b.op(1).edit_runtime().metrics.back().id = Metric::SkewedPartitionSplits;  // what the event-log reader's name table sets
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("too few: spill in the reader instead of long tasks") {
    Builder b = sized_shuffle("hashpartitioning(k#1, 64), ENSURE_REQUIREMENTS, [plan_id=9]", 194.0 * (1 << 30), 64, 64,
                              1000);
    b.metric(2, "Spill size", 5.0 * (1 << 30), MetricUnit::Bytes);
    b.op(2).edit_runtime().metrics.back().id = Metric::SpillSize;
    auto ds = run(b.p, "shuffle-partition-sizing");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("readers spilled 5.0 GiB") != std::string::npos);
  }
  SUBCASE("too many: 400 tiny partitions with AQE off") {
    Builder b = sized_shuffle("hashpartitioning(k#8L, 400), ENSURE_REQUIREMENTS, [plan_id=39]", 11346, 400, 400, 5);
    auto ds = run(b.p, "shuffle-partition-sizing");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("splits 11.1 KiB into 400 partitions") != std::string::npos);
    CHECK(ds[0].message.find("AQE off") != std::string::npos);
    CHECK(ds[0].fix.find("spark.sql.adaptive.enabled=true") != std::string::npos);
    CHECK(*evidence(ds[0], "average bytes per partition")->number == doctest::Approx(11346.0 / 400));
  }
  SUBCASE("near miss: 399 partitions") {
    Builder b = sized_shuffle("hashpartitioning(k#8L, 399), ENSURE_REQUIREMENTS, [plan_id=39]", 11346, 399, 399, 5);
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("near miss: partitions above 1 MiB on average") {
    Builder b = sized_shuffle("hashpartitioning(k#8L, 400), ENSURE_REQUIREMENTS, [plan_id=39]", 400.0 * (1 << 20) + 400,
                              400, 400, 5);
    CHECK(run(b.p, "shuffle-partition-sizing").empty());
  }
  SUBCASE("near miss: AQE coalesced the partitions") {
    Builder b;
    b.p.format = InputFormat::EventLog;
    b.p.adaptive = true;
    b.p.is_final_plan = true;
    auto scan = b.add("Scan parquet", OpKind::Scan);
    auto ex = b.add("Exchange", OpKind::Exchange, {scan});
    b.op(ex).arguments = b.p.keep("hashpartitioning(k#8L, 400), ENSURE_REQUIREMENTS, [plan_id=44]");
    b.metric(ex, "Shuffle bytes written", 11346, MetricUnit::Bytes);
    b.metric(ex, "Number of partitions", 400);
    auto qs = b.add("ShuffleQueryStage", OpKind::QueryStage, {ex});
    auto rd = b.add("AQEShuffleRead", OpKind::ShuffleRead, {qs});
    b.op(rd).arguments = b.p.keep("coalesced");
    auto agg = b.add("HashAggregate", OpKind::Aggregate, {rd});
    CHECK(run(b.done(agg), "shuffle-partition-sizing").empty());
  }
  SUBCASE("too many: repartition(5000) is kept as asked even with AQE on") {
    Builder b = sized_shuffle("RoundRobinPartitioning(5000), REPARTITION_BY_NUM, [plan_id=3]", 50e6, 5000, 5000, 20,
                              true);
    auto ds = run(b.p, "shuffle-partition-sizing");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].fix.find("repartition(1)") != std::string::npos);
  }
  SUBCASE("silent on explain text: no measured bytes") {
    Builder b;
    auto scan = b.add("Scan parquet", OpKind::Scan);
    auto ex = b.add("Exchange", OpKind::Exchange, {scan});
    b.op(ex).arguments = b.p.keep("RoundRobinPartitioning(2), REPARTITION_BY_NUM, [plan_id=80]");
    auto qs = b.add("ShuffleQueryStage", OpKind::QueryStage, {ex});
    b.op(qs).edit_runtime().stats.edit().size_bytes = 40.0 * (1 << 30);
    b.p.adaptive = true;
    auto w = b.add("WriteFiles", OpKind::Write, {qs});
    CHECK(run(b.done(w), "shuffle-partition-sizing").empty());
    Builder m;
    auto s2 = m.add("Scan parquet", OpKind::Scan);
    auto e2 = m.add("Exchange", OpKind::Exchange, {s2});
    m.op(e2).arguments = m.p.keep("hashpartitioning(k#1, 5000), ENSURE_REQUIREMENTS, [plan_id=1]");
    auto a2 = m.add("HashAggregate", OpKind::Aggregate, {e2});
    CHECK(run(m.done(a2), "shuffle-partition-sizing").empty());
  }
}

TEST_CASE("summary: verdict and top findings by estimated cost") {
  LintResult r;
  Builder b = phases(342378, 0, 0, 1576, 340613, 60, 79678915);
  r.parse.plans.push_back(b.done(0));
  Builder t;
  t.add("Project", OpKind::Project);
  r.parse.plans.push_back(t.done(0));
  auto diag = [](std::string rule, std::size_t plan, std::optional<double> impact, std::string unit) {
    Diagnostic d;
    d.rule = std::move(rule);
    d.plan_index = plan;
    d.impact = impact;
    d.impact_unit = std::move(unit);
    d.operator_name = "Op";
    return d;
  };
  r.diagnostics = {diag("slow-phase", 0, 1e9, "ms"),        diag("small-files", 0, 5000, "files"),
                   diag("disk-spill", 0, 39361779, "ms"),   diag("wide-projection", 0, 1e12, "bytes"),
                   diag("python-udf", 0, std::nullopt, ""), diag("low-file-pruning", 0, 640223, "ms")};
  auto s = summarize(r);
  REQUIRE(s.size() == 2);
  CHECK(s[0].phase == "execution");
  CHECK(s[0].verdict.find("execution-bound: execution 5 min 41 s of 5 min 42 s (99%)") == 0);
  REQUIRE(s[0].top.size() == 3);
  CHECK(s[0].top[0].rule == "disk-spill");
  CHECK(s[0].top[1].rule == "low-file-pruning");
  CHECK(s[0].top[2].rule == "wide-projection");
  CHECK(s[0].line.find("top findings: 1. disk-spill at Op") != std::string::npos);
  CHECK(s[1].phase == "unknown");
  CHECK(s[1].line == "plan 2: no phase timings in this input; no findings");
}
