// What every output must be, whatever the input held (docs/security.md): shared by the output
// writers' fuzz target and the regression test that replays its inputs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "lint/engine/check.hpp"
#include "lint/output/output.hpp"
#include "lint/core/plan_tree.hpp"
#include "lint/visual/report_html.hpp"
#include "lint/visual/show.hpp"

namespace planlint::fuzz {

// Valid UTF-8 (what every output promises), "" or the reason.
inline std::string utf8_violation(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return "invalid UTF-8 at byte " + std::to_string(i);
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return "invalid UTF-8 at byte " + std::to_string(i);
    i += n;
  }
  return "";
}

// No control character but newline and tab (both whitespace to a terminal and to a CI log), "" or
// the first one found.
inline std::string control_byte_violation(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return "raw control byte " + std::to_string(c) + " at " + std::to_string(i);
  }
  return "";
}

// Text for a terminal or a CI log: no control character but newline and tab, no line that starts
// (after blanks) with `::`, valid UTF-8.
inline std::string terminal_violation(std::string_view s) {
  if (auto c = control_byte_violation(s); !c.empty()) return c;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    std::string_view line = s.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    std::size_t f = line.find_first_not_of(" \t");
    if (f != std::string_view::npos && line.substr(f, 2) == "::") return "a line starts with :: : " + std::string(line.substr(0, 80));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return utf8_violation(s);
}

// XML 1.0: no character outside #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
inline std::string xml_violation(std::string_view s) {
  if (auto u = utf8_violation(s); !u.empty()) return u;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "XML-forbidden byte " + std::to_string(c);
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) == 0xBE || static_cast<unsigned char>(s[i + 2]) == 0xBF))
      return "U+FFFE/U+FFFF in XML";
  }
  // Elements balance: every '<' opens a tag we wrote (the escaper leaves none from the input).
  std::size_t open = 0, close = 0;
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '<') (s[i + 1] == '/' ? close : open)++;
  if (s.find("<?xml") == 0) --open;
  std::size_t selfclosing = 0;
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '/' && s[i + 1] == '>') ++selfclosing;
  if (open != close + selfclosing) return "unbalanced XML elements";
  return "";
}

// Every output of `text` read as a file named `path`; "" or what is wrong.
inline std::string check_all_outputs(std::string_view text, const std::string& path) {
  Config config;
  FileReport report = check_text(std::string(text), path, config);
  std::vector<FileReport> files{report};
  for (OutputFormat f : {OutputFormat::Text, OutputFormat::Concise, OutputFormat::Json, OutputFormat::Sarif,
                         OutputFormat::Github, OutputFormat::Junit}) {
    for (bool statistics : {false, true}) {
      if (statistics && f != OutputFormat::Text && f != OutputFormat::Concise) continue;
      std::ostringstream out;
      OutputOptions opt;
      opt.statistics = statistics;
      write_report(out, f, files, opt);
      const std::string s = out.str();
      std::string why;
      switch (f) {
        case OutputFormat::Text:
        case OutputFormat::Concise: why = terminal_violation(s); break;
        case OutputFormat::Json:
        case OutputFormat::Sarif:
          if (auto u = utf8_violation(s); !u.empty()) why = u;
          else if (nlohmann::json::parse(s, nullptr, false).is_discarded()) why = "not JSON";
          break;
        case OutputFormat::Github:
          // Each line is one command of ours: `::error ...`, `::warning ...`, `::notice ...`, or text
          // that is not a command.
          for (std::size_t start = 0; start < s.size();) {
            std::size_t nl = s.find('\n', start);
            std::string_view line = std::string_view(s).substr(start, nl == std::string::npos ? std::string::npos : nl - start);
            std::size_t f2 = line.find_first_not_of(" \t");
            if (f2 != std::string_view::npos && line.substr(f2, 2) == "::" &&
                !(f2 == 0 && (line.rfind("::error ", 0) == 0 || line.rfind("::warning ", 0) == 0 ||
                              line.rfind("::notice ", 0) == 0)))
              why = "github: a line is another command: " + std::string(line.substr(0, 80));
            if (nl == std::string::npos) break;
            start = nl + 1;
          }
          // A tab is whitespace to the runner and in the log, as in terminal text (`visible` keeps
          // it; GitHub's escapeData escapes only %, CR and LF): a tab echoed from a Query Profile
          // string is not a control byte to report (found by fuzz_output in CI).
          if (auto c = control_byte_violation(s); !c.empty()) why = "github: " + c;
          break;
        case OutputFormat::Junit: why = xml_violation(s); break;
      }
      if (!why.empty()) return std::string(to_string(f)) + (statistics ? " --statistics" : "") + ": " + why;
    }
  }
  LintResult lint = lint_text(text, path, config);
  finish_diagnostics(lint, text, config);
  ShowOptions so;
  if (auto w = terminal_violation(show_text(lint, so)); !w.empty()) return "show: " + w;
  so.color = true;
  (void)show_text(lint, so);
  if (auto w = terminal_violation(show_dot(lint)); !w.empty()) return "show --format dot: " + w;
  if (auto w = terminal_violation(parse_result_tree_text(lint.parse)); !w.empty()) return "parse tree: " + w;
  std::string html = report_html({lint});
  if (auto w = utf8_violation(html); !w.empty()) return "report: " + w;
  return "";
}

}  // namespace planlint::fuzz
