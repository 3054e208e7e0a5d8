// `planlint parse [FILE...|-] [--format text|json]`: read plans and print the operator DAG.
// Exit 0 parsed, 1 parsed with syntax errors, 2 usage error or unreadable input.
#include <algorithm>
#include <iostream>
#include <new>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "lint/core/executions.hpp"
#include "lint/core/input.hpp"
#include "lint/core/plan_json.hpp"
#include "lint/core/plan_tree.hpp"
#include "parser/registry/parse.hpp"
#include "model/read_check.hpp"
#include "lint/core/sanitize.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lint_file.hpp"

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

// Messages with the plan line under them. What comes from the input (the path, the line, the
// message) is shown visibly, and the line sits behind a `  | ` gutter: no line of plan text starts
// at column 0, where a CI log would read `::add-mask::...` as a workflow command.
void print_messages(const ParseResult& r, std::string_view text, std::ostream& os) {
  std::string out;
  for (const auto& m : r.messages) {
    out += visible(r.path) + ':' + std::to_string(m.loc.line) + ':' + std::to_string(m.loc.column) + ": " +
           std::string(severity_word(m.severity)) + ": " + visible(m.message) + '\n';
    if (m.loc.line == 0) continue;
    std::string_view l = source_line(text, m.loc.line);
    if (l.size() > 300) continue;  // do not echo huge lines
    std::string_view before = l.substr(0, std::min<std::size_t>(m.loc.column ? m.loc.column - 1 : 0, l.size()));
    std::string shown_before = visible(before);
    out += "  | " + shown_before + visible(l.substr(before.size())) + '\n';
    std::string caret;
    for (char c : shown_before) caret += c == '\t' ? '\t' : ' ';
    out += "  | " + caret + "^\n";
  }
  os << no_workflow_commands(out);
}

}  // namespace

void register_parse(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("parse", "Read plans (explain text, Query Profile JSON, event logs) and print the operator DAG");
  struct Options {
    std::vector<std::string> files;
    std::string format = "text";
    std::string max_input_size;
    long long execution = -1;  // -1: every execution
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("files", opts->files, "input files, or - for standard input (default)");
  cmd->add_option("--format,--output-format", opts->format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--execution", opts->execution,
                  "Event logs, History Server answers: read only this SQL execution id (default: text lists the "
                  "executions by time and prints the main ones; json holds them all)");
  cmd->add_option("--max-input-size", opts->max_input_size, kMaxInputSizeHelp);
  cmd->callback([opts, &exit_code]() {
    auto max_input_size = max_input_size_option(opts->max_input_size);
    if (!max_input_size) {
      std::cerr << "planlint: error: --max-input-size: `" << visible(opts->max_input_size) << "` is not a size\n";
      exit_code = 2;
      return;
    }
    const double max_input = *max_input_size > 0 ? *max_input_size : kDefaultMaxInputBytes;
    std::vector<std::string> files = opts->files;
    if (files.empty()) files.push_back("-");
    bool json = opts->format == "json";
    nlohmann::ordered_json docs = nlohmann::ordered_json::array();
    int rc = 0;
    for (const auto& path : files) try {
      std::string err;
      auto read = read_input(path, err, max_input);
      if (!read) {
        std::cerr << "planlint: " << visible(err) << '\n';
        rc = 2;
        continue;
      }
      auto text = std::make_shared<const std::string>(std::move(*read));  // the plans view it
      std::optional<long long> execution;
      if (opts->execution >= 0) execution = opts->execution;
      ParseResult r = parse_input(text, path, execution);
      print_messages(r, *text, std::cerr);
      if (r.has_errors() && rc == 0) rc = 1;
      if (read_nothing(r)) rc = 2;  // nothing read is an error, never an empty answer
      if (execution && r.traits.executions && r.plans.empty()) {  // as `check --execution`
        std::cerr << "planlint: error: " << visible(path) << ": no SQL execution " << *execution << " in this "
                  << r.traits.display_name << " (leave out --execution to read them all)\n";
        rc = 2;
        continue;
      }
      if (json) docs.push_back(parse_result_json(r));
      else {
        if (files.size() > 1) std::cout << "== " << visible(path) << " ==\n";
        // Several SQL executions: list them by time, print the main ones (the trivial ones folded).
        const std::vector<Diagnostic> none;
        const ExecutionList list = list_executions(r, none);
        if (list.folds()) {
          std::vector<Diagnostic> unused;
          keep_shown_executions(list, r, unused);
          std::cout << executions_text(list, 0) << '\n';
        }
        std::cout << parse_result_tree_text(r);
      }
    } catch (const std::bad_alloc&) {  // this file is reported, the next one is read
      std::cerr << "planlint: error: " << visible(path) << ": out of memory\n";
      rc = 2;
    } catch (const std::length_error&) {
      std::cerr << "planlint: error: " << visible(path) << ": out of memory\n";
      rc = 2;
    }
    if (json) {
      if (docs.size() == 1) std::cout << dump_json(docs[0]);
      else if (!docs.empty()) std::cout << dump_json(docs);
    }
    exit_code = rc;
  });
}

}  // namespace planlint::cli
