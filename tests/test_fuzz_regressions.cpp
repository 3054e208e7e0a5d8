// Replays every input of tests/fuzz_regressions/<kind>/ through the code its fuzz target
// exercises (see tests/fuzz_regressions/README.md). A crash here is a regression; under
// `tools/test.sh --sanitize` so is any memory error or undefined behaviour.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "lint/config_file.hpp"
#include "lint/engine.hpp"
#include "lint/lsp_server.hpp"
#include "parser/eventlog.hpp"
#include "tests/support.hpp"
#include "tools/fuzz/plan_invariants.hpp"

namespace {

namespace fs = std::filesystem;

void replay_plan(const planlint::ParseResult& r, const std::string& text) {
  CHECK(planlint::fuzz::plan_invariant_violation(r, text) == "");
  (void)planlint::run_rules(r, planlint::Config{});
}

void replay(const std::string& kind, const fs::path& file) {
  const std::string text = planlint::test::read_file(file);
  const std::string name = file.filename().string();
  if (kind == "explain") {
    replay_plan(planlint::parse_explain_text(text, name), text);
  } else if (kind == "profile") {
    replay_plan(planlint::parse_query_profile(text, name), text);
  } else if (kind == "eventlog") {
    // As tools/fuzz/fuzz_eventlog.cpp: whole and streamed.
    auto whole = planlint::parse_event_log(text, name, planlint::EventLogOptions{});
    replay_plan(whole, text);
    std::istringstream in(text);
    auto streamed = planlint::parse_event_log_stream(in, name, planlint::EventLogOptions{});
    CHECK(planlint::fuzz::plan_invariant_violation(streamed, text) == "");
    CHECK(streamed.plans.size() == whole.plans.size());
  } else if (kind == "expression") {
    for (auto d : {planlint::ExprDialect::Catalyst, planlint::ExprDialect::PushedFilter, planlint::ExprDialect::Sql}) {
      auto e = planlint::parse_expression(text, d);
      CHECK(e.text == text);
    }
  } else if (kind == "config") {
    bool pyproject = text.find("[tool.") != std::string::npos;
    planlint::ConfigError error;
    auto project = planlint::parse_config_text(text, name, pyproject, error);
    if (project) (void)planlint::config_for_path(*project, "plans/q1.explain.txt");
    else CHECK(!error.message.empty());
  } else if (kind == "lsp_framing") {
    // As tools/fuzz/fuzz_lsp_framing.cpp: after an `initialize`, framed and unframed.
    std::string body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})";
    std::istringstream in("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body + text);
    std::ostringstream out;
    planlint::lsp::ServerOptions options;
    options.max_message_bytes = 1u << 20;
    options.max_document_bytes = 1u << 20;
    planlint::lsp::Server server(out, options);
    server.run(in);
    planlint::lsp::Server direct(out, options);
    direct.handle(text);
    direct.flush();
    CHECK(!out.str().empty());
  } else {
    replay_plan(planlint::parse_input(text, name), text);
  }
}

}  // namespace

TEST_CASE("fuzz regressions replay without crashing") {
  const fs::path dir = planlint::test::source_dir() / "tests" / "fuzz_regressions";
  REQUIRE(fs::is_directory(dir));
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().parent_path() != dir) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    const std::string kind = f.parent_path().filename().string();
    INFO("replaying " << kind << "/" << f.filename().string());
    replay(kind, f);
  }
  MESSAGE("replayed " << files.size() << " fuzz regression inputs");
}
