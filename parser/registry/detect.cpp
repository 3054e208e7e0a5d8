#include "parser/registry/detect.hpp"

#include <nlohmann/json.hpp>

#include "parser/registry/reader.hpp"

namespace planlint {

// What detection sees: the first kDetectBytes, as in the lint engine (lint/engine/lint.cpp) and
// parse_input (parse.cpp), so `parse` and `check` pick the same reader.
InputFormat detect_format(std::string_view text) { return reader_for(text.substr(0, kDetectBytes)).format; }

std::string not_a_plan_by_content(std::string_view body) {
  std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || body[first] != '[' || !nlohmann::json::accept(body)) return "";
  bool history = body.find("\"planDescription\"") != std::string_view::npos;
  return std::string(kNotAPlan) +
         (history ? "a Spark History Server SQL answer (`planDescription`, `nodes`), which this build does not read; "
                  : "a JSON array, ") +
         std::string(kExpectedInputs);
}

}  // namespace planlint
