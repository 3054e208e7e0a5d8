// The Query Profile reader in the registry (parser/registry/registry.cpp): a JSON document whose
// first line is not an event-log record. Read whole, or a large file in pieces (Reader::parse_file).
#include "parser/common/detect.hpp"
#include "parser/profile/profile.hpp"
#include "parser/registry/reader.hpp"

namespace planlint {

Reader query_profile_reader() {
  Reader r;
  r.name = "query-profile";
  r.format = InputFormat::QueryProfile;
  r.traits = kQueryProfileTraits;
  r.detect = [](std::string_view head) {
    std::string_view first = first_content_line(head);
    if (first.empty() || first[0] != '{') return false;  // (before searching the whole input)
    // A notebook (.ipynb, or one cell of it) is JSON, but its plan is in the output strings: the
    // explain-text reader takes it.
    if (head.find("\"cell_type\"") != std::string_view::npos) return false;
    return first.find("\"Event\"") == std::string_view::npos;
  };
  r.parse = [](std::string_view text, const std::string& path, const ReadOptions& options) {
    return parse_query_profile(text, path, ProfileJsonParser::Scanner, nullptr, options.input);
  };
  r.parse_file = [](int fd, const std::string& path, double max_bytes) {
    return parse_query_profile_file(fd, path, max_bytes);
  };
  return r;
}

}  // namespace planlint
