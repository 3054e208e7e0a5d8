// PL105 python-udf: BatchEvalPython / ArrowEvalPython / MapInPandas and friends: rows leave the
// JVM (or Photon) for a Python worker and come back.
#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

std::string base_name(const Operator& op) {
  std::string n(op.name);
  if (auto sp = n.find_first_of(" ["); sp != std::string::npos) n.resize(sp);
  return n;
}

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "python-udf";
  r.code = "PL105";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "Rows are sent to a Python worker for a UDF";
  r.what =
      "Reports every Python evaluation operator in the physical plan: BatchEvalPython "
      "(row-at-a-time @udf, warning), ArrowEvalPython / MapInPandas / MapInArrow / "
      "FlatMapGroupsInPandas / AggregateInPandas / WindowInPandas (vectorised, info).";
  r.why =
      "A Python UDF runs outside the engine: every row is serialised in the JVM, piped to a "
      "Python worker, evaluated by the interpreter and sent back. BatchEvalPython pickles rows "
      "one at a time and is typically 10-100x slower than the same logic as a built-in "
      "function; Arrow-based UDFs batch the transfer but still leave Photon / whole-stage "
      "codegen, cannot be optimised (no predicate pushdown through them, no statistics) and "
      "hold extra memory in the Python workers.";
  r.example =
      "@udf('string')\ndef clean(s): return s.strip().lower()\ndf.select(clean('name'))\n"
      "-> BatchEvalPython [clean(name#2)#10], [pythonUDF0#11]";
  r.use_instead =
      "from pyspark.sql import functions as F\n"
      "df.select(F.lower(F.trim('name')))       -- built-in: runs in the JVM / Photon\n"
      "# no built-in? a vectorised @pandas_udf, or spark.sql.execution.pythonUDF.arrow.enabled=true";
  r.evidence =
      "Any input format: the operator itself (BatchEvalPython, ArrowEvalPython, MapInPandas, "
      "...). Rows and time come from profiles / event logs when present.";
  return r;
}

class PythonUdf final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    for (const Operator* active : ctx.active_ops(OpKind::PythonEval)) {
      const Operator& op = *active;
      std::string name = base_name(op);
      bool row_at_a_time = op.facts->udf->kind == UdfKind::PythonRow;
      std::string udfs = op.facts->udf->calls;
      std::string msg = op_ref(op);
      if (row_at_a_time)
        msg += " evaluates Python UDF" + (udfs.empty() ? std::string() : " " + udfs) +
               " one row at a time in a Python worker: every row is pickled out of the JVM and back";
      else
        msg += " sends rows to a Python worker" + (udfs.empty() ? std::string() : " for " + udfs) +
               " (Arrow batches): the work leaves the engine and cannot be optimised";
      if (op.rows()) msg += " (" + format_count(*op.rows()) + " rows)";
      Diagnostic d = ctx.make(op, std::move(msg));
      if (!row_at_a_time) d.severity = Severity::Info;
      d.evidence.push_back({"operator", name});
      if (!udfs.empty()) d.evidence.push_back({"udf", udfs});
      if (op.rows()) d.evidence.push_back({"rows", *op.rows(), Unit::Rows});
      if (op.duration_ms()) d.evidence.push_back({"operator time", *op.duration_ms(), Unit::Ms});
      if (row_at_a_time)
        d.fix = "Rewrite the UDF with built-in functions (pyspark.sql.functions / SQL: string, date, "
                "regexp, JSON, array and map functions, CASE WHEN), which run in the JVM or Photon. If no "
                "built-in exists, make it a vectorised @pandas_udf or enable Arrow-optimised Python UDFs "
                "(spark.sql.execution.pythonUDF.arrow.enabled=true, Spark 3.5+).";
      else
        d.fix = "Express the transformation with built-in DataFrame / SQL operations where possible "
                "(groupBy().agg, window functions, higher-order functions like transform/filter on "
                "arrays); keep the pandas function for logic that truly needs Python.";
      if (op.duration_ms()) {
        set_impact(d, *op.duration_ms(), "ms", " of task time in Python evaluation");
      } else if (op.rows()) {
        set_impact(d, *op.rows(), "rows", " rows through a Python worker");
      }
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_python_udf() { return std::make_unique<PythonUdf>(); }

}  // namespace planlint
