// `planlint parse [FILE...|-] [--format text|json]`: read plans and print the operator DAG.
// Exit 0 parsed, 1 parsed with syntax errors, 2 usage error or unreadable input.
#include <iostream>
#include <string>
#include <vector>

#include "lint/engine/input.hpp"
#include "lint/output/plan_json.hpp"
#include "lint/output/plan_tree.hpp"
#include "parser/registry/parse.hpp"
#include "tools/cli/commands.hpp"

namespace planlint::cli {

namespace {

std::string_view severity_word(MessageSeverity s) {
  switch (s) {
    case MessageSeverity::Warning: return "warning";
    case MessageSeverity::Note: return "note";
    case MessageSeverity::Error: break;
  }
  return "error";
}

// The 1-based line `n` of `text` (without its newline and CR).
std::string_view source_line(std::string_view text, std::uint32_t n) {
  std::size_t pos = 0;
  for (std::uint32_t k = 1; k < n; ++k) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  std::size_t e = text.find('\n', pos);
  std::string_view l = text.substr(pos, e == std::string_view::npos ? std::string_view::npos : e - pos);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

void print_messages(const ParseResult& r, std::string_view text, std::ostream& os) {
  for (const auto& m : r.messages) {
    os << r.path << ':' << m.loc.line << ':' << m.loc.column << ": " << severity_word(m.severity) << ": " << m.message
       << '\n';
    if (m.loc.line == 0) continue;
    std::string_view l = source_line(text, m.loc.line);
    if (l.size() > 300) continue;  // do not echo huge lines
    os << l << '\n';
    std::string caret;
    for (std::uint32_t c = 1; c < m.loc.column && c <= l.size(); ++c) caret += l[c - 1] == '\t' ? '\t' : ' ';
    os << caret << "^\n";
  }
}

}  // namespace

void register_parse(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("parse", "Read plans (explain text, Query Profile JSON, event logs) and print the operator DAG");
  struct Options {
    std::vector<std::string> files;
    std::string format = "text";
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("files", opts->files, "input files, or - for standard input (default)");
  cmd->add_option("--format", opts->format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opts, &exit_code]() {
    std::vector<std::string> files = opts->files;
    if (files.empty()) files.push_back("-");
    bool json = opts->format == "json";
    nlohmann::ordered_json docs = nlohmann::ordered_json::array();
    int rc = 0;
    for (const auto& path : files) {
      std::string err;
      auto text = read_input(path, err);
      if (!text) {
        std::cerr << "planlint: " << err << '\n';
        rc = 2;
        continue;
      }
      ParseResult r = parse_input(*text, path);
      print_messages(r, *text, std::cerr);
      if (r.has_errors() && rc == 0) rc = 1;
      if (json) docs.push_back(parse_result_json(r));
      else {
        if (files.size() > 1) std::cout << "== " << path << " ==\n";
        std::cout << parse_result_tree_text(r);
      }
    }
    if (json) {
      if (docs.size() == 1) std::cout << dump_json(docs[0]);
      else if (!docs.empty()) std::cout << dump_json(docs);
    }
    exit_code = rc;
  });
}

}  // namespace planlint::cli
