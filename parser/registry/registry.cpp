// The list of readers, in detection order. A new input format adds its folder under parser/ and
// one line here (docs/architecture.md).
#include "parser/registry/reader.hpp"

namespace planlint {

Reader event_log_reader();     // parser/eventlog/reader.cpp
Reader history_server_reader(); // parser/history_server/reader.cpp: JSON, so before the profile reader
Reader query_profile_reader(); // parser/profile/reader.cpp
Reader explain_text_reader();  // parser/explain/reader.cpp: accepts anything, so it comes last

const std::vector<Reader>& readers() {
  static const std::vector<Reader> all{
      event_log_reader(),
      history_server_reader(),
      query_profile_reader(),
      explain_text_reader(),
  };
  return all;
}

const Reader& reader_for(std::string_view head) {
  for (const Reader& r : readers())
    if (r.detect(head)) return r;
  return readers().back();
}

const Reader* reader_claiming(const std::filesystem::path& path) {
  for (const Reader& r : readers())
    if (r.claims && r.claims(path)) return &r;
  return nullptr;
}

const Reader* reader_claiming_file(const std::string& path, std::string_view head) {
  for (const Reader& r : readers())
    if (r.claims && (r.claims_file ? r.claims_file(head) : r.claims(std::filesystem::path(path)))) return &r;
  return nullptr;
}

}  // namespace planlint
