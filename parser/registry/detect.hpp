// Input detection, the registry's answer to "which reader?", and the message convention readers
// use for input of the wrong kind.
#pragma once

#include <string>
#include <string_view>

#include "model/plan.hpp"

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

// What an input no reader read a plan from is, when its bytes say so without any reader: a JSON
// array ("not a plan: a JSON array, expected ..."; a History Server SQL answer in a shape this
// build does not read is named). "" otherwise. `body` is the input after any byte-order mark, and
// holds more than white space.
std::string not_a_plan_by_content(std::string_view body);

}  // namespace planlint
