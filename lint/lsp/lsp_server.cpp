#include "lint/lsp/lsp_server.hpp"

#include <cstdio>
#include <exception>

#include "lint/core/json_nesting.hpp"
#include "lint/lsp/lsp_features.hpp"
#include "lint/lsp/lsp_message.hpp"

namespace planlint::lsp {

namespace {

// A request that cannot be answered: becomes a JSON-RPC error response.
struct RpcError {
  int code;
  std::string message;
};

constexpr int kMessageError = 1;
constexpr int kMessageWarning = 2;
constexpr int kMessageInfo = 3;
// No LSP message nests deeper than a few dozen levels; settings objects stay far below this.
constexpr std::size_t kMaxJsonNesting = 512;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

const json& member(const json& obj, const char* key) {
  static const json null_value;
  if (!obj.is_object()) return null_value;
  auto it = obj.find(key);
  return it == obj.end() ? null_value : *it;
}

std::string string_member(const json& obj, const char* key) {
  const json& v = member(obj, key);
  if (!v.is_string()) throw RpcError{error_code::InvalidParams, std::string("missing or non-string '") + key + "'"};
  return v.get<std::string>();
}

std::string uri_of(const json& params) { return string_member(member(params, "textDocument"), "uri"); }

// Only an integer version is kept (anything else is the client's mistake, and copying it could be
// costly).
json version_of(const json& v) { return v.is_number_integer() ? v : json(nullptr); }

// The range of an incremental change, strictly: both positions objects with non-negative integer
// `line` and `character` no larger than the LSP's uinteger (2^31 - 1), and start not after end.
// Positions past the end of a line or of the document are valid (they clamp to it).
std::optional<Range> edit_range_from_json(const json& j, std::string& why) {
  if (!j.is_object()) {
    why = "'range' is not an object";
    return std::nullopt;
  }
  constexpr std::uint64_t kMaxUinteger = 2147483647;
  Position p[2];
  const char* names[2] = {"start", "end"};
  for (int k = 0; k < 2; ++k) {
    auto it = j.find(names[k]);
    if (it == j.end() || !it->is_object()) {
      why = std::string("missing or non-object '") + names[k] + "'";
      return std::nullopt;
    }
    for (const char* field : {"line", "character"}) {
      auto v = it->find(field);
      if (v == it->end()) {
        why = std::string(names[k]) + "." + field + " is missing";
        return std::nullopt;
      }
      if (!v->is_number_unsigned() || v->get<std::uint64_t>() > kMaxUinteger) {
        why = std::string(names[k]) + "." + field + " is not an integer from 0 to 2^31-1";
        return std::nullopt;
      }
      (std::string_view(field) == "line" ? p[k].line : p[k].character) = v->get<std::uint32_t>();
    }
  }
  if (p[1] < p[0]) {
    why = "start is after end";
    return std::nullopt;
  }
  return Range{p[0], p[1]};
}

bool is_config_file(std::string_view path) {
  auto slash = path.find_last_of('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name == ".planlint.toml" || name == "pyproject.toml";
}

std::string folder_of(const std::string& path) {
  std::filesystem::path p(path);
  if (!p.is_absolute()) return std::filesystem::current_path().string();
  return p.parent_path().string();
}

}  // namespace

struct Server::Document {
  std::string uri;
  std::string path;
  std::string text;
  json version;  // integer, or null when the client gave none
  bool dirty = true;
  std::unique_ptr<LineIndex> lines;
  LintResult result;
  bool too_large = false;

  void set_text(std::string t) {
    text = std::move(t);
    lines = std::make_unique<LineIndex>(text);
    dirty = true;
  }
  [[nodiscard]] DocumentView view() const { return {uri, text, *lines, result}; }
};

// --- configuration --------------------------------------------------------------------------

ConfigLookup load_config_for(const std::filesystem::path& dir) {
  ConfigLookup out;
  auto file = find_config_file(dir);
  if (!file) return out;
  ConfigError error;
  if (auto project = load_config_file(*file, error)) {
    out.project = std::move(*project);
  } else {
    out.project.file = *file;
    out.error = error.str();
  }
  return out;
}

LintResult lint_document(std::string_view text, const std::string& path, const Config& config) {
  LintRequest request;
  request.path = path;
  request.text = text;
  return std::move(lint_input(request, config).result);
}

namespace {

// A threshold value from the editor as the config file would spell it: numbers exactly, strings
// with their unit ("1k"); nullopt for anything else.
std::optional<std::string> quantity_text(const json& v) {
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return std::string(buf);
  }
  if (v.is_string()) return v.get<std::string>();
  return std::nullopt;
}

}  // namespace

Settings parse_overrides(const json& options, std::vector<std::string>& errors) {
  Settings o;
  const json* src = &options;
  if (options.is_object() && options.contains("planlint") && options["planlint"].is_object())
    src = &options["planlint"];
  if (!src->is_object()) return o;
  std::string err;
  auto names = [&](const char* key, bool (*add)(Settings&, std::string_view, std::string&)) {
    const json& v = member(*src, key);
    if (v.is_null()) return;
    if (!v.is_array()) {
      errors.push_back(std::string("'") + key + "' must be a list of rule names or codes");
      return;
    }
    if (std::string_view(key) == "select") o.select.emplace();  // given: replaces the file's list
    for (const auto& e : v) {
      if (!e.is_string())
        errors.push_back(std::string("'") + key + "' must contain only strings");
      else if (!add(o, e.get<std::string>(), err))
        errors.push_back(std::string("'") + key + "': " + err);
    }
  };
  names("select", settings_select);
  names("ignore", settings_ignore);
  if (const json& sev = member(*src, "severity"); sev.is_object()) {
    for (const auto& [rule, level] : sev.items()) {
      if (!level.is_string())
        errors.push_back("severity of '" + rule + "' must be \"error\", \"warning\" or \"info\"");
      else if (!settings_severity(o, rule, level.get<std::string>(), err))
        errors.push_back("severity: " + err);
    }
  }
  auto threshold = [&](const std::string& key, const json& v) {
    auto text = quantity_text(v);
    if (!text)
      errors.push_back("threshold '" + key + "' must be a number or a quantity such as \"30MB\"");
    else if (!settings_threshold(o, key, *text, err))
      errors.push_back("thresholds: " + err);
  };
  if (const json& th = member(*src, "thresholds"); th.is_object()) {
    for (const auto& [rule, values] : th.items()) {
      if (!values.is_object()) {  // a shared option given at the top level
        threshold(rule, values);
        continue;
      }
      for (const auto& [name, v] : values.items()) threshold(rule + "." + name, v);
    }
  }
  for (const char* key : {"globalThresholds", "global_thresholds"})
    if (const json& g = member(*src, key); g.is_object())
      for (const auto& [name, v] : g.items()) threshold(name, v);
  return o;
}

// --- server ---------------------------------------------------------------------------------

Server::Server(std::ostream& out, ServerOptions options) : out_(out), options_(std::move(options)) {}
Server::~Server() = default;

int Server::run(std::istream& in) {
  FrameReader reader(in, options_.max_message_bytes);
  while (!exited_) {
    if (!reader.has_buffered_input()) flush();  // about to wait for the editor: publish now
    Frame f = reader.read();
    switch (f.status) {
      case FrameStatus::Message: handle(f.body); break;
      case FrameStatus::Eof: return exit_code();
      case FrameStatus::Truncated:
        handle_frame_error(f);
        return exit_code();
      default: handle_frame_error(f); break;
    }
  }
  return exit_code();
}

void Server::handle_frame_error(const Frame& frame) {
  respond_error(nullptr, frame.status == FrameStatus::TooLarge ? error_code::RequestFailed : error_code::ParseError,
                frame.error);
}

void Server::handle(std::string_view body) {
  if (nests_deeper_than(body, kMaxJsonNesting)) {
    respond_error(nullptr, error_code::ParseError,
                  "message nests arrays or objects deeper than " + std::to_string(kMaxJsonNesting) + " levels");
    return;
  }
  json msg = parse_message(body);  // as json::parse, the document text read faster
  if (msg.is_discarded()) {
    respond_error(nullptr, error_code::ParseError, "message is not valid JSON");
    return;
  }
  try {
    dispatch(msg);
  } catch (const RpcError& e) {
    const json& id = member(msg, "id");
    respond_error(id.is_number_integer() || id.is_string() ? id : json(nullptr), e.code, e.message);
  } catch (const std::exception& e) {
    log_message(kMessageError, std::string("planlint: internal error: ") + e.what());
  }
}

void Server::dispatch(const json& msg) {
  if (!msg.is_object()) throw RpcError{error_code::InvalidRequest, "a message must be a JSON object"};
  const json& id = member(msg, "id");
  const json& method = member(msg, "method");
  bool has_id = msg.contains("id");
  if (!method.is_string()) {
    if (has_id && (msg.contains("result") || msg.contains("error"))) return;  // a response to our request
    throw RpcError{error_code::InvalidRequest, "a message needs a string 'method'"};
  }
  if (has_id && !id.is_number_integer() && !id.is_string())
    throw RpcError{error_code::InvalidRequest, "'id' must be an integer or a string"};
  const json& params = member(msg, "params");
  if (has_id)
    request(method.get<std::string>(), id, params);
  else
    notification(method.get<std::string>(), params);
}

void Server::request(const std::string& method, const json& id, const json& params) {
  try {
    if (method == "initialize") {
      if (initialized_) throw RpcError{error_code::InvalidRequest, "initialize was already called"};
      respond(id, on_initialize(params));
      return;
    }
    if (!initialized_) throw RpcError{error_code::ServerNotInitialized, "initialize first"};
    if (shutdown_) throw RpcError{error_code::InvalidRequest, "the server is shutting down"};
    if (method == "shutdown") {
      shutdown_ = true;
      respond(id, nullptr);
    } else if (method == "textDocument/hover") {
      respond(id, hover(params));
    } else if (method == "textDocument/documentSymbol") {
      respond(id, document_symbol(params));
    } else if (method == "textDocument/codeAction") {
      respond(id, code_action(params));
    } else if (method == "workspace/executeCommand") {
      respond(id, execute_command(params));
    } else {
      throw RpcError{error_code::MethodNotFound, "method not found: " + method};
    }
  } catch (const RpcError& e) {
    respond_error(id, e.code, e.message);
  } catch (const std::exception& e) {
    respond_error(id, error_code::InternalError, std::string("internal error: ") + e.what());
  }
}

void Server::notification(const std::string& method, const json& params) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_) return;  // dropped, as the specification asks
  try {
    if (method == "initialized") on_initialized();
    else if (method == "textDocument/didOpen") did_open(params);
    else if (method == "textDocument/didChange") did_change(params);
    else if (method == "textDocument/didSave") did_save(params);
    else if (method == "textDocument/didClose") did_close(params);
    else if (method == "workspace/didChangeWatchedFiles") did_change_watched_files(params);
    else if (method == "workspace/didChangeConfiguration") did_change_configuration(params);
    // Anything else ($/cancelRequest, $/setTrace, ...) needs no answer.
  } catch (const RpcError& e) {
    log_message(kMessageError, "planlint: " + method + ": " + e.message);
  } catch (const std::exception& e) {
    log_message(kMessageError, "planlint: " + method + ": internal error: " + e.what());
  }
}

json Server::on_initialize(const json& params) {
  initialized_ = true;
  const json& caps = member(params, "capabilities");
  watch_dynamic_ = member(member(member(caps, "workspace"), "didChangeWatchedFiles"), "dynamicRegistration") == true;
  if (const json& opts = member(params, "initializationOptions"); !opts.is_null()) set_overrides(opts);
  return {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
        {"hoverProvider", true},
        {"documentSymbolProvider", true},
        {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
        {"executeCommandProvider", {{"commands", json::array({std::string(kShowFixCommand)})}}}}},
      {"serverInfo", {{"name", "planlint"}, {"version", PLANLINT_VERSION}}}};
}

void Server::on_initialized() {
  if (!watch_dynamic_) return;
  json watchers = json::array();
  for (const char* glob : {"**/.planlint.toml", "**/pyproject.toml"})
    watchers.push_back({{"globPattern", glob}});
  send({{"jsonrpc", "2.0"},
        {"id", "planlint-" + std::to_string(next_request_id_++)},
        {"method", "client/registerCapability"},
        {"params",
         {{"registrations", json::array({{{"id", "planlint-config-watch"},
                                          {"method", "workspace/didChangeWatchedFiles"},
                                          {"registerOptions", {{"watchers", watchers}}}}})}}}});
}

Server::Document& Server::document(const json& params) {
  std::string uri = uri_of(params);
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw RpcError{error_code::InvalidParams, "document is not open: " + uri};
  if (it->second->dirty) lint(*it->second);
  return *it->second;
}

void Server::did_open(const json& params) {
  const json& td = member(params, "textDocument");
  std::string uri = string_member(td, "uri");
  auto doc = std::make_unique<Document>();
  doc->uri = uri;
  doc->path = uri_to_path(uri);
  doc->version = version_of(member(td, "version"));
  doc->set_text(string_member(td, "text"));
  documents_[uri] = std::move(doc);
}

void Server::did_change(const json& params) {
  std::string uri = uri_of(params);
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw RpcError{error_code::InvalidParams, "didChange for a document that is not open: " + uri};
  Document& doc = *it->second;
  const json& changes = member(params, "contentChanges");
  if (!changes.is_array()) throw RpcError{error_code::InvalidParams, "missing 'contentChanges'"};
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const json& c = changes[i];
    std::string text = string_member(c, "text");
    const json& range_json = member(c, "range");
    if (range_json.is_null() && !(c.is_object() && c.contains("range"))) {
      doc.set_text(std::move(text));  // no range: the whole new text
      continue;
    }
    // Incremental edit (we ask for incremental sync: the editor sends only the changed range).
    // A range that is there but not a valid range is the client's error, never a full text:
    // this change and the ones after it (which are relative to it) are not applied.
    std::string why;
    auto range = edit_range_from_json(range_json, why);
    if (!range) {
      std::string what = i + 1 < changes.size()
                             ? "it and the " + std::to_string(changes.size() - i - 1) + " after it were"
                             : "it was";
      log_message(kMessageError, "planlint: textDocument/didChange: change " + std::to_string(i + 1) + " of " +
                                     std::to_string(changes.size()) + " for " + uri + " has an invalid range (" + why +
                                     "); " + what + " not applied, the document is kept as it was before it");
      break;
    }
    std::size_t b = doc.lines->to_offset(range->start);
    std::size_t e = doc.lines->to_offset(range->end);
    replace_text(doc.text, *doc.lines, b, e, text);
    doc.dirty = true;
  }
  doc.version = version_of(member(member(params, "textDocument"), "version"));
}

void Server::did_save(const json& params) {
  std::string uri = uri_of(params);
  std::string path = uri_to_path(uri);
  if (is_config_file(path)) {
    reload_config();
    return;
  }
  auto it = documents_.find(uri);
  if (it == documents_.end()) return;
  // The config may have changed without a watched-files event: read it again for this folder.
  config_cache_.erase(folder_of(it->second->path));
  if (const json& text = member(params, "text"); text.is_string()) it->second->set_text(text.get<std::string>());
  it->second->dirty = true;
}

void Server::did_close(const json& params) {
  std::string uri = uri_of(params);
  if (documents_.erase(uri) == 0) return;
  notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
}

void Server::did_change_watched_files(const json& params) {
  const json& changes = member(params, "changes");
  if (!changes.is_array()) return;
  for (const auto& c : changes) {
    const json& uri = member(c, "uri");
    if (uri.is_string() && is_config_file(uri_to_path(uri.get<std::string>()))) {
      reload_config();
      return;
    }
  }
}

void Server::did_change_configuration(const json& params) {
  const json& settings = member(params, "settings");
  if (!settings.is_object() || settings.empty()) return;
  set_overrides(settings);
  for (auto& [uri, doc] : documents_) doc->dirty = true;
}

void Server::set_overrides(const json& options) {
  std::vector<std::string> errors;
  overrides_ = parse_overrides(options, errors);
  for (const auto& e : errors) show_message(kMessageWarning, "planlint settings: " + e);
}

void Server::reload_config() {
  config_cache_.clear();
  reported_config_errors_.clear();
  for (auto& [uri, doc] : documents_) doc->dirty = true;
}

const ConfigLookup& Server::config_for(const std::string& path) {
  std::string dir = folder_of(path);
  auto it = config_cache_.find(dir);
  if (it != config_cache_.end()) return it->second;
  ConfigLookup found;
  try {
    found = options_.load_config(dir);
  } catch (const std::exception& e) {
    found.error = e.what();
  }
  if (!found.error.empty() && reported_config_errors_.insert(found.error).second)
    show_message(kMessageError, "planlint: " + found.error);
  return config_cache_.emplace(dir, std::move(found)).first->second;
}

void Server::lint(Document& doc) {
  doc.dirty = false;
  doc.result = LintResult{};
  doc.result.parse.path = doc.path;
  doc.too_large = doc.text.size() > options_.max_document_bytes;
  // A notice from the server itself (no rule, so no code or documentation link).
  auto notice = [&doc](Severity severity, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.message = std::move(message);
    d.range = {1, 1, 1, 1};
    doc.result.diagnostics.push_back(std::move(d));
  };
  if (doc.too_large) {
    notice(Severity::Warning, "document is " + format_bytes(static_cast<double>(doc.text.size())) +
                                  "; planlint lints documents up to " +
                                  format_bytes(static_cast<double>(options_.max_document_bytes)) +
                                  " in the editor (use the CLI)");
  } else {
    Config config = apply_settings(config_for_path(config_for(doc.path).project, doc.path), overrides_);
    try {
      doc.result = options_.lint(doc.text, doc.path, config);
    } catch (const std::exception& e) {
      doc.result = LintResult{};
      notice(Severity::Error, std::string("planlint failed: ") + e.what());
    }
  }
  json params = {{"uri", doc.uri}, {"diagnostics", diagnostics_json(doc.view())}};
  if (doc.version.is_number_integer()) params["version"] = doc.version;
  notify("textDocument/publishDiagnostics", std::move(params));
}

void Server::flush() {
  for (auto& [uri, doc] : documents_)
    if (doc->dirty) lint(*doc);
}

json Server::hover(const json& params) {
  Document& doc = document(params);
  auto pos = position_from_json(member(params, "position"));
  if (!pos) throw RpcError{error_code::InvalidParams, "missing or invalid 'position'"};
  return hover_json(doc.view(), *pos);
}

json Server::document_symbol(const json& params) { return document_symbols_json(document(params).view()); }

json Server::code_action(const json& params) {
  Document& doc = document(params);
  auto range = range_from_json(member(params, "range"));
  if (!range) throw RpcError{error_code::InvalidParams, "missing or invalid 'range'"};
  json actions = code_actions_json(doc.view(), *range);
  // Honour context.only (kinds are hierarchical: "quickfix" matches "quickfix.x").
  const json& only = member(member(params, "context"), "only");
  if (only.is_array()) {
    json kept = json::array();
    for (auto& a : actions) {
      std::string kind = member(a, "kind").is_string() ? a["kind"].get<std::string>() : "";
      for (const auto& k : only) {
        if (!k.is_string()) continue;
        std::string want = k.get<std::string>();
        if (kind == want || kind.rfind(want + ".", 0) == 0) {
          kept.push_back(a);
          break;
        }
      }
    }
    actions = std::move(kept);
  }
  return actions;
}

json Server::execute_command(const json& params) {
  std::string command = string_member(params, "command");
  if (command != kShowFixCommand) throw RpcError{error_code::InvalidParams, "unknown command: " + command};
  const json& args = member(params, "arguments");
  const json& first = args.is_array() && !args.empty() ? args[0] : member(params, "arguments");
  std::string fix = member(first, "fix").is_string() ? first["fix"].get<std::string>() : "";
  if (fix.empty()) throw RpcError{error_code::InvalidParams, "planlint.showFix needs {\"fix\": ...}"};
  std::string text = "planlint";
  if (member(first, "rule").is_string()) text += " " + first["rule"].get<std::string>();
  if (member(first, "operator").is_string() && !first["operator"].get<std::string>().empty())
    text += " (operator " + first["operator"].get<std::string>() + ")";
  text += ": " + fix;
  if (member(first, "useInstead").is_string()) text += "\n\nUse instead:\n" + first["useInstead"].get<std::string>();
  show_message(kMessageInfo, text);
  return nullptr;
}

void Server::respond(const json& id, json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::respond_error(const json& id, int code, const std::string& message) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void Server::notify(const std::string& method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Server::show_message(int type, const std::string& message) {
  notify("window/showMessage", {{"type", type}, {"message", message}});
}

void Server::log_message(int type, const std::string& message) {
  notify("window/logMessage", {{"type", type}, {"message", message}});
}

void Server::send(const json& msg) { write_frame(out_, dump(msg)); }

}  // namespace planlint::lsp
