#include "parser/registry/parse.hpp"

#include "parser/eventlog/eventlog.hpp"
#include "parser/history_server/history_server.hpp"

namespace planlint {

InputFormat detect_format(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // UTF-8 BOM
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) ++i;
  if (looks_compressed_event_log(text.substr(0, 16))) return InputFormat::EventLog;
  if (looks_like_history_server(text)) return InputFormat::HistoryServer;
  if (i >= text.size() || text[i] != '{') return InputFormat::Unknown;  // explain text
  std::size_t eol = text.find('\n', i);
  std::string_view first = text.substr(i, eol == std::string_view::npos ? std::string_view::npos : eol - i);
  if (first.find("\"Event\"") != std::string_view::npos) return InputFormat::EventLog;
  return InputFormat::QueryProfile;
}

ParseResult parse_input(std::string_view text, const std::string& path) {
  switch (detect_format(text)) {
    case InputFormat::EventLog: return parse_event_log(text, path);
    case InputFormat::QueryProfile: return parse_query_profile(text, path);
    case InputFormat::HistoryServer: return parse_history_server(text, path);
    default: return parse_explain_text(text, path);
  }
}

}  // namespace planlint
