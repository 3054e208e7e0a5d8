// The planlint subcommands. Each lives in its own file (tools/cli/cmd_<name>.cpp) and registers
// its options on the app; `exit_code` receives what the command wants the process to return.
#pragma once

#include <CLI/CLI.hpp>

namespace planlint::cli {

void register_parse(CLI::App& app, int& exit_code);
void register_check(CLI::App& app, int& exit_code);
void register_rules(CLI::App& app, int& exit_code);
void register_lsp(CLI::App& app, int& exit_code);
void register_show(CLI::App& app, int& exit_code);
void register_report(CLI::App& app, int& exit_code);
void register_diff(CLI::App& app, int& exit_code);     // cmd_diff.cpp
void register_history(CLI::App& app, int& exit_code);  // cmd_history.cpp
void register_mcp(CLI::App& app, int& exit_code);      // cmd_mcp.cpp

}  // namespace planlint::cli
