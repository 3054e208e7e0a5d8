// `planlint lsp`: the Language Server over stdio (lint/lsp/lsp_server.hpp).
#include <iostream>

#include "lint/lsp/lsp_server.hpp"
#include "tools/cli/checked_stdout.hpp"
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_lsp(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("lsp", "Run the Language Server (LSP over stdio) for editors");
  // Editors commonly pass --stdio; stdio is the only transport, so it is accepted and ignored.
  static bool stdio = true;
  cmd->add_flag("--stdio", stdio, "Use standard input/output (the default and only transport)");
  cmd->callback([&exit_code] {
    // Unsynchronised streams buffer stdin, so the server can tell whether more input is
    // already waiting (and defer linting) without blocking.
    std::ios::sync_with_stdio(false);
    use_checked_stdout();  // sync_with_stdio put its own buffer there
    std::cin.tie(nullptr);
    lsp::Server server(std::cout);
    exit_code = server.run(std::cin);
  });
}

}  // namespace planlint::cli
