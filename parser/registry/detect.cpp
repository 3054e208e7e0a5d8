#include "parser/registry/detect.hpp"

#include "parser/registry/reader.hpp"

namespace planlint {

// What detection sees: the first kDetectBytes, as in the lint engine (lint/engine/lint.cpp) and
// parse_input (parse.cpp), so `parse` and `check` pick the same reader.
InputFormat detect_format(std::string_view text) { return reader_for(text.substr(0, kDetectBytes)).format; }

}  // namespace planlint
