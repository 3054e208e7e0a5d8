// `planlint show`: the operator tree in the terminal, one line per operator with its rows, time
// and share of the plan's time (colour bands at 10 %, 50 %, 90 %, as explain.depesz.com), the
// engine it ran on, and the findings on the operator they concern. Also the DAG as Graphviz dot.
#pragma once

#include <string>

#include "lint/engine.hpp"

namespace planlint {

struct ShowOptions {
  bool color = false;
  std::size_t width = 100;   // lines are cut to this many columns
};

std::string show_text(const LintResult& result, const ShowOptions& options);
std::string show_dot(const LintResult& result);

}  // namespace planlint
