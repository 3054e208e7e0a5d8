// The History Server reader in the registry (parser/registry/registry.cpp): an answer of
// /api/v1/applications/<app>/sql (one ExecutionData object or a list of them). Read whole. Listed
// before the Query Profile reader, which would take any JSON object.
#include "parser/history_server/history_server.hpp"
#include "parser/registry/reader.hpp"

namespace planlint {

Reader history_server_reader() {
  Reader r;
  r.name = "history-server";
  r.format = InputFormat::HistoryServer;
  r.traits = kHistoryServerTraits;
  r.detect = [](std::string_view head) {
    return looks_like_history_server(head) || looks_like_history_server_fragment(head);
  };
  r.parse = [](std::string_view text, const std::string& path, const ReadOptions& options) {
    if (!looks_like_history_server(text.substr(0, kDetectBytes)) && looks_like_history_server_fragment(text))
      return parse_history_server_fragment(text, path);
    HistoryServerOptions opts;
    opts.execution = options.execution;
    return parse_history_server(text, path, opts);
  };
  return r;
}

}  // namespace planlint
