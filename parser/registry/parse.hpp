// Entry points of the parser stage. Each reader turns one input into a ParseResult holding
// plans in the shared model (model/plan.hpp) plus its own messages; none of them decides
// what is wrong with a plan.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/expr.hpp"
#include "model/plan.hpp"
// parse_expression: for the callers outside parser/ that still find it here (readers include it).
#include "parser/expression/expression.hpp"

namespace planlint {

// A reader that finds input of the wrong kind (valid JSON that is no Query Profile, ...) gives no
// plan and one Error message starting with kNotAPlan; front ends report it as unreadable (exit 2).
inline constexpr std::string_view kNotAPlan = "not a plan: ";
inline constexpr std::string_view kExpectedInputs =
    "expected Spark / Databricks explain text, a Databricks Query Profile export (a JSON object with "
    "`graphs` and `query`) or a Spark event log (JSON lines with `\"Event\"`)";

// Guess the input format from content: a JSON object with `graphs` / `query` is a Query Profile,
// JSON lines with `"Event":` an event log, a History Server SQL answer (an object or list with
// `planDescription`), anything else explain text (the mode is refined by
// the text parser). Only the first kDetectBytes (parser/registry/reader.hpp) are looked at.
InputFormat detect_format(std::string_view text);

// Explain text in any mode (formatted, default, extended, cost), with paste damage repaired.
// Several plans in one text give several Plans. When `input` is given, `text` lies inside it and
// the plans view its bytes instead of copying them (and keep it alive).
ParseResult parse_explain_text(std::string_view text, const std::string& path,
                               std::shared_ptr<const std::string> input = {});

// Databricks Query Profile JSON export.
ParseResult parse_query_profile(std::string_view text, const std::string& path);

// Spark event log (JSON lines), one Plan per SQL execution.
ParseResult parse_event_log(std::string_view text, const std::string& path);

// detect_format + the matching reader.
ParseResult parse_input(std::string_view text, const std::string& path);
// The same on a shared input: the plans view its bytes instead of copying them.
ParseResult parse_input(std::shared_ptr<const std::string> input, const std::string& path);

}  // namespace planlint
