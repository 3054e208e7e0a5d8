// `planlint mcp`: a Model Context Protocol server over stdio (protocol revisions 2024-11-05 to
// 2025-11-25). Messages are JSON-RPC 2.0, one per line (newline-delimited, not the LSP's
// Content-Length framing); only protocol goes to `out`, logs go to `log`.
//
// Methods: initialize (protocol version negotiation), notifications/initialized, ping, tools/list,
// tools/call. Tools (docs/agents.md): lint_plan, explain_rule, lint_history_server, diff_plans,
// show_plan; each declares an inputSchema and an outputSchema and answers with structuredContent
// plus a short text summary. Arguments that do not fit the inputSchema (a missing or mistyped
// argument, an unknown one) are JSON-RPC errors -32602; a tool that runs but cannot do its job
// (unreadable file, no plan in the text, unknown rule, too large an input) answers isError with the
// reason, as the specification asks, so the model can correct itself.
//
// The engine is the CLI's: lint_input / check_input, the nearest .planlint.toml with the call's
// select / ignore / severity / set on top (lint/core/settings.hpp), --max-input-size. The server
// never reads standard input as a plan. Fetching from a History Server is the CLI's client
// (tools/cli/history_server_fetch.cpp), handed in as a function so that lint/ needs no libcurl.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace planlint::mcp {

// GETs the SQL answer of `app` (one `execution` when given) from the History Server at `base`:
// the body, or nullopt with `error` set. `url` receives the URL fetched.
using HistoryServerFetch = std::function<std::optional<std::string>(
    const std::string& base, const std::string& app, std::optional<long long> execution, std::string& url,
    std::string& error)>;

struct ServerOptions {
  double max_input_bytes = 0;       // > 0: --max-input-size (plans, and the largest message line)
  bool use_config_files = true;     // false: --no-config
  std::string config_file;          // --config FILE instead of the nearest one
  HistoryServerFetch fetch_history; // empty: lint_history_server answers isError
};

// The protocol revisions this server speaks, newest first.
const std::vector<std::string>& supported_protocol_versions();

class Server {
 public:
  Server(std::ostream& out, std::ostream& log, ServerOptions options = {});

  // Reads messages until end of input and answers each; returns 0 (EOF is the normal end).
  int run(std::istream& in);

  // One message as a line of text (without its newline); the answer to write, or nullopt (a
  // notification, or a response from the client).
  std::optional<nlohmann::json> handle_line(std::string_view line);

  // One parsed message.
  std::optional<nlohmann::json> handle(const nlohmann::json& message);

  [[nodiscard]] bool initialized() const { return initialized_; }
  [[nodiscard]] const std::string& protocol_version() const { return protocol_version_; }
  // The longest line read whole; longer ones are answered with an error and skipped.
  [[nodiscard]] std::size_t max_line_bytes() const;

  // The tool list (tools/list's `tools`).
  [[nodiscard]] const nlohmann::json& tools() const { return tools_; }

 private:
  nlohmann::json call_tool(const nlohmann::json& params, const nlohmann::json& id);
  void write(const nlohmann::json& message);

  std::ostream& out_;
  std::ostream& log_;
  ServerOptions options_;
  nlohmann::json tools_;
  bool initialize_seen_ = false;  // initialize answered
  bool initialized_ = false;      // notifications/initialized received
  std::string protocol_version_;
};

}  // namespace planlint::mcp
