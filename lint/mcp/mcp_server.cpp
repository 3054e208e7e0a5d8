#include "lint/mcp/mcp_server.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <istream>
#include <ostream>
#include <set>
#include <sstream>

#include "lint/core/config_file.hpp"
#include "lint/core/settings.hpp"
#include "lint/diff/diff.hpp"
#include "lint/engine/engine.hpp"
#include "lint/core/input.hpp"
#include "lint/engine/parse_errors.hpp"
#include "lint/output/output.hpp"
#include "model/op_time.hpp"
#include "lint/visual/show.hpp"
#include "model/format.hpp"
#include "model/plan_walk.hpp"
#include "model/read_check.hpp"
#include "rules/rule_doc.hpp"

namespace planlint::mcp {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr std::size_t kMaxNesting = 256;     // deeper JSON is refused before parsing
constexpr std::size_t kMaxTextFindings = 20; // findings listed in a text summary

// ---------------------------------------------------------------------------------------------
// The tools' schemas. Arguments are validated against the inputSchema itself (validate()), so the
// declared schema and what the server accepts cannot drift apart.

const char* const kRuleSettings = R"J({
  "select": {"type": "array", "items": {"type": "string"},
             "description": "Only these rules (names or codes, e.g. [\"PL002\", \"disk-spill\"]); replaces the config file's select"},
  "ignore": {"type": "array", "items": {"type": "string"}, "description": "Skip these rules (names or codes)"},
  "severity": {"type": "object", "additionalProperties": {"type": "string", "enum": ["error", "warning", "info"]},
               "description": "Override severities: {\"skew-not-handled\": \"error\"}"},
  "set": {"type": "object", "additionalProperties": {"type": ["string", "number"]},
          "description": "Thresholds, as planlint check --set: {\"broadcast-threshold\": \"30m\"} or {\"exploding-join.explode-min-rows\": 5e6}"},
  "no_config": {"type": "boolean", "description": "Ignore .planlint.toml / pyproject.toml (default: the nearest one applies, as for planlint check)"}
})J";

const char* const kFindingSchema = R"J({
  "type": "object",
  "required": ["code", "rule", "severity", "message", "operator", "operator_id", "location", "evidence", "fix"],
  "properties": {
    "code": {"type": "string"}, "rule": {"type": "string"},
    "severity": {"type": "string", "enum": ["error", "warning", "info"]},
    "message": {"type": "string"}, "operator": {"type": "string"}, "operator_id": {"type": "string"},
    "location": {"type": "object", "required": ["line", "column"],
                 "properties": {"line": {"type": "integer"}, "column": {"type": "integer"},
                                "end_line": {"type": "integer"}, "end_column": {"type": "integer"}}},
    "plan": {"type": "string"},
    "execution": {"type": "object", "required": ["id", "description"],
                  "properties": {"id": {"type": "integer"}, "description": {"type": "string"}}},
    "evidence": {"type": "array", "items": {"type": "object", "required": ["name", "value"],
                 "properties": {"name": {"type": "string"}, "value": {"type": "string"},
                                "number": {"type": "number"}, "unit": {"type": "string"}}}},
    "fix": {"type": "string"},
    "impact": {"type": "string"}
  }
})J";

json findings_output_schema(const char* extra_description) {
  json s = json::parse(R"J({
    "type": "object",
    "required": ["input", "format", "findings", "counts"],
    "properties": {
      "input": {"type": "string", "description": "the input, as findings name it"},
      "format": {"type": "string", "description": "what was read: explain text, Query Profile, event log, ..."},
      "findings": {"type": "array"},
      "counts": {"type": "object", "required": ["error", "warning", "info", "suppressed"],
                 "properties": {"error": {"type": "integer"}, "warning": {"type": "integer"},
                                "info": {"type": "integer"}, "suppressed": {"type": "integer"}}}
    }
  })J");
  s["properties"]["findings"]["items"] = json::parse(kFindingSchema);
  s["properties"]["findings"]["description"] = extra_description;
  return s;
}

json input_schema(const char* own, std::initializer_list<const char*> required, bool rule_settings) {
  json s{{"type", "object"}, {"properties", json::parse(own)}, {"additionalProperties", false}};
  if (rule_settings) s["properties"].update(json::parse(kRuleSettings));
  if (required.size()) {
    s["required"] = json::array();
    for (const char* r : required) s["required"].push_back(r);
  }
  return s;
}

json make_tools() {
  json tools = json::array();
  tools.push_back({
      {"name", "lint_plan"},
      {"title", "Lint a Spark / Databricks query plan"},
      {"description",
       "Find what makes a Spark or Databricks query slow, with the evidence (sizes, rows, times) and a fix. "
       "Give the plan as text (`plan`: df.explain(\"formatted\") / EXPLAIN output, a Databricks Query Profile JSON, "
       "a History Server SQL answer) or a file (`path`: the same, or a Spark event log, compressed or a rolling "
       "folder). The format is detected. Same rules, config file and settings as `planlint check`."},
      {"inputSchema", input_schema(R"J({
         "plan": {"type": "string", "description": "The plan text (explain output, profile JSON, ...)"},
         "path": {"type": "string", "description": "A plan file, event log or rolling event-log folder on this machine"},
         "filename": {"type": "string", "description": "With `plan`: the name findings use and where the config file is looked for"},
         "execution": {"type": "integer", "minimum": 0, "description": "Event logs: check only this SQL execution id"}
       })J", {}, true)},
      {"outputSchema", findings_output_schema("the findings, in reading order")},
      {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}},
  });
  tools.push_back({
      {"name", "explain_rule"},
      {"title", "Explain a planlint rule"},
      {"description",
       "The documentation of one planlint rule (as `planlint rule NAME`): what it finds, why it is slow, an "
       "example, what to do instead, the evidence it needs and its thresholds. By name (shuffle-join-could-broadcast) "
       "or code (PL002)."},
      {"inputSchema", input_schema(R"J({
         "rule": {"type": "string", "description": "Rule name or code, e.g. PL002 or disk-spill"},
         "format": {"type": "string", "enum": ["text", "markdown"], "description": "Text of the summary (default text)"}
       })J", {"rule"}, false)},
      {"outputSchema", json::parse(R"J({
         "type": "object",
         "required": ["code", "name", "severity", "summary", "what", "why", "example", "use_instead", "evidence", "options", "also_reports"],
         "properties": {
           "code": {"type": "string"}, "name": {"type": "string"},
           "severity": {"type": "string", "enum": ["error", "warning", "info"]},
           "summary": {"type": "string"}, "what": {"type": "string"}, "why": {"type": "string"},
           "example": {"type": "string"}, "use_instead": {"type": "string"}, "evidence": {"type": "string"},
           "options": {"type": "array", "items": {"type": "object", "required": ["name", "default", "unit", "description"],
                       "properties": {"name": {"type": "string"}, "default": {"type": "number"},
                                      "unit": {"type": "string"}, "description": {"type": "string"}}}},
           "also_reports": {"type": "array", "items": {"type": "object", "required": ["name", "code"],
                                                       "properties": {"name": {"type": "string"}, "code": {"type": "string"}}}}
         }
       })J")},
      {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}},
  });
  tools.push_back({
      {"name", "lint_history_server"},
      {"title", "Lint an application from a Spark History Server"},
      {"description",
       "Fetch the SQL executions of a Spark application (or one execution) from a Spark History Server or a "
       "live driver UI (/api/v1/applications/<app>/sql) and lint them with their runtime metrics, as "
       "`planlint check --history-server URL --app APP [--execution N]`."},
      {"inputSchema", input_schema(R"J({
         "url": {"type": "string", "description": "The History Server's (or driver UI's) root, e.g. http://localhost:18080"},
         "app": {"type": "string", "description": "Application id (APP or APP/ATTEMPT)"},
         "execution": {"type": "integer", "minimum": 0, "description": "Only this SQL execution id"}
       })J", {"url", "app"}, true)},
      {"outputSchema", findings_output_schema("the findings; each names its execution in `plan` and `execution`")},
      {"annotations", {{"readOnlyHint", true}, {"openWorldHint", true}}},
  });
  tools.push_back({
      {"name", "diff_plans"},
      {"title", "What got worse between two plans"},
      {"description",
       "Compare two plans of the same query (before and after a change) and report what got worse (a broadcast "
       "join became a sort-merge join, a filter is no longer pushed, more data is shuffled, ...) as findings in "
       "the new plan, as `planlint diff OLD NEW`. Each side as text or a path."},
      {"inputSchema", input_schema(R"J({
         "old_plan": {"type": "string", "description": "The plan before the change, as text"},
         "old_path": {"type": "string", "description": "... or as a file"},
         "new_plan": {"type": "string", "description": "The plan after the change, as text"},
         "new_path": {"type": "string", "description": "... or as a file"},
         "force": {"type": "boolean", "description": "Compare even when the plans do not look like one query (few shared tables or paired operators); without it that is an error"}
       })J", {}, true)},
      {"outputSchema", findings_output_schema("the regressions, pointing into the new plan")},
      {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}},
  });
  tools.push_back({
      {"name", "show_plan"},
      {"title", "Show the plan tree and its slowest operators"},
      {"description",
       "The operator tree of a plan with rows, time and share of time per operator, and the operators that took "
       "the most time (or, without times, produced the most rows), as `planlint show`. Plan as text or a path."},
      {"inputSchema", input_schema(R"J({
         "plan": {"type": "string", "description": "The plan text"},
         "path": {"type": "string", "description": "A plan file or event log on this machine"},
         "top": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Slowest operators listed (default 5)"},
         "width": {"type": "integer", "minimum": 40, "maximum": 1000, "description": "Tree line width (default 120)"},
         "no_config": {"type": "boolean", "description": "Ignore .planlint.toml / pyproject.toml"}
       })J", {}, false)},
      {"outputSchema", json::parse(R"J({
         "type": "object",
         "required": ["input", "format", "plans", "tree"],
         "properties": {
           "input": {"type": "string"}, "format": {"type": "string"},
           "tree": {"type": "string", "description": "the tree as planlint show prints it"},
           "plans": {"type": "array", "items": {"type": "object",
             "required": ["index", "name", "operators", "findings", "top_by", "top_operators"],
             "properties": {
               "index": {"type": "integer"}, "name": {"type": "string"},
               "operators": {"type": "integer"}, "findings": {"type": "integer"},
               "total_time_ms": {"type": "number"},
               "top_by": {"type": "string", "enum": ["time", "rows", "none"]},
               "top_operators": {"type": "array", "items": {"type": "object",
                 "required": ["operator", "operator_id", "line"],
                 "properties": {"operator": {"type": "string"}, "operator_id": {"type": "string"},
                                "line": {"type": "integer"}, "time_ms": {"type": "number"},
                                "share": {"type": "number"}, "rows": {"type": "number"}}}}
             }}}
         }
       })J")},
      {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}},
  });
  return tools;
}

// ---------------------------------------------------------------------------------------------
// A small validator for the subset of JSON Schema the input schemas use: type (one or several),
// properties, required, additionalProperties (false or a schema), items, enum, minimum, maximum.

bool has_type(const json& v, const std::string& t) {
  if (t == "string") return v.is_string();
  if (t == "integer") return v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
  if (t == "number") return v.is_number();
  if (t == "boolean") return v.is_boolean();
  if (t == "array") return v.is_array();
  if (t == "object") return v.is_object();
  return false;
}

std::string type_names(const json& t) {
  if (t.is_string()) return t.get<std::string>() == "integer" ? "an integer" : "a " + t.get<std::string>();
  std::string s;
  for (const auto& x : t) s += (s.empty() ? "" : " or ") + type_names(x);
  return s;
}

bool validate(const json& v, const json& schema, const std::string& where, std::string& error) {
  if (auto t = schema.find("type"); t != schema.end()) {
    bool ok = t->is_string() ? has_type(v, *t) : std::any_of(t->begin(), t->end(), [&](const json& x) { return has_type(v, x); });
    if (!ok) {
      error = "`" + where + "` must be " + type_names(*t);
      return false;
    }
  }
  if (auto e = schema.find("enum"); e != schema.end() && std::find(e->begin(), e->end(), v) == e->end()) {
    std::string choices;
    for (const auto& x : *e) choices += (choices.empty() ? "" : ", ") + x.dump();
    error = "`" + where + "` must be one of " + choices;
    return false;
  }
  if (v.is_number()) {
    if (auto m = schema.find("minimum"); m != schema.end() && v.get<double>() < m->get<double>()) {
      error = "`" + where + "` must be at least " + m->dump();
      return false;
    }
    if (auto m = schema.find("maximum"); m != schema.end() && v.get<double>() > m->get<double>()) {
      error = "`" + where + "` must be at most " + m->dump();
      return false;
    }
  }
  if (v.is_array())
    if (auto items = schema.find("items"); items != schema.end())
      for (std::size_t i = 0; i < v.size(); ++i)
        if (!validate(v[i], *items, where + "[" + std::to_string(i) + "]", error)) return false;
  if (v.is_object()) {
    const json empty = json::object();
    auto props = schema.find("properties");
    const json& properties = props == schema.end() ? empty : *props;
    if (auto req = schema.find("required"); req != schema.end())
      for (const auto& r : *req)
        if (!v.contains(r.get<std::string>())) {
          error = "missing required argument `" + (where.empty() ? "" : where + ".") + r.get<std::string>() + "`";
          return false;
        }
    for (const auto& [key, value] : v.items()) {
      std::string at = where.empty() ? key : where + "." + key;
      if (auto p = properties.find(key); p != properties.end()) {
        if (!validate(value, *p, at, error)) return false;
        continue;
      }
      auto extra = schema.find("additionalProperties");
      if (extra == schema.end()) continue;
      if (extra->is_boolean()) {
        if (!extra->get<bool>()) {
          std::string known;
          for (const auto& [k, _] : properties.items()) known += (known.empty() ? "" : ", ") + k;
          error = "unknown argument `" + at + "` (arguments: " + known + ")";
          return false;
        }
        continue;
      }
      if (!validate(value, *extra, at, error)) return false;
    }
  }
  return true;
}

// Refuses JSON nested deeper than kMaxNesting before it is parsed (brackets outside strings).
bool too_deep(std::string_view line) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : line) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return true;
    } else if ((c == ']' || c == '}') && depth) --depth;
  }
  return false;
}

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json result_response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

// A tool's failure the model should read (CallToolResult with isError).
json tool_error(const std::string& message) {
  return {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

json tool_result(json structured, std::string text) {
  return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})},
          {"structuredContent", std::move(structured)},
          {"isError", false}};
}

std::string str_arg(const json& args, const char* name) {
  auto it = args.find(name);
  return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct ToolFailure {
  std::string message;
};

// ---------------------------------------------------------------------------------------------
// Findings as structured content and as a text summary.

// `plan_names`: how each plan of the input is named when a finding's own label does not (plan_names).
json finding_json(const Diagnostic& d, const std::vector<std::string>& plan_names) {
  json f;
  f["code"] = d.code;
  f["rule"] = d.rule;
  f["severity"] = std::string(to_string(d.severity));
  f["message"] = d.message;
  f["operator"] = d.operator_name;
  f["operator_id"] = d.operator_id;
  json loc{{"line", d.range.line}, {"column", d.range.column}};
  if (d.range.end_line) {
    loc["end_line"] = d.range.end_line;
    loc["end_column"] = d.range.end_column;
  }
  f["location"] = std::move(loc);
  if (!d.plan_label.empty()) {
    f["plan"] = plan_label_text(d.plan_label);
    f["execution"] = {{"id", *d.plan_label.execution}, {"description", d.plan_label.description}};
  } else if (d.plan_index < plan_names.size() && !plan_names[d.plan_index].empty()) {
    f["plan"] = plan_names[d.plan_index];
  }
  f["evidence"] = json::array();
  for (const auto& e : d.evidence) {
    json je{{"name", e.name}, {"value", evidence_value(e)}};
    if (e.number && std::isfinite(*e.number)) je["number"] = *e.number;
    if (!e.unit.empty()) je["unit"] = e.unit;
    f["evidence"].push_back(std::move(je));
  }
  f["fix"] = d.fix;
  if (!d.impact_text.empty()) f["impact"] = d.impact_text;
  return f;
}

json findings_json(const FileReport& report, const std::vector<std::string>& plan_names) {
  json out;
  out["input"] = report.path;
  out["format"] = std::string(to_string(report.format));
  out["findings"] = json::array();
  std::size_t counts[3] = {0, 0, 0};
  for (const auto& d : report.diagnostics) {
    out["findings"].push_back(finding_json(d, plan_names));
    ++counts[d.severity == Severity::Error ? 0 : d.severity == Severity::Warning ? 1 : 2];
  }
  out["counts"] = {{"error", counts[0]}, {"warning", counts[1]}, {"info", counts[2]}, {"suppressed", report.suppressed}};
  return out;
}

std::string findings_text(const FileReport& report, const std::string& what) {
  std::ostringstream s;
  Totals t;
  t.files = 1;
  for (const auto& d : report.diagnostics)
    ++(d.severity == Severity::Error ? t.errors : d.severity == Severity::Warning ? t.warnings : t.infos);
  t.suppressed = report.suppressed;
  s << what << report.path << " (" << to_string(report.format) << "): " << summary_line(t) << "\n";
  std::size_t n = 0;
  for (const auto& d : report.diagnostics) {
    if (++n > kMaxTextFindings) {
      s << "... and " << report.diagnostics.size() - kMaxTextFindings << " more in structuredContent.findings\n";
      break;
    }
    s << "- " << to_string(d.severity) << " " << d.code << " " << d.rule;
    if (d.range.line) s << " at line " << d.range.line << ":" << d.range.column;
    s << ": " << labelled_message(d) << "\n";
    if (!d.fix.empty()) s << "  fix: " << d.fix << "\n";
  }
  return s.str();
}

}  // namespace

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> v{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return v;
}

Server::Server(std::ostream& out, std::ostream& log, ServerOptions options)
    : out_(out), log_(log), options_(std::move(options)), tools_(make_tools()) {}

std::size_t Server::max_line_bytes() const {
  // A plan of the largest allowed size, JSON-escaped (a newline is two bytes), plus the envelope.
  double plan = options_.max_input_bytes > 0 ? options_.max_input_bytes : Config{}.max_input_bytes;
  double bytes = 2 * plan + (1 << 20);
  return bytes >= 1e18 ? std::size_t{1} << 60 : static_cast<std::size_t>(bytes);
}

void Server::write(const json& message) {
  out_ << message.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  out_.flush();
}

int Server::run(std::istream& in) {
  std::streambuf* sb = in.rdbuf();
  const std::size_t limit = max_line_bytes();
  std::string line;
  for (;;) {
    line.clear();
    bool too_long = false, got = false;
    int c;
    while ((c = sb->sbumpc()) != std::char_traits<char>::eof()) {
      got = true;
      if (c == '\n') break;
      if (line.size() < limit) line.push_back(static_cast<char>(c));
      else too_long = true;
    }
    if (!got) break;  // end of input: the client closed the stream
    if (too_long) {
      log_ << "planlint mcp: skipped a message longer than " << limit << " bytes\n";
      write(error_response(nullptr, kInvalidRequest,
                           "message longer than " + std::to_string(limit) +
                               " bytes (twice --max-input-size plus 1 MiB); it was skipped"));
      continue;
    }
    try {
      if (auto reply = handle_line(line)) write(*reply);
    } catch (const std::exception& e) {  // one message never ends the session
      log_ << "planlint mcp: internal error: " << e.what() << "\n";
      write(error_response(nullptr, -32603, std::string("internal error: ") + e.what()));
    }
    if (c == std::char_traits<char>::eof()) break;
  }
  log_.flush();
  return 0;
}

std::optional<json> Server::handle_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
  if (too_deep(line)) {
    log_ << "planlint mcp: refused a message nested deeper than " << kMaxNesting << "\n";
    return error_response(nullptr, kParseError, "JSON nested deeper than " + std::to_string(kMaxNesting) + " levels");
  }
  json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    log_ << "planlint mcp: a line that is not JSON (" << line.size() << " bytes)\n";
    return error_response(nullptr, kParseError, "not JSON: each line must be one JSON-RPC 2.0 message");
  }
  return handle(message);
}

std::optional<json> Server::handle(const json& message) {
  if (message.is_array())
    return error_response(nullptr, kInvalidRequest, "JSON-RPC batches are not part of MCP since 2025-06-18; send one message per line");
  if (!message.is_object()) return error_response(nullptr, kInvalidRequest, "a JSON-RPC message is an object");
  auto id_it = message.find("id");
  json id = id_it == message.end() ? json() : *id_it;
  bool has_id = id_it != message.end();
  if (has_id && !id.is_string() && !id.is_number_integer())
    return error_response(nullptr, kInvalidRequest, "the id must be a string or an integer");
  if (message.value("jsonrpc", json()) != "2.0")
    return has_id ? std::optional<json>(error_response(id, kInvalidRequest, "`jsonrpc` must be \"2.0\"")) : std::nullopt;
  auto method_it = message.find("method");
  if (method_it == message.end()) return std::nullopt;  // a response to us: we send no requests
  if (!method_it->is_string()) return has_id ? std::optional<json>(error_response(id, kInvalidRequest, "`method` must be a string")) : std::nullopt;
  std::string method = *method_it;
  json params = message.value("params", json::object());

  if (!has_id) {  // notifications: never answered
    if (method == "notifications/initialized") initialized_ = initialize_seen_;
    return std::nullopt;
  }
  if (!params.is_object()) return error_response(id, kInvalidParams, "`params` must be an object");

  if (method == "initialize") {
    auto requested = params.find("protocolVersion");
    if (requested == params.end() || !requested->is_string())
      return error_response(id, kInvalidParams, "initialize: `protocolVersion` (a string) is required");
    const auto& versions = supported_protocol_versions();
    std::string asked = *requested;
    // The client's version when we speak it, else our newest: the client decides whether to go on.
    protocol_version_ = std::find(versions.begin(), versions.end(), asked) != versions.end() ? asked : versions.front();
    initialize_seen_ = true;
    log_ << "planlint mcp: initialize (client asked " << asked << ", speaking " << protocol_version_ << ")\n";
    return result_response(
        id, {{"protocolVersion", protocol_version_},
             {"capabilities", {{"tools", {{"listChanged", false}}}}},
             {"serverInfo", {{"name", "planlint"}, {"title", "planlint"}, {"version", PLANLINT_VERSION}}},
             {"instructions",
              "planlint reads Spark / Databricks query plans and reports what is slow, with evidence and a fix. "
              "Use lint_plan on explain output, a Query Profile JSON or an event log; show_plan for the operator "
              "tree and the slowest operators; diff_plans before/after a change; lint_history_server for a running "
              "or finished application; explain_rule for what a finding code means. Findings are deterministic: "
              "quote their evidence and fix."}});
  }
  if (method == "ping") return result_response(id, json::object());
  if (!initialize_seen_) return error_response(id, kInvalidRequest, "send initialize first");
  if (method == "tools/list") return result_response(id, {{"tools", tools_}});
  if (method == "tools/call") return call_tool(params, id);
  return error_response(id, kMethodNotFound, "method not found: " + method);
}

namespace {

// What a tool call needs from the server's options and its own arguments.
struct CallContext {
  const ServerOptions& options;
  const json& args;

  // The config for an input named `where` (a path or a filename; empty: the current folder).
  Config config(const std::string& where) const {
    bool use_files = options.use_config_files && !args.value("no_config", false);
    ProjectConfig project;
    if (use_files) {
      std::optional<fs::path> file;
      if (!options.config_file.empty()) file = fs::path(options.config_file);
      else {
        fs::path p(where.empty() ? "." : where);
        std::error_code ec;
        fs::path dir = fs::is_directory(p, ec) ? p : p.has_parent_path() ? p.parent_path() : fs::path(".");
        file = find_config_file(dir);
      }
      if (file) {
        ConfigError err;
        auto loaded = load_config_file(*file, err);
        if (!loaded) throw ToolFailure{"bad configuration file: " + err.str()};
        project = std::move(*loaded);
      }
    }
    Config c = apply_settings(config_for_path(project, fs::path(where.empty() ? "stdin" : where)), settings());
    if (options.max_input_bytes > 0) c.max_input_bytes = options.max_input_bytes;
    if (auto e = args.find("execution"); e != args.end()) c.execution = e->get<long long>();
    return c;
  }

  Settings settings() const {
    Settings s;
    std::string err;
    if (auto it = args.find("select"); it != args.end()) {
      s.select = std::set<std::string>{};  // an empty list selects nothing, as select = [] does
      for (const auto& r : *it)
        if (!settings_select(s, r.get<std::string>(), err)) throw ToolFailure{"select: " + err};
    }
    if (auto it = args.find("ignore"); it != args.end())
      for (const auto& r : *it)
        if (!settings_ignore(s, r.get<std::string>(), err)) throw ToolFailure{"ignore: " + err};
    if (auto it = args.find("severity"); it != args.end())
      for (const auto& [rule, level] : it->items())
        if (!settings_severity(s, rule, level.get<std::string>(), err)) throw ToolFailure{"severity: " + err};
    if (auto it = args.find("set"); it != args.end())
      for (const auto& [key, value] : it->items()) {
        std::string v = value.is_string() ? value.get<std::string>() : value.dump();
        if (!settings_threshold(s, key, v, err)) throw ToolFailure{"set: " + err};
      }
    return s;
  }
};

void check_size(std::string_view text, const Config& config, const char* what) {
  if (static_cast<double>(text.size()) > config.max_input_bytes)
    throw ToolFailure{std::string(what) + " is " + format_bytes(static_cast<double>(text.size())) +
                      ", larger than the maximum input size " + format_bytes(config.max_input_bytes) +
                      " (planlint mcp --max-input-size, or max-input-size in the config file)"};
}

// One input (text or path) through the engine's one entry point, every finishing step, non-plans
// refused. `keep_plans` false streams event logs.
Linted lint_one(const std::string& path, const std::optional<std::string>& text, const std::string& display,
                const Config& config, bool keep_plans) {
  LintRequest request;
  request.path = path;
  request.display = display;
  if (text) request.text = std::string_view(*text);
  LintOptions options;
  options.keep_plans = keep_plans;
  options.refuse_non_plans = true;
  Linted linted = lint_input(request, config, options);
  if (!linted.error.empty()) throw ToolFailure{linted.error};
  if (read_nothing(linted.result.parse)) {
    std::string why = display + ": no plan operators were read";
    for (const auto& m : linted.result.parse.messages)
      if (m.severity == MessageSeverity::Error) {
        why += " (" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message + ")";
        break;
      }
    throw ToolFailure{why};
  }
  return linted;
}

// How the tools' answers name each plan: an SQL execution by its label, as its findings do
// ("execution 3 (save at etl.py:41)"); a plan of an input that has several by its name ("plan 2");
// else "".
std::vector<std::string> plan_names(const ParseResult& parse) {
  std::vector<std::string> names;
  for (const auto& p : parse.plans) {
    std::string name = plan_label_text(plan_label(p, parse.traits));
    if (name.empty() && parse.plans.size() > 1) name = p.name.empty() ? "plan " + std::to_string(names.size() + 1) : std::string(p.name);
    names.push_back(std::move(name));
  }
  return names;
}

FileReport report_of(Linted& linted) {
  FileReport r;
  r.path = linted.path;
  r.format = linted.result.parse.format;
  r.traits = linted.result.parse.traits;
  r.suppressed = linted.suppressed;
  r.diagnostics = std::move(linted.result.diagnostics);
  return r;
}

// `plan` xor `path` (with the given argument names).
void one_of(const json& args, const char* a, const char* b) {
  bool has_a = args.contains(a), has_b = args.contains(b);
  if (has_a == has_b)
    throw ToolFailure{has_a ? std::string("give `") + a + "` or `" + b + "`, not both"
                            : std::string("give the plan as `") + a + "` (its text) or `" + b + "` (a file)"};
  if (has_b && args[b].get<std::string>() == "-")
    throw ToolFailure{std::string("`") + b + "`: standard input is the protocol's; pass the text as `" + a + "`"};
}

json tool_lint_plan(const CallContext& ctx) {
  one_of(ctx.args, "plan", "path");
  if (ctx.args.contains("plan")) {
    std::string filename = str_arg(ctx.args, "filename");
    Config config = ctx.config(filename);
    auto text = std::make_optional(ctx.args["plan"].get<std::string>());
    check_size(*text, config, "the plan");
    std::string display = filename.empty() ? "plan" : filename;
    Linted linted = lint_one(display, text, display, config, true);
    auto labels = plan_names(linted.result.parse);
    FileReport report = report_of(linted);
    return tool_result(findings_json(report, labels), findings_text(report, ""));
  }
  std::string path = ctx.args["path"];
  Config config = ctx.config(path);
  // Findings only: event logs are streamed plan by plan, as planlint check does; each finding
  // names its execution (Diagnostic::plan_label).
  Linted linted = lint_one(path, std::nullopt, path, config, false);
  auto labels = plan_names(linted.result.parse);
  FileReport report = report_of(linted);
  return tool_result(findings_json(report, labels), findings_text(report, ""));
}

json tool_explain_rule(const CallContext& ctx) {
  std::string name = ctx.args["rule"];
  const RuleDoc* d = find_rule_doc(name);
  if (!d) {
    std::string known;
    for (const RuleDoc* r : all_rule_docs()) known += (known.empty() ? "" : ", ") + r->code + " " + r->name;
    throw ToolFailure{"unknown rule `" + name + "`; the rules are: " + known};
  }
  json r;
  r["code"] = d->code;
  r["name"] = d->name;
  r["severity"] = std::string(to_string(d->severity));
  r["summary"] = d->summary;
  r["what"] = d->what;
  r["why"] = d->why;
  r["example"] = d->example;
  r["use_instead"] = d->use_instead;
  r["evidence"] = d->evidence;
  r["options"] = json::array();
  for (const auto& t : d->thresholds)
    r["options"].push_back({{"name", t.name}, {"default", t.default_value}, {"unit", t.unit}, {"description", t.description}});
  r["also_reports"] = json::array();
  for (const auto& a : d->also_reports)
    r["also_reports"].push_back({{"name", a.name}, {"code", a.code}, {"summary", a.summary}});
  bool md = ctx.args.value("format", std::string("text")) == "markdown";
  return tool_result(std::move(r), render_rule_doc(*d, md ? DocFormat::Markdown : DocFormat::Text));
}

json tool_history_server(const CallContext& ctx) {
  if (!ctx.options.fetch_history) throw ToolFailure{"this server was built without a History Server client"};
  std::string base = ctx.args["url"], app = ctx.args["app"];
  if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
    throw ToolFailure{"`url` must start with http:// or https://, got `" + base + "`"};
  if (app.empty()) throw ToolFailure{"`app` is empty"};
  std::optional<long long> execution;
  if (auto e = ctx.args.find("execution"); e != ctx.args.end()) execution = e->get<long long>();
  Config config = ctx.config("");
  std::string url, error;
  std::optional<std::string> body = ctx.options.fetch_history(base, app, execution, url, error);
  if (!body) throw ToolFailure{error};
  check_size(*body, config, "the History Server's answer");
  Linted linted = lint_one(url, body, url, config, true);
  auto labels = plan_names(linted.result.parse);
  FileReport report = report_of(linted);
  return tool_result(findings_json(report, labels), findings_text(report, ""));
}

// One side of diff_plans: its text (read whole, bounded like any input) and its name.
std::pair<std::string, std::string> diff_side(const CallContext& ctx, const Config& config, const char* text_arg,
                                              const char* path_arg) {
  one_of(ctx.args, text_arg, path_arg);
  if (ctx.args.contains(text_arg)) {
    std::string text = ctx.args[text_arg];
    check_size(text, config, text_arg);
    return {std::move(text), std::string(text_arg) == "old_plan" ? "old" : "new"};
  }
  std::string path = ctx.args[path_arg], error;
  auto text = read_input(path, error, config.max_input_bytes);
  if (!text) throw ToolFailure{error};
  return {std::move(*text), path};
}

json tool_diff_plans(const CallContext& ctx) {
  std::string new_where = ctx.args.contains("new_path") ? str_arg(ctx.args, "new_path") : "";
  Config config = ctx.config(new_where);
  auto [old_text, old_label] = diff_side(ctx, config, "old_plan", "old_path");
  auto [new_text, new_label] = diff_side(ctx, config, "new_plan", "new_path");
  bool force = ctx.args.value("force", false);
  FileReport report = diff_texts(old_text, old_label, std::move(new_text), new_label, config, force);
  if (!report.error.empty()) throw ToolFailure{report.error};
  return tool_result(findings_json(report, {}), findings_text(report, "regressions in "));
}

json tool_show_plan(const CallContext& ctx) {
  one_of(ctx.args, "plan", "path");
  std::optional<std::string> text;
  std::string path = ctx.args.contains("path") ? str_arg(ctx.args, "path") : "plan";
  Config config = ctx.config(ctx.args.contains("path") ? path : "");
  if (ctx.args.contains("plan")) {
    text = ctx.args["plan"].get<std::string>();
    check_size(*text, config, "the plan");
  }
  Linted linted = lint_one(path, text, path, config, /*keep_plans=*/true);
  ShowOptions opts;
  opts.width = ctx.args.value("width", 120);
  opts.top = ctx.args.value("top", 5);
  std::string tree = show_text(linted.result, opts);
  const ParseResult& parse = linted.result.parse;
  auto labels = plan_names(parse);
  json out;
  out["input"] = linted.path;
  out["format"] = std::string(to_string(parse.format));
  out["plans"] = json::array();
  for (std::size_t i = 0; i < parse.plans.size(); ++i) {
    const Plan& plan = parse.plans[i];
    PlanTimes times = operator_times(plan);
    std::vector<TopRow> top = top_operators(plan, times, TopBy::Time, opts.top);
    std::string by = "time";
    if (top.empty()) {
      top = top_operators(plan, times, TopBy::Rows, opts.top);
      by = top.empty() ? "none" : "rows";
    }
    json jp;
    jp["index"] = i;
    jp["name"] = !labels[i].empty() ? labels[i] : std::string(plan.name);
    jp["operators"] = plan.ops.size();
    jp["findings"] = std::count_if(linted.result.diagnostics.begin(), linted.result.diagnostics.end(),
                                   [&](const Diagnostic& d) { return d.plan_index == i; });
    if (times.total_ms > 0) jp["total_time_ms"] = times.total_ms;
    jp["top_by"] = by;
    jp["top_operators"] = json::array();
    for (const TopRow& row : top) {
      const Operator& op = plan.ops[row.op];
      json jo;
      jo["operator"] = std::string(op.name.empty() ? std::string_view(op.label) : std::string_view(op.name));
      jo["operator_id"] = std::string(std::string_view(op.id));
      jo["line"] = op.loc.line;
      if (auto ms = times.ops[row.op].self_ms) jo["time_ms"] = *ms;
      if (auto share = times.share(row.op)) jo["share"] = *share;
      if (auto rows = output_rows(plan, row.op); rows && std::isfinite(*rows)) jo["rows"] = *rows;
      jp["top_operators"].push_back(std::move(jo));
    }
    out["plans"].push_back(std::move(jp));
  }
  out["tree"] = tree;
  return tool_result(std::move(out), tree);
}

}  // namespace

json Server::call_tool(const json& params, const json& id) {
  auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string())
    return error_response(id, kInvalidParams, "tools/call: `name` (a string) is required");
  std::string name = *name_it;
  auto tool = std::find_if(tools_.begin(), tools_.end(), [&](const json& t) { return t["name"] == name; });
  if (tool == tools_.end()) {
    std::string known;
    for (const auto& t : tools_) known += (known.empty() ? "" : ", ") + t["name"].get<std::string>();
    return error_response(id, kInvalidParams, "unknown tool `" + name + "` (tools: " + known + ")");
  }
  json args = params.contains("arguments") ? params["arguments"] : json::object();
  if (args.is_null()) args = json::object();
  std::string error;
  if (!args.is_object()) return error_response(id, kInvalidParams, name + ": `arguments` must be an object");
  if (!validate(args, (*tool)["inputSchema"], "", error)) return error_response(id, kInvalidParams, name + ": " + error);
  CallContext ctx{options_, args};
  auto start = std::chrono::steady_clock::now();
  try {
    json result = name == "lint_plan"             ? tool_lint_plan(ctx)
                  : name == "explain_rule"        ? tool_explain_rule(ctx)
                  : name == "lint_history_server" ? tool_history_server(ctx)
                  : name == "diff_plans"          ? tool_diff_plans(ctx)
                                                  : tool_show_plan(ctx);
    std::size_t findings = 0;
    if (auto sc = result.find("structuredContent"); sc != result.end() && sc->contains("findings"))
      findings = (*sc)["findings"].size();
    log_ << "planlint mcp: " << name << ": " << findings << " finding" << (findings == 1 ? "" : "s") << " in "
         << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()
         << " ms\n";
    return result_response(id, std::move(result));
  } catch (const ToolFailure& f) {
    log_ << "planlint mcp: " << name << ": " << f.message << "\n";
    return result_response(id, tool_error(name + ": " + f.message));
  } catch (const std::exception& e) {  // never take the server down with one call
    log_ << "planlint mcp: " << name << ": internal error: " << e.what() << "\n";
    return result_response(id, tool_error(name + ": internal error: " + e.what()));
  }
}

}  // namespace planlint::mcp
