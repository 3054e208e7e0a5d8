// Protocol-level tests of `planlint lsp`, driven in-process through lsp::Server. Most tests use
// a stand-in linter that returns a hand-built plan model, so positions, hover, symbols and code
// actions are checked against known operators independently of the parsers' progress.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <random>
#include <set>
#include <sstream>

#include <unistd.h>

#include "lint/engine/check.hpp"
#include "lint/lsp/lsp_features.hpp"
#include "lint/lsp/lsp_framing.hpp"
#include "lint/lsp/lsp_server.hpp"
#include "parser/explain/explain.hpp"
#include "parser/profile/profile.hpp"
#include "tests/support.hpp"

using namespace planlint;
using json = nlohmann::json;
using planlint::lsp::Linter;

namespace {

// Line numbers (1-based) of the operators in kPlan.
const std::string kLspPlan =
    "== Physical Plan ==\n"                          // 1
    "AdaptiveSparkPlan (5)\n"                        // 2
    "+- BroadcastHashJoin Inner BuildRight (4)\n"    // 3
    "   :- Scan parquet db.sales (1)\n"              // 4
    "   +- BroadcastExchange (3)\n"                  // 5
    "      +- Scan parquet db.caf\xC3\xA9 (2)\n"     // 6
    "\n"                                             // 7
    "(4) BroadcastHashJoin\n"                        // 8
    "Left keys [1]: [k#1]\n";                        // 9

// The range of `name` on line `line` of kPlan (1-based) within `text`, as a parser would report it.
SourceRange locate(const std::string& text, std::uint32_t line, const std::string& name) {
  std::size_t header = text.find("== Physical Plan ==");
  for (std::size_t i = 0; i < header; ++i)
    if (text[i] == '\n') ++line;
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) start = text.find('\n', start) + 1;
  std::size_t eol = text.find('\n', start);
  std::size_t at = text.find(name, start);
  REQUIRE(at < eol);
  auto col = static_cast<std::uint32_t>(at - start + 1);
  auto end = static_cast<std::uint32_t>(eol - start + 1);
  return {line, col, line, end};
}

Operator make_op(std::size_t index, std::string id, std::string name, OpKind kind, SourceRange loc) {
  Operator op;
  op.index = index;
  static TextStore store;  // the operators outlive this function (tests only)
  op.id = store.keep(id);
  op.name = store.keep(name);
  op.kind = kind;
  op.loc = loc;
  return op;
}

struct FakeLinter {
  int calls = 0;
  Config last_config;
  std::string last_path;
  std::string rule = "test-broadcast";

  LintResult operator()(std::string_view text_view, const std::string& path, const Config& config) {
    ++calls;
    last_config = config;
    last_path = path;
    std::string text(text_view);
    LintResult r;
    r.parse.path = path;
    r.parse.format = text.rfind("{", 0) == 0 ? InputFormat::QueryProfile : InputFormat::ExplainFormatted;
    r.parse.traits = text.rfind("{", 0) == 0 ? kQueryProfileTraits : kExplainTextTraits;
    if (text.find("AdaptiveSparkPlan (5)") == std::string::npos) return r;
    Plan plan;
    plan.name = "plan 1";
    plan.format = InputFormat::ExplainFormatted;
    plan.loc = {1, 1, 1, 20};
    plan.ops.push_back(make_op(0, "1", "Scan parquet db.sales", OpKind::Scan, locate(text, 4, "Scan")));
    plan.ops.push_back(make_op(1, "2", "Scan parquet db.caf\xC3\xA9", OpKind::Scan, locate(text, 6, "Scan")));
    plan.ops.push_back(make_op(2, "3", "BroadcastExchange", OpKind::BroadcastExchange, locate(text, 5, "Broadcast")));
    plan.ops.push_back(make_op(3, "4", "BroadcastHashJoin", OpKind::Join, locate(text, 3, "Broadcast")));
    plan.ops.push_back(make_op(4, "5", "AdaptiveSparkPlan", OpKind::AdaptivePlan, locate(text, 2, "Adaptive")));
    plan.ops[1].set_table("db.caf\xC3\xA9");
    plan.ops[1].set_scan_format("parquet");
    Operator& join = plan.ops[3];
    join.join.edit().type = JoinType::Inner;
    join.join.edit().strategy = JoinStrategy::BroadcastHash;
    join.join.edit().build = BuildSide::Right;
    join.detail_loc = locate(text, 8, "(4)");
    Field keys;
    keys.key = "Left keys";
    keys.value = "[k#1]";
    join.fields.push_back(keys);
    join.edit_runtime().rows = 1234567;
    join.edit_runtime().duration_ms = 65'000;
    join.edit_runtime().extra.edit().peak_memory_bytes = 2.0 * 1024 * 1024 * 1024;
    Metric size;
    size.label = "data size";
    size.unit = MetricUnit::Bytes;
    size.value = 3.0 * 1024 * 1024 * 1024;
    plan.ops[2].edit_runtime().metrics.push_back(size);
    plan.ops[4].children = {3};
    plan.ops[3].children = {0, 2};
    plan.ops[2].children = {1};
    plan.roots = {4};
    plan.link();
    r.parse.plans.push_back(plan);
    r.parse.messages.push_back({MessageSeverity::Error, locate(text, 9, "Left"), "unparsed detail line"});

    Diagnostic d;
    d.rule = rule;
    d.code = "PLT01";
    d.severity = Severity::Error;
    d.message = "BroadcastExchange (3) broadcasts 3.0 GiB";
    d.fix = "Raise spark.sql.autoBroadcastJoinThreshold no further; let the join shuffle";
    d.op = 2;
    d.operator_id = "3";
    d.operator_name = "BroadcastExchange";
    d.range = plan.ops[2].loc;
    d.evidence.push_back({"broadcast size", 3.0 * 1024 * 1024 * 1024, Unit::Bytes, "3.0 GiB"});
    r.diagnostics.push_back(d);
    finish_diagnostics(r, text, config);  // parse errors, directives, order: as the CLI does
    return r;
  }
};

// A test client: sends messages to an in-process server and reads what it writes back.
struct Client {
  std::ostringstream out;
  std::shared_ptr<FakeLinter> linter = std::make_shared<FakeLinter>();
  int config_loads = 0;
  std::string config_dir;
  lsp::ConfigLookup config_to_return;
  lsp::Server server;
  std::size_t consumed = 0;
  int next_id = 1;

  explicit Client(std::size_t max_document_bytes = 64u << 20, Linter lint = {})
      : server(out, options(max_document_bytes, std::move(lint))) {}

  lsp::ServerOptions options(std::size_t max_document_bytes, Linter lint) {
    lsp::ServerOptions o;
    auto l = linter;
    o.lint = [l](std::string_view t, const std::string& p, const Config& c) { return (*l)(t, p, c); };
    o.load_config = [this](const std::filesystem::path& dir) {
      ++config_loads;
      config_dir = dir.string();
      return config_to_return;
    };
    o.max_document_bytes = max_document_bytes;
    if (lint) o.lint = std::move(lint);
    return o;
  }

  // Everything the server wrote since the last call.
  std::vector<json> take() {
    std::string all = out.str();
    std::istringstream in(all.substr(consumed));
    consumed = all.size();
    lsp::FrameReader reader(in);
    std::vector<json> msgs;
    for (;;) {
      lsp::Frame f = reader.read();
      if (f.status != lsp::FrameStatus::Message) break;
      msgs.push_back(json::parse(f.body));
    }
    return msgs;
  }

  void raw(const std::string& body) {
    server.handle(body);
    server.flush();
  }
  void notify(const std::string& method, json params) {
    raw(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}.dump());
  }
  // Sends a request; returns its response (notifications written before it go to `notes`).
  json request(const std::string& method, json params, std::vector<json>* notes = nullptr) {
    int id = next_id++;
    raw(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump());
    json response;
    for (auto& m : take()) {
      if (m.contains("id") && m["id"] == id && !m.contains("method"))
        response = m;
      else if (notes)
        notes->push_back(m);
    }
    return response;
  }
  json initialize(json init_options = nullptr, json capabilities = json::object()) {
    json r = request("initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", capabilities},
                                    {"initializationOptions", init_options}});
    notify("initialized", json::object());
    return r;
  }
  std::vector<json> open(const std::string& uri, const std::string& text, int version = 1) {
    notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "spark-plan"}, {"version", version}, {"text", text}}}});
    return take();
  }
};

const std::string kUri = "file:///work/plans/q1.txt";

json diagnostics_of(const std::vector<json>& msgs, const std::string& uri = kUri) {
  for (auto it = msgs.rbegin(); it != msgs.rend(); ++it)
    if ((*it)["method"] == "textDocument/publishDiagnostics" && (*it)["params"]["uri"] == uri) return (*it)["params"];
  return nullptr;
}

json pos(int line, int character) { return {{"line", line}, {"character", character}}; }
json doc_pos(int line, int character) { return {{"textDocument", {{"uri", kUri}}}, {"position", pos(line, character)}}; }

}  // namespace

TEST_CASE("lsp: initialize advertises the features; requests before it are refused") {
  Client c;
  json early = c.request("textDocument/hover", doc_pos(0, 0));
  CHECK(early["error"]["code"] == -32002);
  json init = c.request("initialize", {{"capabilities", json::object()}});
  const json& caps = init["result"]["capabilities"];
  CHECK(caps["textDocumentSync"]["change"] == 2);  // incremental
  CHECK(caps["textDocumentSync"]["openClose"] == true);
  CHECK(caps["hoverProvider"] == true);
  CHECK(caps["documentSymbolProvider"] == true);
  CHECK(caps["codeActionProvider"]["codeActionKinds"] == json::array({"quickfix"}));
  CHECK(caps["positionEncoding"] == "utf-16");
  CHECK(init["result"]["serverInfo"]["name"] == "planlint");
  CHECK(c.request("initialize", json::object())["error"]["code"] == -32600);
}

TEST_CASE("lsp: initialized registers config-file watching when the client allows it") {
  Client c;
  c.request("initialize", {{"capabilities", {{"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}}}});
  c.notify("initialized", json::object());
  auto msgs = c.take();
  REQUIRE(msgs.size() == 1);
  CHECK(msgs[0]["method"] == "client/registerCapability");
  const json& reg = msgs[0]["params"]["registrations"][0];
  CHECK(reg["method"] == "workspace/didChangeWatchedFiles");
  CHECK(reg["registerOptions"]["watchers"][0]["globPattern"] == "**/.planlint.toml");
  // The client's answer to our request is accepted silently.
  c.raw(json{{"jsonrpc", "2.0"}, {"id", msgs[0]["id"]}, {"result", nullptr}}.dump());
  CHECK(c.take().empty());
}

TEST_CASE("lsp: didOpen publishes diagnostics on the operator's text") {
  Client c;
  c.initialize();
  json d = diagnostics_of(c.open(kUri, kLspPlan, 7));
  REQUIRE(d.is_object());
  CHECK(d["version"] == 7);
  REQUIRE(d["diagnostics"].size() == 2);
  const json& rule = d["diagnostics"][0];
  CHECK(rule["code"] == "test-broadcast");
  CHECK(rule["source"] == "planlint");
  CHECK(rule["severity"] == 1);
  // test-broadcast has no page in docs/rules/: no link (lsp: rule documentation links, below).
  CHECK_FALSE(rule.contains("codeDescription"));
  // "   +- BroadcastExchange (3)": the operator starts at column 6 (0-based) of line 4.
  CHECK(rule["range"] == json{{"start", pos(4, 6)}, {"end", pos(4, 27)}});
  CHECK(rule["message"] ==
        "BroadcastExchange (3) broadcasts 3.0 GiB\nFix: Raise spark.sql.autoBroadcastJoinThreshold no further; let the "
        "join shuffle");
  REQUIRE(rule["relatedInformation"].size() == 1);
  CHECK(rule["relatedInformation"][0]["message"] == "broadcast size: 3.0 GiB");
  CHECK(rule["relatedInformation"][0]["location"]["uri"] == kUri);
  const json& parse = d["diagnostics"][1];
  CHECK(parse["message"] == "unparsed detail line");
  CHECK(parse["code"] == "parse-error");
  CHECK_FALSE(parse.contains("codeDescription"));  // built-in: no docs/rules page
  CHECK(parse["severity"] == 1);
  CHECK(parse["range"] == json{{"start", pos(8, 0)}, {"end", pos(8, 20)}});
  CHECK(c.linter->last_path == "/work/plans/q1.txt");
  CHECK(c.config_dir == "/work/plans");
}

TEST_CASE("lsp: didChange re-lints with the new version; didClose clears the diagnostics") {
  Client c;
  c.initialize();
  c.open(kUri, kLspPlan);
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", 2}}},
                                      {"contentChanges", json::array({{{"text", "nothing here\n"}}})}});
  json d = diagnostics_of(c.take());
  REQUIRE(d.is_object());
  CHECK(d["version"] == 2);
  CHECK(d["diagnostics"].empty());
  // An incremental change (range given) is applied too: restore the plan by replacing line 0.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", kUri}, {"version", 3}}},
            {"contentChanges", json::array({{{"range", {{"start", pos(0, 0)}, {"end", pos(1, 0)}}}, {"text", kLspPlan}}})}});
  d = diagnostics_of(c.take());
  CHECK(d["version"] == 3);
  CHECK(d["diagnostics"].size() == 2);
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", kUri}}}});
  d = diagnostics_of(c.take());
  REQUIRE(d.is_object());
  CHECK(d["diagnostics"].empty());
  CHECK(c.request("textDocument/hover", doc_pos(2, 5))["error"]["code"] == -32602);
}

TEST_CASE("lsp: hover shows kind, engine, details, metrics and the findings on the operator") {
  Client c;
  c.initialize();
  c.open(kUri, kLspPlan);
  json h = c.request("textDocument/hover", doc_pos(2, 10))["result"];
  REQUIRE(h.is_object());
  std::string md = h["contents"]["value"];
  CHECK(h["contents"]["kind"] == "markdown");
  CHECK(md.find("**BroadcastHashJoin** · operator 4") == 0);
  CHECK(md.find("join · spark") != std::string::npos);
  CHECK(md.find("Join: Inner, broadcast-hash, BuildRight") != std::string::npos);
  CHECK(md.find("Left keys: [k#1]") != std::string::npos);
  CHECK(md.find("| Rows | 1,234,567 |") != std::string::npos);
  CHECK(md.find("| Time | 1 min 5 s |") != std::string::npos);
  CHECK(md.find("| Peak memory | 2.0 GiB |") != std::string::npos);
  CHECK(md.find("test-broadcast") == std::string::npos);  // the finding is on another operator
  CHECK(h["range"] == json{{"start", pos(2, 3)}, {"end", pos(2, 41)}});

  // The detail header "(4) BroadcastHashJoin" is the same operator; the range follows it.
  json detail = c.request("textDocument/hover", doc_pos(7, 2))["result"];
  CHECK(std::string(detail["contents"]["value"]).find("**BroadcastHashJoin**") == 0);
  CHECK(detail["range"]["start"] == pos(7, 0));

  // Hover on the tree drawing before the operator name still finds it.
  std::string ex = c.request("textDocument/hover", doc_pos(4, 1))["result"]["contents"]["value"];
  CHECK(ex.find("**BroadcastExchange** · operator 3") == 0);
  CHECK(ex.find("| data size | 3.0 GiB |") != std::string::npos);
  CHECK(ex.find("### test-broadcast (PLT01) · error") != std::string::npos);
  CHECK(ex.find("BroadcastExchange (3) broadcasts 3.0 GiB") != std::string::npos);
  CHECK(ex.find("- broadcast size: 3.0 GiB") != std::string::npos);
  CHECK(ex.find("**Fix**: Raise spark.sql.autoBroadcastJoinThreshold") != std::string::npos);

  std::string scan = c.request("textDocument/hover", doc_pos(5, 12))["result"]["contents"]["value"];
  CHECK(scan.find("Table: db.caf\xC3\xA9") != std::string::npos);
  CHECK(scan.find("Format: parquet") != std::string::npos);

  CHECK(c.request("textDocument/hover", doc_pos(6, 0))["result"].is_null());    // blank line
  CHECK(c.request("textDocument/hover", doc_pos(500, 3))["result"].is_null());  // past the end
  CHECK(c.request("textDocument/hover", {{"textDocument", {{"uri", kUri}}}})["error"]["code"] == -32602);
}

TEST_CASE("lsp: hover includes the full rule documentation when the rule is registered") {
  if (all_rules().empty()) {
    MESSAGE("no rules registered yet: rule-doc hover not checked");
    return;
  }
  const RuleDoc& doc = all_rules().front()->doc();
  Client c;
  c.linter->rule = doc.name;
  c.initialize();
  c.open(kUri, kLspPlan);
  std::string ex = c.request("textDocument/hover", doc_pos(4, 8))["result"]["contents"]["value"];
  CHECK(ex.find("### " + doc.name) != std::string::npos);
  if (!doc.what.empty()) CHECK(ex.find(doc.what) != std::string::npos);
  if (!doc.why.empty()) CHECK(ex.find(doc.why) != std::string::npos);
  CHECK(ex.find(lsp::rule_doc_url(doc.name)) != std::string::npos);
}

TEST_CASE("lsp: rule documentation links go to the page on this machine, or nowhere") {
  REQUIRE_FALSE(all_rules().empty());
  const RuleDoc& doc = all_rules().front()->doc();
  // By default: docs/rules/ of the source tree above the build folder of planlint_tests.
  std::string url = lsp::rule_doc_url(doc.name);
  REQUIRE(!url.empty());
  CHECK(url.rfind("file:///", 0) == 0);
  CHECK(std::filesystem::is_regular_file(lsp::uri_to_path(url)));
  const std::string tail = "/docs/rules/" + doc.name + ".md";
  REQUIRE(url.size() > tail.size());
  CHECK(url.substr(url.size() - tail.size()) == tail);
  CHECK(lsp::rule_doc_url("no-such-rule").empty());
  CHECK(lsp::rule_doc_url("../README").empty());

  std::filesystem::path empty = std::filesystem::temp_directory_path() / ("planlint-lsp-docs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(empty);
  lsp::set_rule_doc_dir(empty.string());  // the pages are not on this machine
  CHECK(lsp::rule_doc_url(doc.name).empty());
  {
    Client c;
    c.linter->rule = doc.name;
    c.initialize();
    json d = diagnostics_of(c.open(kUri, kLspPlan));
    REQUIRE(d["diagnostics"].size() >= 1);
    CHECK(d["diagnostics"][0]["code"] == doc.name);
    CHECK_FALSE(d["diagnostics"][0].contains("codeDescription"));
    std::string ex = c.request("textDocument/hover", doc_pos(4, 8))["result"]["contents"]["value"];
    CHECK(ex.find("### " + doc.name) != std::string::npos);
    CHECK(ex.find(" documentation](") == std::string::npos);
  }
  lsp::set_rule_doc_dir(planlint::test::source_dir().string() + "/docs/rules");
  {
    Client c;
    c.linter->rule = doc.name;
    c.initialize();
    json d = diagnostics_of(c.open(kUri, kLspPlan));
    REQUIRE(d["diagnostics"].size() >= 1);
    CHECK(d["diagnostics"][0]["codeDescription"]["href"] == lsp::rule_doc_url(doc.name));
    CHECK(lsp::uri_to_path(lsp::rule_doc_url(doc.name)) == planlint::test::source_dir().string() + "/docs/rules/" + doc.name + ".md");
  }
  lsp::set_rule_doc_dir("");
  std::filesystem::remove_all(empty);
}

TEST_CASE("lsp: documentSymbol returns the operator tree") {
  Client c;
  c.initialize();
  c.open(kUri, kLspPlan);
  json syms = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}})["result"];
  REQUIRE(syms.size() == 1);
  const json& root = syms[0];
  CHECK(root["name"] == "AdaptiveSparkPlan (5)");
  REQUIRE(root["children"].size() == 1);
  const json& join = root["children"][0];
  CHECK(join["name"] == "BroadcastHashJoin (4)");
  CHECK(join["detail"] == "join · 1,234,567 rows · 1 min 5 s");
  CHECK(join["kind"] == 25);
  CHECK(join["selectionRange"] == json{{"start", pos(2, 3)}, {"end", pos(2, 41)}});
  // The range spans the operator's subtree (lines 2..5), so breadcrumbs follow the cursor.
  CHECK(join["range"] == json{{"start", pos(2, 3)}, {"end", pos(5, 33)}});
  REQUIRE(join["children"].size() == 2);
  CHECK(join["children"][0]["name"] == "Scan parquet db.sales (1)");
  const json& ex = join["children"][1];
  CHECK(ex["name"] == "BroadcastExchange (3)");
  REQUIRE(ex["children"].size() == 1);
  CHECK(ex["children"][0]["name"] == "Scan parquet db.caf\xC3\xA9 (2)");
  // "      +- Scan parquet db.café (2)" is 34 bytes but 33 UTF-16 units (é is one unit).
  CHECK(ex["children"][0]["selectionRange"] == json{{"start", pos(5, 9)}, {"end", pos(5, 33)}});
}

TEST_CASE("lsp: a very deep plan gives a bounded symbol tree") {
  constexpr std::size_t kDepth = 5000;
  auto deep = [](std::string_view, const std::string& path, const Config&) {
    LintResult r;
    r.parse.path = path;
    Plan plan;
    for (std::size_t i = 0; i < kDepth; ++i) {
      plan.ops.push_back(make_op(i, std::to_string(i), "Project", OpKind::Project,
                                 SourceRange{static_cast<std::uint32_t>(i + 1), 1, static_cast<std::uint32_t>(i + 1), 8}));
      if (i + 1 < kDepth) plan.ops[i].children = {i + 1};
    }
    plan.roots = {0};
    plan.link();
    r.parse.plans.push_back(std::move(plan));
    return r;
  };
  Client c(64u << 20, deep);
  c.initialize();
  std::string text;
  for (std::size_t i = 0; i < kDepth; ++i) text += "Project\n";
  c.open(kUri, text);
  json syms = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}})["result"];
  std::size_t depth = 0, count = 0;
  std::vector<std::pair<const json*, std::size_t>> stack;
  for (const auto& s : syms) stack.push_back({&s, 1});
  while (!stack.empty()) {
    auto [s, d] = stack.back();
    stack.pop_back();
    ++count;
    depth = std::max(depth, d);
    if (s->contains("children"))
      for (const auto& k : (*s)["children"]) stack.push_back({&k, d + 1});
  }
  CHECK(count == kDepth);
  CHECK(depth == 129);
}

TEST_CASE("lsp: codeAction offers the suppression directive and the suggested fix") {
  Client c;
  c.initialize();
  c.open(kUri, kLspPlan);
  json params = {{"textDocument", {{"uri", kUri}}},
                 {"range", {{"start", pos(4, 8)}, {"end", pos(4, 8)}}},
                 {"context", {{"diagnostics", json::array()}}}};
  json actions = c.request("textDocument/codeAction", params)["result"];
  REQUIRE(actions.size() == 2);
  CHECK(actions[0]["title"] == "Suppress test-broadcast on operator 3");
  CHECK(actions[0]["kind"] == "quickfix");
  CHECK(actions[0]["diagnostics"][0]["code"] == "test-broadcast");
  const json& edit = actions[0]["edit"]["changes"][kUri][0];
  CHECK(edit["newText"] == "# planlint: disable=test-broadcast operator=3\n");
  CHECK(edit["range"] == json{{"start", pos(0, 0)}, {"end", pos(0, 0)}});
  CHECK(actions[1]["command"]["command"] == "planlint.showFix");
  CHECK(actions[1]["command"]["arguments"][0]["fix"] ==
        "Raise spark.sql.autoBroadcastJoinThreshold no further; let the join shuffle");

  // Running the command shows the fix.
  std::vector<json> notes;
  json r = c.request("workspace/executeCommand", actions[1]["command"], &notes);
  CHECK(r["result"].is_null());
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["method"] == "window/showMessage");
  CHECK(notes[0]["params"]["message"] ==
        "planlint test-broadcast (operator 3): Raise spark.sql.autoBroadcastJoinThreshold no further; let the join "
        "shuffle");
  CHECK(c.request("workspace/executeCommand", {{"command", "nope"}})["error"]["code"] == -32602);

  // Elsewhere: nothing. context.only filters by kind.
  params["range"] = {{"start", pos(0, 0)}, {"end", pos(0, 3)}};
  CHECK(c.request("textDocument/codeAction", params)["result"].empty());
  params["range"] = {{"start", pos(4, 0)}, {"end", pos(4, 1)}};
  params["context"]["only"] = json::array({"refactor"});
  CHECK(c.request("textDocument/codeAction", params)["result"].empty());

  // Applying the edit suppresses the finding (the CLI's directive handling).
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", kUri}, {"version", 2}}},
            {"contentChanges", json::array({{{"text", "# planlint: disable=test-broadcast operator=3\n" + kLspPlan}}})}});
  json d = diagnostics_of(c.take());
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["code"] == "parse-error");
  params["context"].erase("only");
  params["range"] = {{"start", pos(5, 8)}, {"end", pos(5, 8)}};
  CHECK(c.request("textDocument/codeAction", params)["result"].empty());
}

TEST_CASE("lsp: an unused directive can be removed with a code action") {
  Client c;
  c.initialize();
  json d = diagnostics_of(c.open(kUri, "# planlint: disable=no-such-rule\n" + kLspPlan));
  json unused;
  for (const auto& x : d["diagnostics"])
    if (x["code"] == "unused-suppression") unused = x;
  REQUIRE(unused.is_object());
  CHECK(unused["range"]["start"]["line"] == 0);
  json params = {{"textDocument", {{"uri", kUri}}}, {"range", unused["range"]}};
  json actions = c.request("textDocument/codeAction", params)["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["title"] == "Remove the unused planlint directive");
  CHECK(actions[0]["edit"]["changes"][kUri][0] ==
        json{{"range", {{"start", pos(0, 0)}, {"end", pos(1, 0)}}}, {"newText", ""}});
}

TEST_CASE("lsp: no suppression directive is offered for JSON inputs (they have no comments)") {
  Client c;
  c.initialize();
  c.open(kUri, "{\n" + kLspPlan);
  json params = {{"textDocument", {{"uri", kUri}}}, {"range", {{"start", pos(5, 8)}, {"end", pos(5, 8)}}}};
  json actions = c.request("textDocument/codeAction", params)["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0].contains("command"));
}

TEST_CASE("lsp: bad input gets JSON-RPC errors and the server keeps serving") {
  Client c;
  c.initialize();
  c.raw("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
  auto m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32700);
  CHECK(m[0]["id"].is_null());
  c.raw("[1, 2]");
  m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32600);
  c.raw(R"({"jsonrpc":"2.0","id":"x7","method":42})");
  m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32600);
  CHECK(m[0]["id"] == "x7");
  json unknown = c.request("textDocument/formatting", {{"textDocument", {{"uri", kUri}}}});
  CHECK(unknown["error"]["code"] == -32601);
  CHECK(unknown["error"]["message"] == "method not found: textDocument/formatting");
  c.notify("$/cancelRequest", {{"id", 3}});
  c.notify("workspace/somethingElse", json::object());
  CHECK(c.take().empty());
  // Requests and notifications for documents that are not open.
  CHECK(c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///nope"}}}})["error"]["code"] ==
        -32602);
  CHECK(c.request("textDocument/codeAction", {{"textDocument", {{"uri", "file:///nope"}}}})["error"]["code"] == -32602);
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///nope"}, {"version", 2}}},
                                      {"contentChanges", json::array({{{"text", "x"}}})}});
  m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["method"] == "window/logMessage");
  // Malformed parameters.
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", 5}}}});
  CHECK(c.take().size() == 1);
  // Still serving.
  CHECK(diagnostics_of(c.open(kUri, kLspPlan))["diagnostics"].size() == 2);
  CHECK(c.request("textDocument/hover", doc_pos(2, 5))["result"].is_object());
}

TEST_CASE("lsp: invalid UTF-8 in a document never produces invalid JSON") {
  Client c;
  c.linter->rule = "bad\xFF\xFE-rule";
  c.initialize();
  json d = diagnostics_of(c.open(kUri, kLspPlan));
  REQUIRE(d.is_object());
  CHECK(d["diagnostics"][0]["code"] == "bad\xEF\xBF\xBD\xEF\xBF\xBD-rule");
  // Invalid UTF-8 inside a message is a JSON parse error.
  c.raw("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"textDocument/hover\",\"params\":\"\xC3(\"}");
  auto m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32700);
}

TEST_CASE("lsp: a document over the size limit is kept but not linted") {
  Client c(1000);
  c.initialize();
  std::string big = kLspPlan + std::string(2000, 'x');
  json d = diagnostics_of(c.open(kUri, big));
  CHECK(c.linter->calls == 0);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["severity"] == 2);
  CHECK_FALSE(d["diagnostics"][0].contains("code"));  // a notice, not a rule finding
  CHECK(d["diagnostics"][0]["message"] ==
        "document is 2.2 KiB; planlint lints documents up to 1000 B in the editor (use the CLI)");
  CHECK(c.request("textDocument/hover", doc_pos(2, 5))["result"].is_null());
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", 2}}},
                                      {"contentChanges", json::array({{{"text", kLspPlan}}})}});
  CHECK(diagnostics_of(c.take())["diagnostics"].size() == 2);
}

TEST_CASE("lsp: a linter exception becomes a diagnostic, not a crash") {
  std::ostringstream out;
  lsp::ServerOptions o;
  o.lint = [](std::string_view, const std::string&, const Config&) -> LintResult {
    throw std::runtime_error("boom");
  };
  lsp::Server s(out, o);
  s.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  s.handle(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.txt","version":1,"text":"x"}}})");
  s.flush();
  CHECK(out.str().find("planlint failed: boom") != std::string::npos);
}

TEST_CASE("lsp: shutdown and exit; exit code 0 only after shutdown") {
  Client c;
  c.initialize();
  CHECK(c.request("shutdown", nullptr)["result"].is_null());
  CHECK(c.request("textDocument/hover", doc_pos(0, 0))["error"]["code"] == -32600);
  CHECK_FALSE(c.server.exited());
  c.notify("exit", nullptr);
  CHECK(c.server.exited());
  CHECK(c.server.exit_code() == 0);

  Client d;
  d.initialize();
  d.notify("exit", nullptr);
  CHECK(d.server.exited());
  CHECK(d.server.exit_code() == 1);
}

TEST_CASE("lsp: run() over a framed stream coalesces buffered edits into one lint") {
  auto frame = [](const json& j) {
    std::string b = j.dump();
    return "Content-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
  };
  std::string input;
  input += frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  input += frame({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
  input += frame({{"jsonrpc", "2.0"},
                  {"method", "textDocument/didOpen"},
                  {"params", {{"textDocument", {{"uri", kUri}, {"version", 1}, {"text", "x"}}}}}});
  for (int v = 2; v <= 4; ++v)
    input += frame({{"jsonrpc", "2.0"},
                    {"method", "textDocument/didChange"},
                    {"params", {{"textDocument", {{"uri", kUri}, {"version", v}}},
                                {"contentChanges", json::array({{{"text", v == 4 ? kLspPlan : "y"}}})}}}});
  input += "Content-Length: nope\r\n\r\n";  // a malformed frame in the middle
  input += frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/hover"}, {"params", doc_pos(2, 5)}});
  input += frame({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "shutdown"}});
  input += frame({{"jsonrpc", "2.0"}, {"method", "exit"}});
  input += frame({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "shutdown"}});  // after exit: never read

  Client c;
  std::istringstream in(input);
  CHECK(c.server.run(in) == 0);
  auto msgs = c.take();
  std::vector<json> published;
  json hover, shutdown, frame_error;
  for (auto& m : msgs) {
    if (m.value("method", "") == "textDocument/publishDiagnostics") published.push_back(m["params"]);
    if (m.contains("id") && m["id"] == 2) hover = m;
    if (m.contains("id") && m["id"] == 3) shutdown = m;
    if (m.contains("error") && m["id"].is_null()) frame_error = m;
  }
  CHECK(c.linter->calls == 1);
  REQUIRE(published.size() == 1);
  CHECK(published[0]["version"] == 4);
  CHECK(published[0]["diagnostics"].size() == 2);
  CHECK(frame_error["error"]["message"] == "invalid Content-Length 'nope'");
  CHECK(std::string(hover["result"]["contents"]["value"]).find("BroadcastHashJoin") != std::string::npos);
  CHECK(shutdown["result"].is_null());
}

TEST_CASE("lsp: config from the document's folder, editor overrides, reload on change") {
  Client c;
  c.config_to_return.project.config.ignore = {"disk-spill"};
  c.config_to_return.project.config.thresholds["exploding-join"]["explode-factor"] = 1;
  c.config_to_return.project.file = "/work/plans/.planlint.toml";
  c.initialize({{"select", {"shuffle-join-could-broadcast"}},
                {"thresholds", {{"exploding-join", {{"explode-min-rows", 2}}}, {"broadcast-threshold", 1e9}}}});
  c.open(kUri, kLspPlan);
  CHECK(c.config_loads == 1);
  CHECK(c.config_dir == "/work/plans");
  const Config& cfg = c.linter->last_config;
  CHECK(cfg.select == std::set<std::string>{"shuffle-join-could-broadcast"});
  CHECK(cfg.ignore == std::set<std::string>{"disk-spill"});
  CHECK(cfg.thresholds.at("exploding-join").at("explode-factor") == 1);
  CHECK(cfg.thresholds.at("exploding-join").at("explode-min-rows") == 2);
  CHECK(cfg.global_thresholds.at("broadcast-threshold") == 1e9);
  // A second document in the same folder reuses the cached config.
  c.open("file:///work/plans/q2.txt", kLspPlan);
  CHECK(c.config_loads == 1);
  // The config file changed: read again, and every open document is re-linted.
  c.config_to_return.project.config.ignore = {"small-files"};
  c.notify("workspace/didChangeWatchedFiles",
           {{"changes", json::array({{{"uri", "file:///work/plans/.planlint.toml"}, {"type", 2}}})}});
  auto msgs = c.take();
  CHECK(c.config_loads == 2);
  CHECK(c.linter->last_config.ignore == std::set<std::string>{"small-files"});
  CHECK(diagnostics_of(msgs, kUri).is_object());
  CHECK(diagnostics_of(msgs, "file:///work/plans/q2.txt").is_object());
  // Unrelated files do not trigger a reload; saving the plan re-reads its folder's config.
  c.notify("workspace/didChangeWatchedFiles", {{"changes", json::array({{{"uri", "file:///work/x.py"}, {"type", 2}}})}});
  CHECK(c.config_loads == 2);
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", kUri}}}});
  CHECK(c.config_loads == 3);
  // didChangeConfiguration replaces the overrides; `ignore` adds to the file's list, as
  // `planlint check --ignore` does.
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"planlint", {{"ignore", {"PL104"}}}}}}});
  CHECK(c.linter->last_config.ignore == std::set<std::string>{"small-files", "PL104"});
  CHECK(c.linter->last_config.select.empty());
  // Bad settings are reported, not fatal.
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"select", "oops"}, {"severity", {{"disk-spill", "loud"}}}}}});
  msgs = c.take();
  int warnings = 0;
  for (auto& m : msgs)
    if (m.value("method", "") == "window/showMessage") ++warnings;
  CHECK(warnings == 2);
}

TEST_CASE("lsp: unknown rules and options in editor settings are shown to the user, as the CLI refuses them") {
  Client c;
  json settings = {{"select", {"no-such-rule", "disk-spill"}},
                   {"ignore", {"PL999"}},
                   {"severity", {{"nope", "error"}}},
                   {"thresholds", {{"disk-spill", {{"no-such-option", 1}}}, {"broadcast-threshold", "lots"}}},
                   {"globalThresholds", {{"min-bytes", "1k"}}}};
  std::vector<json> msgs;
  c.request("initialize", {{"capabilities", json::object()}, {"initializationOptions", settings}}, &msgs);
  c.notify("initialized", json::object());
  std::vector<std::string> shown;
  for (auto& m : msgs)
    if (m.value("method", "") == "window/showMessage") shown.push_back(m["params"]["message"]);
  REQUIRE(shown.size() == 5);
  CHECK(shown[0].find("unknown rule `no-such-rule`") != std::string::npos);
  CHECK(shown[1].find("no rule code starts with `PL999`") != std::string::npos);  // a code prefix (ruff convention)
  CHECK(shown[2].find("unknown rule `nope`") != std::string::npos);
  CHECK(shown[3].find("`broadcast-threshold`: `lots` is not a number of bytes") != std::string::npos);
  CHECK(shown[4].find("unknown option `no-such-option` for rule `disk-spill`") != std::string::npos);
  c.open(kUri, kLspPlan);
  // The valid entries still apply; "1k" reads as in .planlint.toml (1024 bytes).
  CHECK(c.linter->last_config.select == std::set<std::string>{"disk-spill"});
  CHECK(c.linter->last_config.global_thresholds.at("min-bytes") == 1024);
}

TEST_CASE("lsp: a config error is shown once, and linting goes on with defaults") {
  Client c;
  c.config_to_return.project.file = "/work/plans/.planlint.toml";
  c.config_to_return.error = "/work/plans/.planlint.toml:3:1: error: unknown rule 'nope'";
  c.initialize();
  auto msgs = c.open(kUri, kLspPlan);
  REQUIRE(msgs.size() == 2);
  CHECK(msgs[0]["method"] == "window/showMessage");
  CHECK(msgs[0]["params"]["message"] == "planlint: /work/plans/.planlint.toml:3:1: error: unknown rule 'nope'");
  CHECK(msgs[1]["method"] == "textDocument/publishDiagnostics");
  msgs = c.open("file:///work/plans/q3.txt", kLspPlan);
  REQUIRE(msgs.size() == 1);
}

TEST_CASE("lsp: the real engine publishes its messages for a document") {
  std::ostringstream out;
  lsp::Server s(out);
  s.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  s.handle(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/x.txt","version":1,"text":"this is not a plan\n"}}})");
  s.flush();
  std::istringstream in(out.str());
  lsp::FrameReader r(in);
  r.read();
  lsp::Frame f = r.read();
  REQUIRE(f.status == lsp::FrameStatus::Message);
  json d = json::parse(f.body);
  CHECK(d["method"] == "textDocument/publishDiagnostics");
  REQUIRE(!d["params"]["diagnostics"].empty());
  const json& first = d["params"]["diagnostics"][0];
  CHECK(first["source"] == "planlint");
  CHECK(first["severity"] == 1);
  CHECK(first["code"] == "parse-error");
  CHECK(first["message"].get<std::string>().rfind("expected '== Physical Plan ==' or an explain plan tree", 0) == 0);
  CHECK(first["range"]["start"] == json{{"line", 0}, {"character", 0}});
}

TEST_CASE("lsp: the real config file is found from the document's folder and re-read on change") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("planlint-lsp-config-" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  planlint::test::write_file(dir / ".planlint.toml", "ignore = [\"parse-error\"]\n");
  std::string uri = lsp::path_to_uri((dir / "sub" / "broken.txt").string());
  std::ostringstream out;
  lsp::Server s(out);
  s.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  auto publish = [&](const std::string& method, const json& params) {
    out.str("");
    s.handle(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump());
    s.flush();
    std::istringstream in(out.str());
    lsp::FrameReader r(in);
    json last;
    for (lsp::Frame f = r.read(); f.status == lsp::FrameStatus::Message; f = r.read()) {
      json m = json::parse(f.body);
      if (m.value("method", "") == "textDocument/publishDiagnostics") last = m["params"];
    }
    return last;
  };
  json d = publish("textDocument/didOpen",
                   {{"textDocument", {{"uri", uri}, {"version", 1}, {"text", "this is not a plan\n"}}}});
  REQUIRE(d.is_object());
  CHECK(d["diagnostics"].empty());  // the parse error is ignored by the config file
  planlint::test::write_file(dir / ".planlint.toml", "ignore = []\n");
  d = publish("workspace/didChangeWatchedFiles",
              {{"changes", json::array({{{"uri", lsp::path_to_uri((dir / ".planlint.toml").string())}, {"type", 2}}})}});
  REQUIRE(d.is_object());
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["code"] == "parse-error");
  fs::remove_all(dir);
}

TEST_CASE("lsp: a deeply nested textDocument.version is refused before anything copies it") {
  Client c;
  c.initialize();
  // didOpen whose version is {"a": nested 100,000 deep: the copy into the document used to
  // recurse until the stack overflowed.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  deep += "1";
  deep += std::string(100000, '}');
  c.raw(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" + kUri +
        R"(","languageId":"spark-plan","version":)" + deep + R"(,"text":"x"}}})");
  auto m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32700);
  CHECK(std::string(m[0]["error"]["message"]).find("deeper than 512") != std::string::npos);
  // didChange with an array nested 1,000,000 deep.
  CHECK(diagnostics_of(c.open(kUri, kLspPlan))["diagnostics"].size() == 2);
  std::string arr = std::string(1000000, '[') + std::string(1000000, ']');
  c.raw(R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" + kUri +
        R"(","version":)" + arr + R"(},"contentChanges":[{"text":"y"}]}})");
  m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["error"]["code"] == -32700);
  // A version that is not an integer is not kept (and the document is still served).
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", {{"a", {1, 2}}}}}},
                                      {"contentChanges", json::array({{{"text", kLspPlan}}})}});
  json d = diagnostics_of(c.take());
  CHECK(d["diagnostics"].size() == 2);
  CHECK(!d.contains("version"));
  // Nesting below the limit is fine.
  std::string ok = std::string(100, '[') + std::string(100, ']');
  c.raw(R"({"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{"textDocument":{"uri":")" + kUri +
        R"("},"position":{"line":2,"character":5},"x":)" + ok + "}}");
  m = c.take();
  REQUIRE(m.size() == 1);
  CHECK(m[0]["id"] == 99);
  CHECK(m[0]["result"].is_object());
}

TEST_CASE("lsp: framing resynchronises on the next Content-Length after a bad frame") {
  auto frame = [](const json& j) {
    std::string b = j.dump();
    return "Content-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
  };
  auto hover = [&](int id) {
    return frame({{"jsonrpc", "2.0"}, {"id", id}, {"method", "textDocument/hover"}, {"params", doc_pos(2, 5)}});
  };
  std::string input;
  input += frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  input += frame({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
  input += frame({{"jsonrpc", "2.0"},
                  {"method", "textDocument/didOpen"},
                  {"params", {{"textDocument", {{"uri", kUri}, {"version", 1}, {"text", kLspPlan}}}}}});
  // 1. A body without any header, then a good request.
  input += R"({"jsonrpc":"2.0","id":50,"method":"shutdown"})";
  input += hover(2);
  // 2. A body shorter than its Content-Length (it swallows the next frame's start), then requests.
  std::string shortbody = R"({"jsonrpc":"2.0","id":51,"method":"shutdown"})";
  input += "Content-Length: " + std::to_string(shortbody.size() + 40) + "\r\n\r\n" + shortbody;
  input += hover(3);
  input += hover(4);
  // 3. Both again, back to back.
  input += "garbage without a header";
  input += "Content-Length: 999\r\n\r\n{\"jsonrpc\":";
  input += hover(5);
  input += frame({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "shutdown"}});
  input += frame({{"jsonrpc", "2.0"}, {"method", "exit"}});

  Client c;
  std::istringstream in(input);
  CHECK(c.server.run(in) == 0);
  std::set<int> answered;
  int frame_errors = 0;
  for (auto& m : c.take()) {
    if (m.contains("id") && m["id"].is_number_integer() && m.contains("result")) answered.insert(m["id"].get<int>());
    if (m.contains("error") && m["id"].is_null()) ++frame_errors;
    CHECK(!(m.contains("id") && (m["id"] == 50 || m["id"] == 51)));  // the bad frames are not run
  }
  CHECK(answered == std::set<int>{1, 2, 3, 4, 5, 6});
  CHECK(frame_errors >= 3);
}

TEST_CASE("lsp: framing keeps a body that merely mentions Content-Length") {
  std::string body = R"({"jsonrpc":"2.0","method":"x","params":{"text":"Content-Length: 12\r\n\r\n"}})";
  std::istringstream in("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  lsp::FrameReader r(in);
  lsp::Frame f = r.read();
  CHECK(f.status == lsp::FrameStatus::Message);
  CHECK(f.body == body);
}

TEST_CASE("lsp: a didChange range that is present but invalid is logged and ignored, never a full text (issue 32 W2)") {
  Client c;
  c.initialize();
  REQUIRE(diagnostics_of(c.open(kUri, kLspPlan))["diagnostics"].size() == 2);
  auto symbols = [&] { return c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}})["result"].size(); };
  REQUIRE(symbols() == 1);
  const json bad_ranges[] = {
      {{"start", {{"line", 0}}}, {"end", pos(0, 0)}},                                      // no character
      {{"start", pos(0, 0)}, {"end", {{"character", 0}}}},                                 // no line
      {{"start", pos(-1, 0)}, {"end", pos(0, 0)}},                                         // negative
      {{"start", pos(0, 0)}, {"end", pos(0, -3)}},
      {{"start", {{"line", 1.5}, {"character", 0}}}, {"end", pos(2, 0)}},                 // fractional
      {{"start", {{"line", "1"}, {"character", 0}}}, {"end", pos(2, 0)}},                 // a string
      {{"start", {{"line", 4294967296ULL}, {"character", 0}}}, {"end", {{"line", 4294967296ULL}, {"character", 0}}}},
      {{"start", {{"line", 9223372036854775808ULL}, {"character", 0}}}, {"end", pos(0, 0)}},
      {{"start", pos(3, 0)}, {"end", pos(1, 0)}},                                          // start after end
      {{"start", pos(0, 5)}, {"end", pos(0, 2)}},
      {{"start", pos(0, 0)}},                                                              // no end
      json(nullptr),                                                                       // present, null
      json("0:0-0:0"),
  };
  int version = 2;
  for (const json& range : bad_ranges) {
    CAPTURE(range.dump());
    c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version++}}},
                                        {"contentChanges", json::array({{{"range", range}, {"text", "M"}}})}});
    auto msgs = c.take();
    REQUIRE(msgs.size() == 1);  // the log; nothing was re-linted
    CHECK(msgs[0]["method"] == "window/logMessage");
    CHECK(msgs[0]["params"]["type"] == 1);
    CHECK(msgs[0]["params"]["message"].get<std::string>().find("invalid range") != std::string::npos);
    CHECK(symbols() == 1);  // the document is still the plan, not "M"
  }
  // Changes before the bad one are applied; it and the ones after it (relative to it) are not.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", kUri}, {"version", version++}}},
            {"contentChanges", json::array({{{"range", {{"start", pos(0, 0)}, {"end", pos(0, 0)}}}, {"text", "\n"}},
                                            {{"range", {{"start", pos(-1, 0)}, {"end", pos(0, 0)}}}, {"text", "M"}},
                                            {{"text", "nothing"}}})}});
  auto msgs = c.take();
  REQUIRE(msgs.size() == 2);
  CHECK(msgs[0]["params"]["message"] ==
        "planlint: textDocument/didChange: change 2 of 3 for file:///work/plans/q1.txt has an invalid range "
        "(start.line is not an integer from 0 to 2^31-1); it and the 1 after it were not applied, the document is kept "
        "as it was before it");
  CHECK(diagnostics_of(msgs)["diagnostics"].size() == 2);
  // The first change moved everything one line down.
  CHECK(diagnostics_of(msgs)["diagnostics"][0]["range"]["start"] == pos(5, 6));
  // Large but valid positions clamp to the end of the line / document, as the specification asks.
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version++}}},
                                      {"contentChanges", json::array({{{"range", {{"start", pos(2147483647, 2147483647)},
                                                                                  {"end", pos(2147483647, 2147483647)}}},
                                                                       {"text", "\n"}}})}});
  msgs = c.take();
  REQUIRE(msgs.size() == 1);
  CHECK(diagnostics_of(msgs)["diagnostics"].size() == 2);
  // Only a missing range is a full text.
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version++}}},
                                      {"contentChanges", json::array({{{"text", "M"}}})}});
  CHECK(diagnostics_of(c.take())["diagnostics"].empty());
  CHECK(symbols() == 0);
}

TEST_CASE("lsp: incremental edits on a large multi-byte document give the text of applying them naively (issue 32 R2)") {
  auto seen = std::make_shared<std::string>();
  Client c(64u << 20, [seen](std::string_view text, const std::string&, const Config&) {
    *seen = text;
    return LintResult{};
  });
  c.initialize();
  std::string expected;
  for (int i = 0; expected.size() < (2u << 20); ++i)
    expected += i % 3 ? "   +- Scan parquet db.caf\xC3\xA9 \xF0\x9F\x98\x80 (2)\n" : "Condition : (x#3 > 1)\r\n";
  c.open(kUri, expected);
  REQUIRE(*seen == expected);
  std::mt19937 rng(7);
  const char* inserts[] = {"x", "\xC3\xA9", "\xF0\x9F\x98\x80", "\n", ""};
  int version = 2;
  for (int message = 0; message < 20; ++message) {
    json changes = json::array();
    for (int i = 0; i < 25; ++i) {
      lsp::LineIndex idx(expected);  // the naive way: a new index per edit
      auto line = static_cast<std::uint32_t>(rng() % 4 ? rng() % 40 : rng() % idx.line_count());
      std::uint32_t units = lsp::utf16_length(idx.line_text(line));
      lsp::Position start{line, static_cast<std::uint32_t>(rng() % (units + 1))}, end = start;
      std::string text = inserts[rng() % 5];
      if (text.empty()) end.character = std::min(units, start.character + 1);  // delete one code unit
      if (rng() % 9 == 0) end = {line + 1, 0};                                  // or a line break
      std::size_t b = idx.to_offset(start), e = idx.to_offset(end);
      expected = expected.substr(0, b) + text + expected.substr(e);
      changes.push_back({{"range", lsp::to_json(lsp::Range{start, end})}, {"text", text}});
    }
    c.notify("textDocument/didChange",
             {{"textDocument", {{"uri", kUri}, {"version", version++}}}, {"contentChanges", changes}});
    c.take();
    REQUIRE(*seen == expected);
  }
}

TEST_CASE("lsp: directives after a BOM, with blanks around `=`, or not understood, as the CLI sees them (issue 32 W5)") {
  std::string plan_text = planlint::test::read_file(planlint::test::corpus_dir() / "examples" / "orders-by-region.explain.txt");
  const std::pair<std::string, std::vector<std::string>> cases[] = {
      {"\xEF\xBB\xBF# planlint: disable=shuffle-join-could-broadcast\n", {"non-sargable-predicate"}},
      {"# planlint: disable = shuffle-join-could-broadcast\n", {"non-sargable-predicate"}},
      {"# planlint: disable=shuffle-join-could-broadcast trailing words\n",
       {"unused-suppression", "shuffle-join-could-broadcast", "non-sargable-predicate"}},
  };
  for (const auto& c_case : cases) {
    const auto& directive = c_case.first;  // (CAPTURE is a lambda: no structured binding before clang 16)
    const auto& rules = c_case.second;
    CAPTURE(directive);
    Client c(64u << 20, lsp::lint_document);
    c.initialize();
    json d = diagnostics_of(c.open(kUri, directive + plan_text));
    std::vector<std::string> got;
    for (const auto& diag : d["diagnostics"]) got.push_back(diag["code"]);
    CHECK(got == rules);
    if (rules.size() == 3) {
      CHECK(d["diagnostics"][0]["message"].get<std::string>().rfind("`# planlint:` directive not understood", 0) == 0);
      CHECK(d["diagnostics"][0]["range"]["start"] == pos(0, 0));
    }
  }
}
