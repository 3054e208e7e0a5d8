// Protocol-level tests of `planlint mcp`, driven in-process through mcp::Server: the lifecycle and
// version negotiation, JSON-RPC errors, argument validation against the declared inputSchema,
// isError tool results, size limits, and each tool's structured answer on the bundled example
// plan. tests/mcp_client.sh drives the real binary with the official MCP Python SDK.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>
#include <sstream>

#include "lint/mcp/mcp_server.hpp"

using json = nlohmann::json;
using planlint::mcp::Server;
using planlint::mcp::ServerOptions;

namespace {

const char* const kExample = "corpus/examples/orders-by-region.explain.txt";

std::string read_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json request(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json initialize_params(const std::string& version = "2025-06-18") {
  return {{"protocolVersion", version}, {"capabilities", json::object()}, {"clientInfo", {{"name", "test"}, {"version", "1"}}}};
}

// A server past the handshake.
struct Session {
  std::ostringstream out, log;
  Server server;
  explicit Session(ServerOptions options = {}) : server(out, log, std::move(options)) {
    auto reply = server.handle(request(0, "initialize", initialize_params()));
    REQUIRE(reply);
    REQUIRE(reply->contains("result"));
    CHECK_FALSE(server.handle(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  }
  json call(const std::string& tool, json args) {
    auto reply = server.handle(request(7, "tools/call", {{"name", tool}, {"arguments", std::move(args)}}));
    REQUIRE(reply);
    CHECK((*reply)["id"] == 7);
    return *reply;
  }
};

}  // namespace

TEST_CASE("mcp: initialize negotiates the protocol version") {
  std::ostringstream out, log;
  Server server(out, log);
  auto r = server.handle(request(1, "initialize", initialize_params("2025-06-18")));
  REQUIRE(r);
  CHECK((*r)["result"]["protocolVersion"] == "2025-06-18");
  CHECK((*r)["result"]["capabilities"].contains("tools"));
  CHECK((*r)["result"]["serverInfo"]["name"] == "planlint");
  // A version the server does not speak: it answers with its newest, the client decides.
  auto r2 = server.handle(request(2, "initialize", initialize_params("1999-01-01")));
  CHECK((*r2)["result"]["protocolVersion"] == planlint::mcp::supported_protocol_versions().front());
  auto r3 = server.handle(request(3, "initialize", json::object()));
  CHECK((*r3)["error"]["code"] == -32602);
  CHECK(out.str().empty());  // handle() writes nothing itself
}

TEST_CASE("mcp: tools need initialize first, ping does not") {
  std::ostringstream out, log;
  Server server(out, log);
  auto ping = server.handle(request(1, "ping"));
  CHECK((*ping)["result"] == json::object());
  auto list = server.handle(request(2, "tools/list"));
  CHECK((*list)["error"]["code"] == -32600);
  server.handle(request(3, "initialize", initialize_params()));
  CHECK_FALSE(server.initialized());
  server.handle(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  CHECK(server.initialized());
  list = server.handle(request(4, "tools/list"));
  REQUIRE(list->contains("result"));
  std::set<std::string> names;
  for (const auto& t : (*list)["result"]["tools"]) {
    names.insert(t["name"].get<std::string>());
    CHECK(t["inputSchema"]["type"] == "object");
    CHECK(t["outputSchema"]["type"] == "object");
    CHECK(t["description"].get<std::string>().size() > 40);
  }
  CHECK(names == std::set<std::string>{"lint_plan", "explain_rule", "lint_history_server", "diff_plans", "show_plan"});
}

TEST_CASE("mcp: JSON-RPC errors for malformed messages, silence for notifications and responses") {
  Session s;
  auto not_json = s.server.handle_line("{\"jsonrpc\": \"2.0\", ");
  CHECK((*not_json)["error"]["code"] == -32700);
  CHECK((*not_json)["id"].is_null());
  CHECK((*s.server.handle_line("[1, 2]"))["error"]["code"] == -32600);  // batches are gone since 2025-06-18
  CHECK((*s.server.handle_line("42"))["error"]["code"] == -32600);
  CHECK((*s.server.handle_line(std::string(300, '[') + std::string(300, ']')))["error"]["code"] == -32700);
  CHECK((*s.server.handle(request(5, "no/such/method")))["error"]["code"] == -32601);
  json old_version{{"jsonrpc", "1.0"}, {"id", 6}, {"method", "ping"}};
  CHECK((*s.server.handle(old_version))["error"]["code"] == -32600);
  json array_id{{"jsonrpc", "2.0"}, {"id", json::array()}, {"method", "ping"}};
  CHECK((*s.server.handle(array_id))["error"]["code"] == -32600);
  CHECK_FALSE(s.server.handle_line(""));
  CHECK_FALSE(s.server.handle_line("  \r"));
  CHECK_FALSE(s.server.handle(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 3}}}}));
  CHECK_FALSE(s.server.handle(json{{"jsonrpc", "2.0"}, {"id", 9}, {"result", json::object()}}));
  // String ids come back as they were sent.
  auto ping = s.server.handle(json{{"jsonrpc", "2.0"}, {"id", "abc"}, {"method", "ping"}});
  CHECK((*ping)["id"] == "abc");
}

TEST_CASE("mcp: arguments are checked against the inputSchema (-32602), semantic failures are isError") {
  Session s;
  CHECK(s.call("no_such_tool", json::object())["error"]["code"] == -32602);
  auto wrong_type = s.call("lint_plan", {{"plan", 3}});
  CHECK(wrong_type["error"]["code"] == -32602);
  CHECK(wrong_type["error"]["message"].get<std::string>().find("`plan` must be a string") != std::string::npos);
  auto unknown = s.call("lint_plan", {{"plan", "x"}, {"colour", "red"}});
  CHECK(unknown["error"]["message"].get<std::string>().find("unknown argument `colour`") != std::string::npos);
  CHECK(s.call("explain_rule", json::object())["error"]["message"].get<std::string>().find("missing required argument `rule`") !=
        std::string::npos);
  CHECK(s.call("lint_plan", {{"plan", "x"}, {"select", {"PL002", 7}}})["error"]["code"] == -32602);
  CHECK(s.call("lint_plan", {{"plan", "x"}, {"severity", {{"PL002", "fatal"}}}})["error"]["code"] == -32602);
  CHECK(s.call("show_plan", {{"plan", "x"}, {"top", -1}})["error"]["code"] == -32602);
  CHECK(s.call("lint_plan", {{"plan", "x"}, {"execution", 1.5}})["error"]["code"] == -32602);

  // Valid JSON, but the tool cannot do its job: isError with the reason.
  auto both = s.call("lint_plan", {{"plan", "x"}, {"path", "y"}});
  CHECK(both["result"]["isError"] == true);
  CHECK(s.call("lint_plan", json::object())["result"]["isError"] == true);
  auto no_plan = s.call("lint_plan", {{"plan", "hello"}});
  CHECK(no_plan["result"]["isError"] == true);
  CHECK(no_plan["result"]["content"][0]["text"].get<std::string>().find("no plan operators were read") != std::string::npos);
  CHECK(s.call("lint_plan", {{"path", "/nonexistent/plan.txt"}})["result"]["isError"] == true);
  CHECK(s.call("lint_plan", {{"path", "-"}})["result"]["isError"] == true);  // stdin is the protocol's
  auto bad_rule = s.call("lint_plan", {{"path", kExample}, {"select", {"PL777"}}});
  CHECK(bad_rule["result"]["isError"] == true);
  CHECK(s.call("lint_plan", {{"path", kExample}, {"set", {{"broadcast-threshold", "lots"}}}})["result"]["isError"] == true);
  CHECK(s.call("explain_rule", {{"rule", "PL999"}})["result"]["isError"] == true);
  CHECK(s.call("lint_history_server", {{"url", "ftp://x"}, {"app", "a"}})["result"]["isError"] == true);
  CHECK(s.call("diff_plans", {{"old_plan", "x"}})["result"]["isError"] == true);
  CHECK(s.log.str().find("unknown rule") != std::string::npos);  // logs go to the log stream
}

TEST_CASE("mcp: lint_plan gives the findings with evidence and fix, settings as the CLI's") {
  Session s;
  std::string plan = read_text(kExample);
  REQUIRE_FALSE(plan.empty());
  auto r = s.call("lint_plan", {{"plan", plan}, {"no_config", true}});
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["isError"] == false);
  const json& sc = r["result"]["structuredContent"];
  CHECK(sc["format"] == "explain-formatted");
  bool broadcast = false;
  for (const auto& f : sc["findings"])
    if (f["code"] == "PL002") {
      broadcast = true;
      CHECK(f["rule"] == "shuffle-join-could-broadcast");
      CHECK(f["operator"] == "SortMergeJoin");
      CHECK(f["location"]["line"] == 10);
      CHECK(f["location"]["column"] == 22);
      CHECK_FALSE(f["evidence"].empty());
      CHECK(f["fix"].get<std::string>().find("BROADCAST") != std::string::npos);
    }
  CHECK(broadcast);
  CHECK(r["result"]["content"][0]["text"].get<std::string>().find("PL002") != std::string::npos);

  // select / ignore / set merge as on the command line.
  auto only = s.call("lint_plan", {{"path", kExample}, {"select", {"PL006"}}});
  for (const auto& f : only["result"]["structuredContent"]["findings"]) CHECK(f["code"] == "PL006");
  CHECK_FALSE(only["result"]["structuredContent"]["findings"].empty());
  auto ignored = s.call("lint_plan", {{"path", kExample}, {"ignore", {"shuffle-join-could-broadcast"}}});
  for (const auto& f : ignored["result"]["structuredContent"]["findings"]) CHECK(f["code"] != "PL002");
  auto raised = s.call("lint_plan", {{"path", kExample}, {"set", {{"broadcast-threshold", "1k"}}}, {"select", {"PL002"}}});
  CHECK(raised["result"]["structuredContent"]["findings"].empty());
  auto sev = s.call("lint_plan", {{"path", kExample}, {"select", {"PL002"}}, {"severity", {{"PL002", "error"}}}});
  CHECK(sev["result"]["structuredContent"]["findings"][0]["severity"] == "error");
  CHECK(sev["result"]["structuredContent"]["counts"]["error"] == 1);
}

TEST_CASE("mcp: an input over --max-input-size is refused as a tool error, a longer line is skipped") {
  ServerOptions o;
  o.max_input_bytes = 1000;
  Session s(o);
  std::string plan = read_text(kExample);
  REQUIRE(plan.size() > 1000);
  auto text = s.call("lint_plan", {{"plan", plan}});
  CHECK(text["result"]["isError"] == true);
  CHECK(text["result"]["content"][0]["text"].get<std::string>().find("larger than the maximum input size") != std::string::npos);
  CHECK(s.call("lint_plan", {{"path", kExample}})["result"]["isError"] == true);
  CHECK(s.call("show_plan", {{"plan", plan}})["result"]["isError"] == true);
  CHECK(s.call("diff_plans", {{"old_path", kExample}, {"new_path", kExample}})["result"]["isError"] == true);

  // Through run(): a line longer than the limit is answered with an error and skipped, the next
  // message is answered, and end of input ends the server with 0.
  std::ostringstream out, log;
  Server server(out, log, o);
  std::string huge = json(request(1, "ping")).dump();
  huge.insert(huge.size() - 1, ",\"pad\":\"" + std::string(server.max_line_bytes() + 10, 'x') + "\"");
  std::istringstream in(json(request(0, "initialize", initialize_params())).dump() + "\n" + huge + "\n" + "garbage\n" +
                        json(request(2, "ping")).dump());  // the last line has no newline
  CHECK(server.run(in) == 0);
  std::istringstream replies(out.str());
  std::vector<json> got;
  for (std::string line; std::getline(replies, line);) got.push_back(json::parse(line));
  REQUIRE(got.size() == 4);
  CHECK(got[0]["id"] == 0);
  CHECK(got[1]["error"]["code"] == -32600);
  CHECK(got[1]["error"]["message"].get<std::string>().find("longer than") != std::string::npos);
  CHECK(got[2]["error"]["code"] == -32700);
  CHECK(got[3]["id"] == 2);
  CHECK(got[3]["result"] == json::object());
}

TEST_CASE("mcp: explain_rule, show_plan, diff_plans and lint_history_server answer in their schemas") {
  std::string fetched;
  ServerOptions o;
  o.fetch_history = [&](const std::string& base, const std::string& app, std::optional<long long> execution, std::string& url,
                        std::string& error) -> std::optional<std::string> {
    url = base + "/api/v1/applications/" + app + "/sql";
    fetched = url + (execution ? "/" + std::to_string(*execution) : "");
    error = url + ": connection refused";
    return std::nullopt;
  };
  Session s(o);
  auto rule = s.call("explain_rule", {{"rule", "PL002"}});
  CHECK(rule["result"]["structuredContent"]["name"] == "shuffle-join-could-broadcast");
  CHECK_FALSE(rule["result"]["structuredContent"]["options"].empty());
  CHECK(rule["result"]["content"][0]["text"].get<std::string>().find("broadcast") != std::string::npos);

  auto show = s.call("show_plan", {{"path", "corpus/eventlog/skewed-join.eventlog"}, {"top", 3}});
  const json& plans = show["result"]["structuredContent"]["plans"];
  REQUIRE_FALSE(plans.empty());
  CHECK(plans[0]["top_by"] == "time");
  // The join stage's codegen duration, less its sort, goes to the stage's top operator.
  CHECK(plans[0]["top_operators"][0]["operator"] == "Project");
  CHECK(plans[0]["top_operators"][1]["operator"] == "Sort");
  CHECK(plans[0]["top_operators"].size() <= 3);
  CHECK(show["result"]["structuredContent"]["tree"].get<std::string>().find("SortMergeJoin") != std::string::npos);

  std::string plan = read_text(kExample);
  auto same = s.call("diff_plans", {{"old_plan", plan}, {"new_path", kExample}});
  CHECK(same["result"]["isError"] == false);
  CHECK(same["result"]["structuredContent"]["findings"].empty());

  auto hs = s.call("lint_history_server", {{"url", "http://127.0.0.1:9"}, {"app", "app-1"}, {"execution", 3}});
  CHECK(fetched == "http://127.0.0.1:9/api/v1/applications/app-1/sql/3");
  CHECK(hs["result"]["isError"] == true);
  CHECK(hs["result"]["content"][0]["text"].get<std::string>().find("connection refused") != std::string::npos);
}

TEST_CASE("mcp: findings of an execution name it in `execution` and `plan`, the text before the message") {
  Session s;
  for (bool streamed : {true, false}) {
    // A path streams the event log; the text keeps its plans.
    json args = streamed ? json{{"path", "corpus/eventlog/multi-exec.eventlog"}}
                         : json{{"plan", read_text("corpus/eventlog/multi-exec.eventlog")}};
    auto r = s.call("lint_plan", args);
    REQUIRE(r["result"]["isError"] == false);
    const json& found = r["result"]["structuredContent"]["findings"];
    REQUIRE_FALSE(found.empty());
    for (const auto& f : found) {
      CHECK(f["execution"] == json{{"id", 1}, {"description", "save at sessions.py:58"}});
      CHECK(f["plan"] == "execution 1 (save at sessions.py:58)");
      CHECK(f["message"].get<std::string>().rfind("execution", 0) == std::string::npos);
    }
    CHECK(r["result"]["content"][0]["text"].get<std::string>().find(": execution 1 (save at sessions.py:58): ") !=
          std::string::npos);
  }
  // Several explain plans: `plan` names the plan, no execution.
  auto two = s.call("lint_plan", {{"plan", read_text(kExample) + "\n" + read_text(kExample)}});
  for (const auto& f : two["result"]["structuredContent"]["findings"]) {
    CHECK_FALSE(f.contains("execution"));
    CHECK(f["plan"].get<std::string>().rfind("plan ", 0) == 0);
  }
}

TEST_CASE("mcp: docs/agents.md names every tool and its host snippets are valid and start `planlint mcp`") {
  std::string doc = read_text("docs/agents.md");
  REQUIRE_FALSE(doc.empty());
  std::ostringstream out, log;
  Server server(out, log);
  for (const auto& t : server.tools()) CHECK_MESSAGE(doc.find("`" + t["name"].get<std::string>() + "`") != std::string::npos, t["name"]);
  std::size_t hosts = 0, at = 0;
  while ((at = doc.find("```json\n", at)) != std::string::npos) {
    at += 8;
    std::string block = doc.substr(at, doc.find("```", at) - at);
    if (block.find("servers\"") == std::string::npos && block.find("Servers\"") == std::string::npos) continue;
    json j = json::parse(block, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), block);
    const json& servers = j.contains("mcpServers") ? j["mcpServers"] : j["servers"];
    REQUIRE(servers.contains("planlint"));
    std::string command = servers["planlint"]["command"];
    CHECK(command.size() >= 8);
    CHECK(command.substr(command.size() - 8) == "planlint");
    CHECK(servers["planlint"]["args"][0] == "mcp");
    ++hosts;
  }
  CHECK(hosts == 4);  // Claude Code, Claude Desktop, VS Code, Cursor
  CHECK(doc.find("[mcp_servers.planlint]\ncommand = \"planlint\"\nargs = [\"mcp\"]") != std::string::npos);  // Codex
}

TEST_CASE("mcp: thousands of damaged messages each get one answer or none, and the session goes on") {
  Session s;
  std::string plan = read_text("corpus/check/orders-join.explain.txt");
  REQUIRE_FALSE(plan.empty());
  const std::vector<std::string> seeds = {
      json(request(1, "tools/call", {{"name", "lint_plan"}, {"arguments", {{"plan", plan}, {"select", {"PL002"}}}}})).dump(),
      json(request(2, "tools/call", {{"name", "show_plan"}, {"arguments", {{"plan", plan}, {"top", 3}}}})).dump(),
      json(request(3, "tools/call", {{"name", "diff_plans"}, {"arguments", {{"old_plan", plan}, {"new_plan", plan}}}})).dump(),
      json(request(4, "tools/call", {{"name", "explain_rule"}, {"arguments", {{"rule", "PL002"}}}})).dump(),
      json(request(5, "initialize", initialize_params())).dump(),
      json(request(6, "tools/list")).dump(),
  };
  std::uint64_t state = 42;
  auto next = [&state] {  // xorshift: the same damage on every run
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string bytes = "{}[]\",:\\0123456789-eE.tfn \x7f\xff\xc3";
  std::size_t answered = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string line = seeds[next() % seeds.size()];
    for (std::uint64_t k = 1 + next() % 4; k--;) {
      std::size_t at = next() % line.size();
      switch (next() % 3) {
        case 0: line[at] = bytes[next() % bytes.size()]; break;
        case 1: line.erase(at, 1 + next() % 8); break;
        default: line.insert(at, 1, bytes[next() % bytes.size()]);
      }
      if (line.empty()) line = "{";
    }
    std::optional<json> reply;
    CHECK_NOTHROW(reply = s.server.handle_line(line));
    if (reply) {
      ++answered;
      CHECK((*reply)["jsonrpc"] == "2.0");
      CHECK(reply->contains("result") != reply->contains("error"));
    }
  }
  CHECK(answered > 1000);
  auto ping = s.server.handle(request(99, "ping"));
  CHECK((*ping)["result"] == json::object());
}
