#include "lint/core/suppress.hpp"

#include <algorithm>

#include "lint/core/builtin_rules.hpp"
#include "lint/core/config.hpp"
#include "rules/catalog.hpp"
#include "support/byte_scan.hpp"

namespace planlint {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

struct Cursor {
  std::string_view s;
  std::size_t i = 0;
  void blanks() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }
  bool eat(std::string_view word) {
    if (s.substr(i, word.size()) != word) return false;
    i += word.size();
    return true;
  }
  // A comma-separated list of names; each with its column (0-based).
  std::vector<std::pair<std::string, std::size_t>> names(bool allow_dots) {
    std::vector<std::pair<std::string, std::size_t>> out;
    while (true) {
      std::size_t start = i;
      while (i < s.size() && (is_name_char(s[i]) || (allow_dots && (s[i] == '.' || s[i] == ':')))) ++i;
      if (i == start) break;
      out.emplace_back(std::string(s.substr(start, i - start)), start);
      std::size_t after = i;
      blanks();
      if (i < s.size() && s[i] == ',') {
        ++i;
        blanks();
        continue;
      }
      i = after;
      break;
    }
    return out;
  }
};

enum class LineKind { NotDirective, Directive, NotUnderstood };

// `word`, blanks, `=`, blanks (the spaces are a common way to write it).
bool eat_key(Cursor& c, std::string_view word) {
  std::size_t at = c.i;
  if (!c.eat(word)) return false;
  c.blanks();
  if (!c.eat("=")) {
    c.i = at;
    return false;
  }
  c.blanks();
  return true;
}

// Parses one line: not a directive (no comment starting `planlint:`), a directive (filled into
// `out`), or a `planlint:` comment that is not understood.
LineKind parse_directive(std::string_view line, Suppression* out) {
  Cursor c{line};
  c.eat("\xEF\xBB\xBF");  // a UTF-8 BOM (the first line of a file from some Windows editors)
  c.blanks();
  if (!(c.eat("#") || c.eat("--") || c.eat("//"))) return LineKind::NotDirective;
  c.blanks();
  if (!c.eat("planlint:")) return LineKind::NotDirective;
  c.blanks();
  if (!eat_key(c, "disable")) return LineKind::NotUnderstood;
  auto rules = c.names(false);
  if (rules.empty()) return LineKind::NotUnderstood;
  std::vector<std::pair<std::string, std::size_t>> ops;
  c.blanks();
  if (eat_key(c, "operator")) {
    ops = c.names(true);
    if (ops.empty()) return LineKind::NotUnderstood;
  }
  c.blanks();
  if (c.i < line.size() && !(line[c.i] == '#' || line.substr(c.i, 2) == "--" || line.substr(c.i, 2) == "//"))
    return LineKind::NotUnderstood;  // trailing text other than a comment
  if (out) {
    for (auto& [name, col] : rules) {
      Suppression::Entry e;
      e.rule = name;
      e.loc.column = static_cast<std::uint32_t>(col + 1);
      e.loc.end_column = static_cast<std::uint32_t>(col + 1 + name.size());
      out->rules.push_back(std::move(e));
    }
    for (auto& [id, col] : ops) out->operator_ids.push_back(id);
  }
  return LineKind::Directive;
}

bool entry_matches(const Suppression::Entry& e, const Diagnostic& d) {
  if (e.rule == d.rule || (!d.code.empty() && e.rule == d.code)) return true;
  return reported_name(e.rule) == d.rule;  // a rule's former name (RuleDoc::aliases)
}

}  // namespace

bool is_directive_line(std::string_view line) { return parse_directive(line, nullptr) != LineKind::NotDirective; }

std::vector<Suppression> find_suppressions(std::string_view text) {
  // Only the lines that mention `planlint:` are looked at: the scan jumps from one mention to the
  // next and counts the newlines in between, so a plan without directives costs one search. The
  // search goes through the mark's `nl` (byte_scan.hpp's find_by_pair): plan text holds its `p`
  // every 80 bytes or so (89,757 stops of find's memchr on the golden plans), `nl` almost never.
  std::vector<Suppression> out;
  constexpr std::string_view kMark = "planlint:";
  constexpr std::size_t kPair = 3;  // kMark's `nl`
  std::size_t counted = 0;  // newlines before `counted` are in line_no
  std::uint32_t line_no = 1;
  for (std::size_t hit = find_by_pair(text, kMark, kPair); hit != std::string_view::npos;) {
    std::size_t start = text.rfind('\n', hit);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::size_t nl = text.find('\n', hit);
    line_no += static_cast<std::uint32_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                                     text.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
    counted = start;
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() < 4096) {  // directive lines are short
      Suppression s;
      LineKind kind = parse_directive(line, &s);
      if (kind != LineKind::NotDirective) {
        s.understood = kind == LineKind::Directive;
        s.loc.line = line_no;
        s.loc.column = 1;
        s.loc.end_line = line_no;
        s.loc.end_column = static_cast<std::uint32_t>(line.size() + 1);
        for (auto& e : s.rules) e.loc.line = e.loc.end_line = line_no;
        out.push_back(std::move(s));
      }
    }
    if (nl == std::string_view::npos) break;
    hit = find_by_pair(text, kMark, kPair, nl + 1);
  }
  return out;
}

std::size_t apply_suppressions(const std::vector<Suppression>& suppressions, std::vector<Diagnostic>& diags,
                               const Config& config) {
  if (suppressions.empty()) return 0;
  std::vector<std::vector<bool>> used(suppressions.size());
  for (std::size_t s = 0; s < suppressions.size(); ++s) used[s].assign(suppressions[s].rules.size(), false);

  std::vector<Diagnostic> kept;
  std::size_t removed = 0;
  for (auto& d : diags) {
    bool suppressed = false;
    for (std::size_t s = 0; s < suppressions.size(); ++s) {
      const Suppression& sup = suppressions[s];
      if (!sup.operator_ids.empty()) {
        bool on_op = false;
        for (const auto& id : sup.operator_ids) on_op = on_op || (!d.operator_id.empty() && id == d.operator_id);
        if (!on_op) continue;
      }
      for (std::size_t e = 0; e < sup.rules.size(); ++e) {
        if (entry_matches(sup.rules[e], d)) {
          used[s][e] = true;
          suppressed = true;
        }
      }
    }
    if (suppressed)
      ++removed;
    else
      kept.push_back(std::move(d));
  }
  diags = std::move(kept);

  if (!is_reported(config, kUnusedSuppressionRule)) return removed;
  const RuleDoc& doc = unused_suppression_doc();
  Severity severity = doc.severity;
  if (auto it = config.severity.find(doc.name); it != config.severity.end()) severity = it->second;
  for (std::size_t s = 0; s < suppressions.size(); ++s) {
    const Suppression& sup = suppressions[s];
    if (!sup.understood) {
      Diagnostic d;
      d.rule = doc.name;
      d.code = doc.code;
      d.severity = severity;
      d.message = "`# planlint:` directive not understood";
      d.fix = "write it as `# planlint: disable=rule[,rule...] [operator=id[,id...]]` (a comment may follow), or "
              "remove the line";
      d.range = sup.loc;
      diags.push_back(std::move(d));
      continue;
    }
    for (std::size_t e = 0; e < sup.rules.size(); ++e) {
      if (used[s][e]) continue;
      const auto& entry = sup.rules[e];
      const RuleDoc* target = find_rule_doc(entry.rule);
      std::string message;
      if (!target) {
        message = "unknown rule `" + entry.rule + "` in suppression";
      } else {
        bool reported = false;
        for (const auto& name : names_for_selector(entry.rule)) reported = reported || is_reported(config, name);
        if (!reported) continue;  // the rule did not run: we cannot tell whether the directive is needed
        std::string where = "in this file";
        if (!sup.operator_ids.empty()) {
          where = "on operator ";
          for (std::size_t i = 0; i < sup.operator_ids.size(); ++i) where += (i ? ", " : "") + sup.operator_ids[i];
        }
        message = "unused suppression: `" + entry.rule + "` reported nothing " + where;
      }
      Diagnostic d;
      d.rule = doc.name;
      d.code = doc.code;
      d.severity = severity;
      d.message = std::move(message);
      d.fix = "remove `" + entry.rule + "` from the directive (or the whole directive line)";
      d.range = entry.loc;
      diags.push_back(std::move(d));
    }
  }
  return removed;
}

}  // namespace planlint
