// `planlint rules` lists every rule; `planlint rule NAME|CODE` prints one rule's documentation
// (like `ruff rule`), `--markdown` as the committed docs/rules/<name>.md.
#include <iostream>
#include <memory>
#include <string>

#include "rules/rule.hpp"
#include "rules/rule_doc.hpp"
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_rules(CLI::App& app, int& exit_code) {
  auto* list = app.add_subcommand("rules", "List the rules (code, name, severity, summary)");
  auto list_md = std::make_shared<bool>(false);
  list->add_flag("--markdown", *list_md, "Print the list as a Markdown table (docs/rules/README.md)");
  list->callback([list_md, &exit_code] {
    std::cout << render_rule_list(*list_md ? DocFormat::Markdown : DocFormat::Text);
    exit_code = 0;
  });

  auto* one = app.add_subcommand("rule", "Print the documentation of one rule, by name or code");
  auto name = std::make_shared<std::string>();
  one->add_option("name", *name, "Rule name or code (e.g. filter-not-pushed-down, PL001)")->required();
  auto md = std::make_shared<bool>(false);
  one->add_flag("--markdown", *md, "Print Markdown (the text of docs/rules/<name>.md)");
  one->callback([name, md, &exit_code] {
    const Rule* r = find_rule(*name);
    if (!r) {
      std::cerr << "planlint: unknown rule '" << *name << "' (see `planlint rules`)\n";
      exit_code = 2;
      return;
    }
    std::cout << render_rule_doc(r->doc(), *md ? DocFormat::Markdown : DocFormat::Text);
    exit_code = 0;
  });
}

}  // namespace planlint::cli
