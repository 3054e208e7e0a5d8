// `planlint lsp`: a Language Server over a byte stream (stdio in production, string streams in
// tests). Single-threaded: messages are handled one at a time in arrival order. Documents are
// linted with the same engine as the CLI (lint_input); linting is deferred while more input is
// already buffered, so a burst of edits costs one lint.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

#include "lint/core/config.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/settings.hpp"
#include "lint/engine/engine.hpp"
#include "lint/lsp/lsp_framing.hpp"
#include "lint/lsp/lsp_text.hpp"

namespace planlint::lsp {

using json = nlohmann::json;

// JSON-RPC / LSP error codes.
namespace error_code {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
inline constexpr int ServerNotInitialized = -32002;
inline constexpr int RequestFailed = -32803;
}  // namespace error_code

// The project configuration that applies to documents in one folder.
struct ConfigLookup {
  ProjectConfig project;  // project.file is empty when no config file was found (defaults)
  std::string error;      // why the file could not be read (shown to the user); empty when fine
};
// Finds and reads the configuration for documents in `dir`, walking up as the CLI does
// (lint/core/config_file.hpp).
using ConfigLoader = std::function<ConfigLookup(const std::filesystem::path& dir)>;
ConfigLookup load_config_for(const std::filesystem::path& dir);

// Editor settings (initializationOptions, workspace/didChangeConfiguration), applied on top of the
// config file by the same merge as the command line's (lint/core/settings.hpp). Reads
// {"select": [...], "ignore": [...], "severity": {rule: level}, "thresholds": {rule: {option: v}} or
// {option: v}, "globalThresholds": {option: v}} (also nested under "planlint"); values are numbers
// or strings with the config file's units ("1k", "30MB"). Names are validated as in the config
// file: each problem (an unknown rule or option, a bad level or value) is appended to `errors`
// (the server shows them to the user) and that entry is left out.
Settings parse_overrides(const json& options, std::vector<std::string>& errors);

// Lints one document. `diagnostics` must be what `planlint check` reports for it.
using Linter = std::function<LintResult(std::string_view text, const std::string& path, const Config& config)>;
// lint_input on the editor's buffer, with every finishing step, keeping the plans for hover and outline.
LintResult lint_document(std::string_view text, const std::string& path, const Config& config);

struct ServerOptions {
  Linter lint = lint_document;
  ConfigLoader load_config = load_config_for;
  std::size_t max_document_bytes = 64u << 20;  // larger documents are kept but not linted
  std::size_t max_message_bytes = FrameReader::kDefaultMaxBody;
};

class Server {
 public:
  explicit Server(std::ostream& out, ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Serves `in` until `exit` or the end of the stream; returns the process exit code
  // (0 after shutdown + exit, 1 otherwise, as the specification asks).
  int run(std::istream& in);
  // Handles one message body. Used by run(), tests and the fuzzer.
  void handle(std::string_view body);
  // Answers a framing problem (no id is known: the error goes to id null).
  void handle_frame_error(const Frame& frame);
  // Lints and publishes every document edited since the last publish.
  void flush();

  [[nodiscard]] bool exited() const { return exited_; }
  [[nodiscard]] int exit_code() const { return shutdown_ ? 0 : 1; }

 private:
  struct Document;

  void dispatch(const json& msg);
  void request(const std::string& method, const json& id, const json& params);
  void notification(const std::string& method, const json& params);

  json on_initialize(const json& params);
  void on_initialized();
  void did_open(const json& params);
  void did_change(const json& params);
  void did_save(const json& params);
  void did_close(const json& params);
  void did_change_watched_files(const json& params);
  void did_change_configuration(const json& params);
  json hover(const json& params);
  json document_symbol(const json& params);
  json code_action(const json& params);
  json execute_command(const json& params);

  Document& document(const json& params);  // throws an InvalidParams error when not open
  void lint(Document& doc);
  const ConfigLookup& config_for(const std::string& path);
  void reload_config();
  void set_overrides(const json& options);

  void respond(const json& id, json result);
  void respond_error(const json& id, int code, const std::string& message);
  void notify(const std::string& method, json params);
  void show_message(int type, const std::string& message);
  void log_message(int type, const std::string& message);
  void send(const json& msg);

  std::ostream& out_;
  ServerOptions options_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  bool watch_dynamic_ = false;
  int next_request_id_ = 1;
  Settings overrides_;
  std::map<std::string, ConfigLookup> config_cache_;  // by folder
  std::set<std::string> reported_config_errors_;
  std::map<std::string, std::unique_ptr<Document>> documents_;  // by URI
};

}  // namespace planlint::lsp
