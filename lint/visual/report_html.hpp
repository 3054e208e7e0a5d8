// `planlint report`: one self-contained HTML file (no network access; CSS, JS and data inlined)
// that draws each plan's DAG as a tree (laid out in the page in linear time, pan/zoom through the
// SVG viewBox), colours operators by their share of time (bands at 10/50/90 %), marks Photon vs
// JVM, lists the findings linked to their operator, shows a details panel per operator, the phase
// summary and the docs of the rules that fired.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/core/executions.hpp"
#include "lint/engine/engine.hpp"

namespace planlint {

// The data the page renders: {"files":[{path, messages, executions?, plans:[{name, ops, diags,
// summary, stages?, query?...}]}], "rules":{...}}. `executions[i]`, when given, lists the SQL
// executions of results[i] (list_executions; its plans are the shown ones already).
nlohmann::json report_data(const std::vector<LintResult>& results, const std::vector<ExecutionList>& executions = {});

// JSON text safe inside <script type="application/json">: '<', '>' and '&' become \u003c, \u003e,
// \u0026 (so "</script>" and "<!--" cannot occur); invalid UTF-8 is replaced.
std::string script_safe_json(const nlohmann::json& j);

// The whole HTML page for these inputs.
std::string report_html(const std::vector<LintResult>& results, const std::vector<ExecutionList>& executions = {});

}  // namespace planlint
