// `planlint rules` lists every rule; `planlint rule NAME|CODE` prints one rule's documentation
// (like `ruff rule`), `--markdown` as the committed docs/rules/<name>.md.
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "lint/engine/parse_errors.hpp"
#include "rules/catalog.hpp"
#include "rules/rule.hpp"
#include "rules/rule_doc.hpp"
#include "tools/cli/commands.hpp"

namespace planlint::cli {

namespace {

// The rules of `planlint diff` / `check --against` and `planlint history`, after the plan rules.
std::string comparison_rule_list(DocFormat f) {
  std::vector<const RuleDoc*> docs;
  for (std::string_view family : {"diff", "history"})
    if (const RuleGroup* f = rule_catalog().family(family)) docs.insert(docs.end(), f->docs.begin(), f->docs.end());
  std::string out;
  if (f == DocFormat::Markdown) {
    out += "\n## Comparison rules (`planlint diff`, `check --against`, `planlint history`)\n\n"
           "| code | name | severity | summary |\n|---|---|---|---|\n";
    for (const RuleDoc* d : docs)
      out += "| " + d->code + " | [`" + d->name + "`](" + d->name + ".md) | " + std::string(to_string(d->severity)) +
             " | " + d->summary + " |\n";
    return out;
  }
  std::size_t w = 4;
  for (const RuleDoc* d : docs) w = std::max(w, d->name.size());
  out += "\nComparison rules (planlint diff, check --against, history):\n";
  for (const RuleDoc* d : docs) {
    std::string sev(to_string(d->severity));
    out += d->code + " " + d->name + std::string(w - d->name.size() + 2, ' ') + sev + std::string(9 - sev.size(), ' ') +
           d->summary + "\n";
  }
  return out;
}

// The rule table of README.md, between its rule-table markers (tools/update-rule-table.sh writes
// it there; tests/rule_table.sh fails when the two differ): every documented finding of the
// catalogue, in its order, each linked to its page under docs/rules/ (built-in findings have none).
std::string readme_rule_table() {
  auto cell = [](std::string_view text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::string out = "| code | name | severity | finds |\n|---|---|---|---|\n";
  for (const RuleDoc* d : all_rule_docs()) {
    const std::string page = d->family == RuleFamily::Builtin ? "`" + d->name + "`"
                                                              : "[`" + d->name + "`](docs/rules/" + d->name + ".md)";
    std::string names = page;
    for (std::size_t i = 0; i < d->aliases.size(); ++i)
      names += (i ? ", `" : " (formerly `") + d->aliases[i] + "`" + (i + 1 == d->aliases.size() ? ")" : "");
    const std::string sev(to_string(d->severity));
    out += "| " + d->code + " | " + names + " | " + sev + " | " + cell(d->summary) + " |\n";
    // One name per code: a finding the rule reports under a name of its own has a row of its own.
    for (const auto& also : d->also_reports)
      out += "| " + also.code + " | `" + also.name + "` (reported by " + page + ") | " + sev + " | " + cell(also.summary) + " |\n";
  }
  return out;
}

}  // namespace

void register_rules(CLI::App& app, int& exit_code) {
  auto* list = app.add_subcommand("rules", "List the rules (code, name, severity, summary)");
  auto list_md = std::make_shared<bool>(false);
  auto list_format = std::make_shared<std::string>("text");
  list->add_flag("--markdown", *list_md, "Print the list as a Markdown table (docs/rules/README.md)");
  list->add_option("--format,--output-format", *list_format, "text (default), markdown or json (like `ruff rule --all --output-format json`)")
      ->check(CLI::IsMember({"text", "markdown", "json"}));

  auto readme_table = std::make_shared<bool>(false);
  list->add_flag("--readme-table", *readme_table,
                 "Print the rule table of README.md (every documented finding; tools/update-rule-table.sh)");
  list->callback([list_md, list_format, readme_table, &exit_code] {
    exit_code = 0;
    if (*readme_table) {
      std::cout << readme_rule_table();
      return;
    }
    if (*list_format == "json") {  // every documented finding, built-in ones included
      nlohmann::ordered_json all = nlohmann::ordered_json::array();
      for (const RuleDoc* d : all_rule_docs()) {
        nlohmann::ordered_json r;
        r["code"] = d->code;
        r["name"] = d->name;
        r["severity"] = std::string(to_string(d->severity));
        r["summary"] = d->summary;
        r["also_reports"] = nlohmann::ordered_json::array();
        for (const auto& a : d->also_reports)
          r["also_reports"].push_back({{"name", a.name}, {"code", a.code}, {"summary", a.summary}});
        r["builtin"] = d->family == RuleFamily::Builtin;
        r["options"] = nlohmann::ordered_json::array();
        for (const auto& t : d->thresholds)
          r["options"].push_back({{"name", t.name}, {"default", t.default_value}, {"unit", t.unit}, {"description", t.description}});
        r["explanation"] = {{"what", d->what}, {"why", d->why}, {"example", d->example}, {"use_instead", d->use_instead},
                            {"evidence", d->evidence}};
        all.push_back(std::move(r));
      }
      std::cout << all.dump(2) << "\n";
      return;
    }
    DocFormat f = *list_md || *list_format == "markdown" ? DocFormat::Markdown : DocFormat::Text;
    std::cout << render_rule_list(f) << comparison_rule_list(f);
  });

  auto* one = app.add_subcommand("rule", "Print the documentation of one rule, by name or code");
  auto name = std::make_shared<std::string>();
  one->add_option("name", *name, "Rule name or code (e.g. filter-not-pushed-down, PL001)")->required();
  auto md = std::make_shared<bool>(false);
  one->add_flag("--markdown", *md, "Print Markdown (the text of docs/rules/<name>.md)");
  one->callback([name, md, &exit_code] {
    const RuleDoc* r = find_rule_doc(*name);
    if (!r) {
      std::cerr << "planlint: unknown rule '" << *name << "' (see `planlint rules`)\n";
      exit_code = 2;
      return;
    }
    std::cout << render_rule_doc(*r, *md ? DocFormat::Markdown : DocFormat::Text);
    exit_code = 0;
  });
}

}  // namespace planlint::cli
