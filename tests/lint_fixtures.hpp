// Hand-built findings over a small hand-written plan, for the tests of the output formats,
// suppressions and the baseline (they must not depend on which rules exist yet).
#pragma once

#include <string>
#include <vector>

#include "lint/output/output.hpp"

namespace planlint::test {

// A formatted plan with a directive line; operator 5 (SortMergeJoin) is on line 5, column 6.
inline const char* kSamplePlan =
    "# planlint: disable=stale-broadcast-hint\n"          // 1
    "== Physical Plan ==\n"                               // 2
    "AdaptiveSparkPlan (12)\n"                            // 3
    "+- == Final Plan ==\n"                               // 4
    "   * SortMergeJoin Inner (5)\n"                      // 5
    "   :- * Sort (3)\n"                                  // 6
    "   :  +- ShuffleQueryStage (2), Statistics(sizeInBytes=2.0 MiB, rowCount=5.0E+4)\n"  // 7
    "   +- * Sort (4)\n";                                 // 8

inline Diagnostic sample_finding(std::string rule = "shuffle-join-could-broadcast", std::string code = "PL002") {
  Diagnostic d;
  d.rule = std::move(rule);
  d.code = std::move(code);
  d.severity = Severity::Warning;
  d.message = "SortMergeJoin (5) shuffles both sides although the left side is 2.0 MiB";
  d.fix = "let Spark broadcast the left side: /*+ BROADCAST(c) */";
  d.op = 1;
  d.operator_id = "5";
  d.operator_name = "SortMergeJoin";
  d.range.line = 5;
  d.range.column = 6;
  d.range.end_line = 5;
  d.range.end_column = 19;
  d.evidence.push_back({"left side size", 2097152.0, Unit::Bytes, "2.0 MiB"});
  d.evidence.push_back({"join keys", "customer_id#12 = c_customer_id#40"});
  return d;
}

inline FileReport sample_report(std::vector<Diagnostic> diags) {
  FileReport r;
  r.path = "plans/q1.txt";
  r.format = InputFormat::ExplainFormatted;
  r.input = std::make_shared<const std::string>(kSamplePlan);
  r.diagnostics = std::move(diags);
  return r;
}

}  // namespace planlint::test
