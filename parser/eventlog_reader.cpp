// Placeholder until the reader lands: reports that the format is not read yet.
#include "parser/parse.hpp"

namespace planlint {

ParseResult parse_event_log(std::string_view, const std::string& path) {
  ParseResult r;
  r.path = path;
  r.messages.push_back({MessageSeverity::Error, {1, 1, 1, 1}, "this input format is not supported yet"});
  return r;
}

}  // namespace planlint
