// `planlint mcp`: the Model Context Protocol server over stdio for AI agents (lint/mcp/mcp_server.hpp,
// docs/agents.md). The History Server tool uses the same client as `check --history-server`.
#include <iostream>
#include <memory>

#include "lint/mcp/mcp_server.hpp"
#include "tools/cli/checked_stdout.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/history_server_fetch.hpp"
#include "tools/cli/lint_file.hpp"

namespace planlint::cli {

namespace {
struct McpArgs {
  std::string max_input_size, config_file;
  bool no_config = false;
  FetchOptions fetch;
};
}  // namespace

void register_mcp(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<McpArgs>();
  auto* cmd = app.add_subcommand("mcp", "Run the Model Context Protocol server (stdio) for AI agents");
  cmd->footer(
      "Reads newline-delimited JSON-RPC 2.0 on standard input and answers on standard output; logs go to\n"
      "standard error. Tools: lint_plan, explain_rule, lint_history_server, diff_plans, show_plan.\n"
      "Agent host configuration: docs/agents.md.");
  cmd->add_option("--max-input-size", args->max_input_size, kMaxInputSizeHelp);
  auto* config = cmd->add_option("--config", args->config_file, "Use this config file for every call instead of the nearest one");
  auto* no_config = cmd->add_flag("--no-config", args->no_config, "Ignore config files");
  config->excludes(no_config);
  cmd->add_option("--timeout", args->fetch.timeout_s,
                  "lint_history_server: seconds for the whole answer, 1 to 86400 (other values are refused)")
      ->check(CLI::Range(kMinTimeoutS, kMaxTimeoutS))
      ->capture_default_str();
  cmd->add_option("--cacert", args->fetch.cacert, "lint_history_server: CA bundle (PEM) to verify servers with");
  cmd->add_flag("--insecure", args->fetch.insecure, "lint_history_server: do not verify TLS certificates");
  cmd->callback([args, &exit_code] {
    auto max_input = max_input_size_option(args->max_input_size);
    if (!max_input) {
      std::cerr << "planlint: error: --max-input-size: `" << args->max_input_size << "` is not a size\n";
      exit_code = 2;
      return;
    }
    mcp::ServerOptions options;
    options.max_input_bytes = *max_input;
    options.use_config_files = !args->no_config;
    options.config_file = args->config_file;
    FetchOptions fetch = args->fetch;
    if (*max_input > 0) fetch.max_body_bytes = *max_input;  // a live answer obeys --max-input-size as a file does
    options.fetch_history = [fetch](const std::string& base, const std::string& app, std::optional<long long> execution,
                                    std::string& url, std::string& error) {
      return fetch_history_server_sql(base, app, execution, fetch, url, error);
    };
    std::ios::sync_with_stdio(false);
    use_checked_stdout();  // sync_with_stdio put its own buffer there
    std::cin.tie(nullptr);
    mcp::Server server(std::cout, std::cerr, std::move(options));
    exit_code = server.run(std::cin);
  });
}

}  // namespace planlint::cli
