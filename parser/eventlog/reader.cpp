// The event-log reader in the registry (parser/registry/registry.cpp): JSON lines with an "Event"
// field, or a log compressed as Spark writes it; streams plan by plan; opens rolling
// `eventlog_v2_*` directories and compressed files itself.
#include "parser/common/detect.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/reader.hpp"

namespace planlint {

namespace {
EventLogOptions options_of(const ReadOptions& o) {
  EventLogOptions e;
  e.execution = o.execution;
  return e;
}

bool looks_like_event_log(std::string_view head) {
  if (looks_compressed_event_log(head.substr(0, 16))) return true;
  std::string_view first = first_content_line(head);
  return !first.empty() && first[0] == '{' && first.find("\"Event\"") != std::string_view::npos;
}
}  // namespace

Reader event_log_reader() {
  Reader r;
  r.name = "event-log";
  r.format = InputFormat::EventLog;
  r.traits = kEventLogTraits;
  r.detect = looks_like_event_log;
  r.parse = [](std::string_view text, const std::string& path, const ReadOptions& o) {
    return parse_event_log(text, path, options_of(o));
  };
  r.stream = [](std::istream& in, const std::string& path, const ReadOptions& o, const PlanSink& sink) {
    return parse_event_log_stream(in, path, options_of(o), sink);
  };
  r.claims = [](const std::filesystem::path& path) { return is_event_log_path(path); };
  r.claims_file = [](std::string_view head) { return is_event_log_head(head); };
  r.read = [](const std::filesystem::path& path, const std::string& display, const ReadOptions& o,
              const PlanSink& sink) { return read_event_log(path, display, options_of(o), sink); };
  return r;
}

}  // namespace planlint
