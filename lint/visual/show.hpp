// `planlint show`: the operator tree in the terminal, one line per operator with its rows, time
// and share of the plan's time (colour bands at 10 %, 50 %, 90 %, as explain.depesz.com), the
// engine it ran on, and the findings on the operator they concern. Also the DAG as Graphviz dot.
#pragma once

#include <string>

#include "lint/engine/engine.hpp"

namespace planlint {

struct ShowOptions {
  bool color = false;
  std::size_t width = 100;   // lines are cut to this many columns
};

std::string show_text(const LintResult& result, const ShowOptions& options);
std::string show_dot(const LintResult& result);

// Whether the operator's time counts toward the plan's operator time (wrappers such as codegen
// stages include their members' time and would count it twice). Shared with the HTML report.
bool counts_for_time(const Operator& op);

}  // namespace planlint
