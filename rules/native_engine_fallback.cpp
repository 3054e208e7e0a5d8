// native-engine-fallback (PL007; formerly photon-fallback): operators of a Photon, Gluten/Velox or
// Comet plan that ran on the JVM engine.
#include <algorithm>
#include <cstdio>
#include <memory>

#include <cctype>

#include "model/engine_regions.hpp"
#include "model/op_time.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "native-engine-fallback";
  d.code = "PL007";
  // Named photon-fallback until Gluten/Velox and Comet plans were checked too: the old name still
  // selects, ignores and suppresses it.
  d.aliases = {"photon-fallback"};
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "Part of a Photon, Gluten/Velox or Comet plan fell back to the row-based JVM engine";
  d.what =
      "In a plan that runs on Photon (or on Apache Gluten with Velox, or Apache Comet), finds the operators "
      "that do real work on the JVM engine on top of native operators: entered through `ColumnarToRow` "
      "(profile `Columnar To Row`, Gluten `VeloxColumnarToRowExec`, `CometColumnarToRow`) and possibly left "
      "again through a row-to-columnar transition; and the JVM operators below a native pipeline that feed it "
      "through a row-to-columnar transition (a scan the engine could not offload, such as Gluten's `Scan hive` "
      "under `RowToVeloxColumnar`). One finding per connected JVM region, on the operator where the "
      "region starts, with its rows and time where known, the Photon share of task time and the "
      "unsupported expression when the `== Photon Explanation ==` section (or Comet's `[COMET: ...]` note) names it (which is also "
      "reported by itself when the plan has no operators). The final `ColumnarToRow` that returns "
      "results, AQE wrappers (AdaptiveSparkPlan, query stages, shuffle reads) and reused exchanges are "
      "not fallback, nor is a Photon Explanation that names only the driver-side `CollectLimit` / "
      "`CollectTail` that returns the first rows.";
  d.why =
      "Photon and Velox process data in columnar batches with vectorised native code; the JVM engine "
      "processes one row at a time. An unsupported expression (a Scala or Python UDF, some aggregate "
      "functions, some types) or operator makes the plan convert every batch into rows, run the operator "
      "row by row, and convert back: the conversion itself costs time, and the JVM operator is typically "
      "several times slower than its native equivalent. On Databricks the Photon price is paid for the "
      "whole cluster even for the part that did not run in Photon (COVERAGE_PHOTON insight).";
  d.example =
      "PhotonResultStage\n"
      "+- ColumnarToRow\n"
      "   +- Project [UDF(name#2964) AS clean_name#2989]     -- Scala UDF: JVM\n"
      "      +- PhotonScan parquet db.customers\n"
      "\n"
      "== Photon Explanation ==\n"
      "Photon does not fully support the query because:\n"
      "\tUDF(name#2964) is not supported:";
  d.use_instead =
      "-- the same logic with built-in functions runs in Photon:\n"
      "SELECT initcap(trim(regexp_replace(name, '[^A-Za-z ]', ''))) AS clean_name FROM db.customers";
  d.evidence =
      "Explain text: the operator names (`Photon*` vs vanilla operators; Gluten `*Transformer`, Comet `Comet*` vs "
      "vanilla), Comet's `[COMET: ...]` fallback notes and "
      "the `== Photon Explanation ==` section. Query Profile: `IS_PHOTON` metadata on each node, rows and "
      "time per node, and the query's Photon and total task time. The rule needs no threshold: a JVM "
      "operator between native ones is the evidence. Spark's own CSV header inference (a CollectLimit 1 of "
      "`length(trim(value)) > 0` over a text scan) is not reported: it reads one line and no user wrote it.";
  return d;
}

// A query Spark runs by itself to infer a CSV file's header (DataFrameReader.csv with
// header=true): a Filter `length(trim(value)) > 0` (RAPIDS: `length(gpustringtrim(value))`) over a
// text scan of the file, under a `CollectLimit 1`. No user wrote it; it reads the first line.
bool is_spark_header_inference(const Plan& plan) {
  bool text_scan = false, inference_filter = false, limit = false;
  std::size_t work = 0;  // operators other than transitions and codegen wrappers
  for (const Operator& op : plan.ops) {
    if (op.logical) continue;
    if (op.kind != OpKind::Transition && op.kind != OpKind::CodegenStage) ++work;
    if (op.kind == OpKind::Scan) {
      std::string fmt;
      for (char c : op.scan_format().view()) fmt += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      text_scan = text_scan || fmt == "text";
    } else if (op.kind == OpKind::Limit) {
      limit = true;
    } else if (op.kind == OpKind::Filter) {
      const Field* f = op.field(FieldRole::Condition);
      std::string cond = without_ids(f ? f->value.view() : op.arguments.view());
      std::string c;
      for (char ch : cond)
        if (ch != ' ' && ch != '(' && ch != ')') c += ch;
      // "(length(trim(value#0, None)) > 0)" -> "lengthtrimvalue,None>0"; a GpuFilter's arguments
      // end with its own ", true".
      if (c.ends_with(",true")) c.resize(c.size() - 5);
      inference_filter = inference_filter ||
                         ((c.starts_with("lengthtrimvalue") || c.starts_with("lengthgpustringtrimvalue")) && c.ends_with(">0"));
    }
  }
  return text_scan && inference_filter && limit && work <= 4;
}

bool does_work(const Operator& op) {
  if (is_transparent(op) || op.facts->row_to_columnar) return false;
  switch (op.kind) {
    case OpKind::ReusedExchange:
    case OpKind::ReusedSubquery:
    case OpKind::Subquery:
    case OpKind::AdaptivePlan:
    case OpKind::Command:
    case OpKind::Logical:
    case OpKind::Unknown:
      return false;
    default:
      return true;
  }
}

std::string_view trim_period(std::string_view s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

std::string_view base_name(std::string_view s) {
  auto sp = s.find_first_of(" [(");
  return s.substr(0, sp);
}

std::string udf_name(const Operator& op) {
  for (const auto& f : op.fields)
    for (const auto& pe : f.exprs) {
      if (!pe.root) continue;
      std::vector<const Expr*> stack{&*pe.root};
      while (!stack.empty()) {
        const Expr* x = stack.back();
        stack.pop_back();
        if (is_udf_call(*x))
          return x->name + "(...)";
        for (const auto& a : x->args) stack.push_back(&a);
      }
    }
  return "";
}

std::string replacement_advice(const Operator& op, const PhotonExplanation& pe) {
  if (op.kind == OpKind::PythonEval || pe.python_udf)
    return "Replace the Python UDF with built-in functions (or SQL higher-order functions such as transform / "
           "filter / aggregate), which Photon runs natively.";
  if (pe.udf || !udf_name(op).empty())
    return "Replace the UDF with built-in functions (string: regexp_replace / split / initcap; dates: date_trunc / "
           "make_date; arrays: transform / filter), which Photon runs natively.";
  if (op.kind == OpKind::Aggregate)
    return "Use aggregate functions Photon supports (e.g. collect_list / approx_percentile instead of a UDAF or "
           "percentile on unsupported types); the Photon Explanation names the unsupported function.";
  return "Find the unsupported expression in the `== Photon Explanation ==` section of EXPLAIN and replace it with "
         "a built-in function Photon supports.";
}

// The native engine of the plan. Comet has no Engine of its own: its operators are Spark
// operators that the reader marked (OpFacts::comet, and EngineFacts::comet for the plan).
enum class Target { Photon, Gluten, Comet, Gpu };

// What every region's finding needs from the plan-wide analysis.
struct RegionScene {
  const Plan& plan;
  Target target;
  const std::string& engine_name;
  const std::string& jvm;
  const std::vector<char>& native_op;
  const std::vector<char>& leaf_fallback;
  const EngineRegions& regions;
  const std::string& reasons;  // the Photon Explanation's reasons, one line
  std::optional<double> photon_ms, task_ms;
  std::optional<PlanTimes> times;  // computed once, when a region is reported
  bool explanation_used = false;
};

// The regions that move little and are no fallback worth reporting: a LIMIT returning the
// results, driver-local rows, the Python UDF path. True (with a --why note) for those.
bool moves_little(RuleContext& ctx, const Plan& plan, const std::vector<std::size_t>& members,
                  const std::string& engine_name) {
  // A LIMIT that returns results (CollectLimit above the final ColumnarToRow) moves a few rows.
  if (std::all_of(members.begin(), members.end(), [&](std::size_t m) { return plan.ops[m].kind == OpKind::Limit; })) {
    ctx.why(plan.ops[members.front()], "a JVM operator fed by " + engine_name + " operators",
            "only a LIMIT that returns the results runs on the JVM: it moves a few rows");
    return true;
  }
  // A driver-local LocalTableScan (literal rows, a collapsed AQE stage) moves no data: not fallback.
  if (std::all_of(members.begin(), members.end(),
                  [&](std::size_t m) { return plan.ops[m].kind == OpKind::LocalData; })) {
    ctx.why(plan.ops[members.front()], "a JVM operator fed by " + engine_name + " operators",
            "only driver-local rows (a LocalTableScan) run on the JVM: they move no data");
    return true;
  }
  // A Python UDF evaluator alone (ArrowEvalPython between Photon's Arrow batch sink and source)
  // is the engine's Python UDF path, not a fallback: python-udf reports its cost.
  if (std::all_of(members.begin(), members.end(),
                  [&](std::size_t m) { return plan.ops[m].kind == OpKind::PythonEval; })) {
    ctx.why(plan.ops[members.front()], "a JVM operator fed by " + engine_name + " operators",
            "only a Python UDF evaluator runs outside " + engine_name + ": that is the Python UDF path, which python-udf reports");
    return true;
  }
  return false;
}

// Where a leaf region's rows enter the native engine: the native consumer and the transition
// before it (plan.ops.size() when there is none).
struct LeafEntry {
  bool leaf = false;
  std::size_t into = 0, into_transition = 0;
};

// The evidence of one region's finding (entry operator `entry`; `list` names its operators,
// `total_ms` their time when known). Returns the engine's own fallback reason ("" when none).
std::string add_region_evidence(Diagnostic& d, RegionScene& scene, const std::vector<std::size_t>& members,
                                std::size_t entry, LeafEntry leaf_entry, const std::string& list,
                                std::optional<double> total_ms) {
  const Plan& plan = scene.plan;
  const std::size_t n = plan.ops.size();
  const Target target = scene.target;
  const std::string& engine_name = scene.engine_name;
  const auto& entry_transition = scene.regions.entry_transition;
  const std::string& reasons = scene.reasons;
  const std::optional<double>& photon_ms = scene.photon_ms;
  const std::optional<double>& task_ms = scene.task_ms;
  const bool leaf = leaf_entry.leaf;
  const std::size_t into = leaf_entry.into, into_transition = leaf_entry.into_transition;
  const bool any_ms = total_ms.has_value();
  const Operator& e = plan.ops[entry];
  d.evidence.push_back({"operator engine", "JVM"});
  d.evidence.push_back({"plan engine", engine_name});
  d.evidence.push_back({"JVM operators", list});
  if (entry_transition[entry] < n) {
    if (target == Target::Comet) {
      d.evidence.push_back({"transition", op_ref(plan.ops[entry_transition[entry]])});
      std::string below;
      for (std::size_t c : plan.ops[entry_transition[entry]].children) below += (below.empty() ? "" : ", ") + op_ref(plan.ops[c]);
      if (!below.empty()) d.evidence.push_back({"native operators below", below});
    }
  } else if (leaf && into < n) {
    if (into_transition < n) d.evidence.push_back({"transition", op_ref(plan.ops[into_transition])});
    d.evidence.push_back({"native operator above", op_ref(plan.ops[into])});
  }
  std::string engine_note;
  for (std::size_t m : members)
    if (engine_note.empty()) engine_note = *plan.ops[m].facts->fallback_reason;
  if (!engine_note.empty()) d.evidence.push_back({"fallback reason", engine_note});
  if (e.rows()) d.evidence.push_back({"rows", *e.rows(), Unit::Rows});
  if (any_ms) d.evidence.push_back({"JVM operator time", *total_ms, Unit::Ms});
  if (photon_ms && task_ms && *task_ms > 0)
    d.evidence.push_back({"Photon share of task time", std::min(1.0, *photon_ms / *task_ms), Unit::Percent});
  std::string udf;
  for (std::size_t m : members)
    if (udf.empty()) udf = udf_name(plan.ops[m]);
  if (!udf.empty()) d.evidence.push_back({"unsupported expression", udf});
  // The Photon Explanation's reference node, when it names an operator of this region.
  bool matches = false;
  for (const auto& ref : plan.photon.reference_nodes)
    for (std::size_t m : members)
      if (base_name(ref) == base_name(plan.ops[m].name)) matches = true;
  if (matches && !reasons.empty()) {
    d.evidence.push_back({"Photon Explanation", reasons});
    scene.explanation_used = true;
  }
  return engine_note;
}

class NativeEngineFallback final : public DocumentedRule<make_doc> {
 public:
  [[nodiscard]] bool explains() const override { return true; }
  // One finding for one region of JVM operators (or none, with a --why note, for the regions that
  // move no data worth reporting).
  void report_region(RuleContext& ctx, RegionScene& scene, const std::vector<std::size_t>& members) const {
    const Plan& plan = scene.plan;
    const std::size_t n = plan.ops.size();
    const Target target = scene.target;
    const std::string& engine_name = scene.engine_name;
    const std::string& jvm = scene.jvm;
    const std::vector<char>& native_op = scene.native_op;
    const std::vector<char>& leaf_fallback = scene.leaf_fallback;
    const auto& has_cand_child = scene.regions.has_member_child;
    const auto& entry_transition = scene.regions.entry_transition;
    const std::optional<double>& photon_ms = scene.photon_ms;
    const std::optional<double>& task_ms = scene.task_ms;
    std::optional<PlanTimes>& times = scene.times;
    if (moves_little(ctx, plan, members, engine_name)) return;
    // Entry: a member with no candidate below it; among several, the one with the most rows.
    std::size_t entry = members.front();
    bool have = false;
    for (std::size_t m : members) {
      if (has_cand_child[m]) continue;
      if (!have || plan.ops[m].rows().value_or(-1) > plan.ops[entry].rows().value_or(-1)) entry = m;
      have = true;
    }
    const Operator& e = plan.ops[entry];
    double total_ms = 0;
    bool any_ms = false;
    std::string list;
    // An operator's own (exclusive) time: what the engines record, less the timed operators its
    // timer also holds (an aggregation build pulls its input), so that times never add up to
    // more than the tasks ran (model/op_time.hpp).
    if (!times) times = operator_times(plan);
    auto own_ms = [&](const Operator& o) { return times->ops[o.index].self_ms; };
    for (std::size_t m : members) {
      const Operator& o = plan.ops[m];
      if (auto t = own_ms(o)) {
        total_ms += *t;
        any_ms = true;
      }
      list += (list.empty() ? "" : ", ") + op_ref(o);
    }
    // A region with no native operator below it (a leaf that was not offloaded): where its rows
    // enter the native engine.
    const bool leaf = std::all_of(members.begin(), members.end(), [&](std::size_t m) { return leaf_fallback[m] != 0; });
    std::size_t into = n, into_transition = n;
    if (leaf)
      for (std::size_t m : members)
        if (into == n) into = native_consumer(plan, native_op, m, &into_transition);
    std::string msg = op_ref(e) + " runs on " + jvm + ", not in " + engine_name;
    if (entry_transition[entry] < n)
      msg += ": it reads " + engine_name + " output through " + op_ref(plan.ops[entry_transition[entry]]);
    else if (leaf && into < n)
      msg += ": its rows are converted into " + engine_name + " batches" +
             (into_transition < n ? " by " + op_ref(plan.ops[into_transition]) : std::string()) + " for " +
             op_ref(plan.ops[into]);
    if (e.rows()) msg += " (" + format_count(*e.rows()) + " rows" + (own_ms(e) ? ", " + format_millis(*own_ms(e)) : "") + ")";
    if (members.size() > 1) msg += "; " + std::to_string(members.size()) + " operators run on the JVM in this part of the plan";
    if (any_ms && members.size() > 1) msg += " (" + format_millis(total_ms) + ")";
    if (photon_ms && task_ms && *task_ms > 0) {
      msg += "; Photon ran " + format_percent(std::min(1.0, *photon_ms / *task_ms)) + " of the query's task time";
    }
    Diagnostic d = ctx.make(e, msg);
    const std::string engine_note = add_region_evidence(d, scene, members, entry, {leaf, into, into_transition}, list,
                                                        any_ms ? std::optional<double>(total_ms) : std::nullopt);
    if (any_ms) {
      set_impact(d, total_ms, "ms", " in JVM operators");
    } else if (e.rows()) {
      set_impact(d, *e.rows(), "rows", " rows converted to JVM rows");
    }
    if (target == Target::Photon) {
      d.fix = replacement_advice(e, plan.photon);
    } else if (target == Target::Gluten) {
      d.fix = leaf && e.kind == OpKind::Scan
                  ? "Velox cannot read this source natively, so every row is read by Spark and converted into "
                    "columnar batches: store the table in a format the native scan reads (Parquet or ORC, not a "
                    "Hive text/SerDe table), or check the fallback reason (Spark UI 'Gluten SQL / DataFrame' tab, "
                    "GlutenFallbackReporter log line 'Validation failed for plan: ...')."
                  : "Find the fallback reason (Spark UI 'Gluten SQL / DataFrame' tab, or the GlutenFallbackReporter "
                    "log line 'Validation failed for plan: ...') and replace the unsupported expression or operator.";
    } else if (target == Target::Gpu) {
      d.fix = "Find why the RAPIDS Accelerator left it on the CPU (spark.rapids.sql.explain=NOT_ON_GPU logs each "
              "operator and expression that 'cannot run on GPU' with the reason) and replace the unsupported "
              "expression, operator or data source with one the GPU supports.";
    } else {
      d.fix = engine_note.empty()
                  ? "Find why Comet did not run it (spark.comet.explain.fallback.enabled=true logs 'Comet cannot "
                    "execute some parts of this plan natively' with a [COMET: ...] reason per operator) and replace "
                    "the unsupported expression or operator with one Comet supports."
                  : "Comet's reason: " + std::string(trim_period(engine_note)) +
                        ". Replace the expression with one Comet runs natively, or, when the documented difference "
                        "from Spark does not matter for your data, set the allowIncompatible option the reason names.";
    }
    ctx.report(std::move(d));
  }
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    Target target;
    const bool has_comet = plan.facts.engine.comet;
    if (plan_has_engine(plan, Engine::Photon) || plan.photon.present) target = Target::Photon;
    else if (plan_has_engine(plan, Engine::Gluten)) target = Target::Gluten;
    else if (has_comet) target = Target::Comet;
    else if (plan_has_engine(plan, Engine::Gpu)) target = Target::Gpu;
    else {
      if (ctx.explaining() && !plan.roots.empty() && plan.roots[0] < plan.ops.size())
        ctx.why(plan.ops[plan.roots[0]], "JVM operators between Photon (or Gluten/Velox) operators",
                "the plan has no Photon, Gluten or Comet operator and no Photon explanation: nothing to fall back from");
      return;
    }
    // Spark's own CSV header inference (CollectLimit 1 of `length(trim(value)) > 0` over a text
    // scan) reads one line: whatever engine runs it, there is no user query to fix.
    if (is_spark_header_inference(plan)) {
      if (ctx.explaining() && !plan.roots.empty() && plan.roots[0] < plan.ops.size())
        ctx.why(plan.ops[plan.roots[0]], "JVM operators between native operators",
                "the plan is Spark's own CSV header inference (a CollectLimit 1 of length(trim(value)) > 0 over a "
                "text scan): it reads one line and no user wrote it");
      return;
    }
    const std::string engine_name = target == Target::Photon   ? "Photon"
                                    : target == Target::Gluten ? "Gluten/Velox"
                                    : target == Target::Gpu    ? "the GPU (RAPIDS)"
                                                               : "Comet";
    const std::string jvm = target == Target::Photon ? "the JVM engine"
                            : target == Target::Gpu  ? "the CPU (Spark's JVM engine)"
                                                     : "vanilla Spark (JVM)";
    auto is_native = [target](const Operator& o) {
      switch (target) {
        case Target::Photon: return o.engine == Engine::Photon;
        case Target::Gluten: return o.engine == Engine::Gluten;
        case Target::Comet: return o.facts->comet;
        case Target::Gpu: return o.engine == Engine::Gpu;
      }
      return false;
    };

    const std::size_t n = plan.ops.size();
    const bool fin = ctx.final_plan_exists();
    std::vector<char> native_op(n, 0);
    for (const auto& op : plan.ops) native_op[op.index] = is_native(op) ? 1 : 0;
    const NativeFlow flow = native_flow(plan, native_op);

    // Candidates: JVM operators that do work and read native output (something native below), or
    // that feed a native operator without one below (a leaf that was not offloaded: its rows are
    // converted into the native format above it).
    std::vector<char> cand(n, 0), leaf_fallback(n, 0);
    for (const auto& op : plan.ops) {
      const bool jvm_work = is_active(op, fin) && !native_op[op.index] && does_work(op);
      cand[op.index] = jvm_work && flow.native_below[op.index];
      if (jvm_work && !cand[op.index] && flow.feeds_native[op.index]) cand[op.index] = leaf_fallback[op.index] = 1;
      if (ctx.explaining() && !cand[op.index] && jvm_work)
        ctx.why(op, "a JVM operator fed by " + engine_name + " operators",
                "no " + engine_name + " operator below it: its rows never were in " + engine_name);
    }
    const EngineRegions regions = group_engine_regions(plan, native_op, cand);

    std::string reasons;
    for (const auto& r : plan.photon.reasons) reasons += (reasons.empty() ? "" : "; ") + r;
    // Reason headlines carry their indented detail lines: one line for messages. One pass (a
    // replace per line would move the rest of the text each time: quadratic in the lines).
    {
      std::string flat;
      flat.reserve(reasons.size());
      for (std::size_t k = 0; k < reasons.size();) {
        if (reasons[k] != '\n') {
          flat += reasons[k++];
          continue;
        }
        while (k < reasons.size() && (reasons[k] == '\n' || reasons[k] == '\t' || reasons[k] == ' ')) ++k;
        flat += ' ';
      }
      reasons = std::move(flat);
    }

    // Photon share of task time (profiles).
    std::optional<double> photon_ms, task_ms;
    photon_ms = plan.query.metric_value(Metric::PhotonTotalTime);
    task_ms = plan.query.metric_value(Metric::TaskTotalTime);

    RegionScene scene{plan, target, engine_name, jvm, native_op, leaf_fallback, regions, reasons, photon_ms, task_ms, {}, false};
    for (const auto& members : regions.regions) report_region(ctx, scene, members);
    const bool explanation_used = scene.explanation_used;

    // The Photon Explanation alone (no operator of the plan to attach it to). A plan that printed
    // operators but none of them native did not run on Photon at all: nothing fell back.
    const bool has_physical = std::any_of(plan.ops.begin(), plan.ops.end(), [](const Operator& o) {
      return !o.logical && o.kind != OpKind::Logical && o.kind != OpKind::Command;
    });
    const bool native = plan_has_engine(plan, Engine::Photon) || plan_has_engine(plan, Engine::Gluten);
    // An explanation that names only the driver-side result operator (CollectLimit, CollectTail:
    // they hand the first rows to the driver) names no work that left the engine.
    if (plan.photon.driver_side_only && plan.photon.present && !plan.photon.fully_supported && !explanation_used) {
      for (const Operator& o : plan.ops)
        if (base_name(o.name) == base_name(plan.photon.reference_nodes.front())) {
          ctx.why(o, "a Photon Explanation naming an operator that left Photon",
                  "the explanation names only " + plan.photon.reference_nodes.front() +
                      ", the driver-side operator that returns the first rows: no work fell back");
          break;
        }
    } else if (plan.photon.present && !plan.photon.fully_supported && !explanation_used && !plan.photon.reasons.empty() &&
        (native || !has_physical)) {
      std::string msg = "Photon does not fully support the query: " + reasons;
      if (!plan.photon.reference_nodes.empty()) msg += " (reference node: " + plan.photon.reference_nodes.front() + ")";
      Diagnostic d = ctx.make_plan(msg, plan.photon.loc);
      d.evidence.push_back({"Photon Explanation", reasons});
      for (const auto& r : plan.photon.reference_nodes) d.evidence.push_back({"reference node", r});
      Operator dummy;
      if (!plan.photon.reference_nodes.empty()) dummy.name = Text::stable(base_name(plan.photon.reference_nodes.front()));
      d.fix = replacement_advice(dummy, plan.photon);
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_native_engine_fallback() { return std::make_unique<NativeEngineFallback>(); }

}  // namespace planlint
