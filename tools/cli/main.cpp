// planlint: lint Apache Spark / Databricks query plans.
#include <CLI/CLI.hpp>

#include "tools/cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"planlint: find what makes a Spark / Databricks query plan slow, and how to fix it"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("planlint ") + PLANLINT_VERSION);
  int exit_code = 0;
  planlint::cli::register_parse(app, exit_code);
  planlint::cli::register_check(app, exit_code);
  planlint::cli::register_rules(app, exit_code);
  planlint::cli::register_lsp(app, exit_code);
  planlint::cli::register_show(app, exit_code);
  planlint::cli::register_report(app, exit_code);
  planlint::cli::register_diff(app, exit_code);
  planlint::cli::register_history(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // usage errors are exit 2
  }
  return exit_code;
}
