// `text` (the default) and `concise`: for people in a terminal and for editors' problem matchers.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <ostream>
#include <tuple>
#include <vector>

#include "lint/output/output.hpp"
#include <sstream>

#include "lint/core/sanitize.hpp"
#include "lint/core/source_file.hpp"
#include "lint/core/text_width.hpp"

namespace planlint {

namespace {

struct Style {
  bool on = false;
  [[nodiscard]] std::string wrap(std::string_view code, std::string_view s) const {
    if (!on) return std::string(s);
    return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
  }
  [[nodiscard]] std::string severity(Severity sev) const {
    std::string_view code = sev == Severity::Error ? "1;31" : sev == Severity::Warning ? "1;33" : "1;36";
    return wrap(code, to_string(sev));
  }
  [[nodiscard]] std::string caret(Severity sev, std::string_view s) const {
    return wrap(sev == Severity::Error ? "31" : sev == Severity::Warning ? "33" : "36", s);
  }
};

// Lines of one input, indexed once (a big event log may have many findings): of its text when the
// report holds it, else of the file it names (FileReport::source: a large file not kept, whose
// lines are fetched when shown).
class Lines {
 public:
  explicit Lines(const FileReport& f) : text_(f.text()), file_(f.input ? nullptr : f.source.get()) {}
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;
  ~Lines() {
    if (file_) file_->close();
  }

  // Makes line n (1-based) the current one: false when it is empty or out of range, or (a file)
  // when it cannot be read as it was.
  bool select(std::uint32_t n) {
    if (file_) {
      const std::optional<SourceFile::Line> l = file_->line(n);
      if (!l) return false;
      file_line_ = *l;
      size_ = l->size;
      return size_ > 0;
    }
    line_ = at(n);
    size_ = line_.size();
    return size_ > 0;
  }
  // The current line's size in bytes (without its line break).
  [[nodiscard]] std::size_t size() const { return size_; }
  // Whether `s` occurs in the current line; nullopt when the file cannot be read as it was.
  std::optional<bool> contains(std::string_view s) {
    if (file_) return file_->contains(file_line_, s);
    return line_.find(s) != std::string_view::npos;
  }
  // The current line's bytes [from, to) (to <= size()); false when the file cannot be read as it was.
  bool window(std::size_t from, std::size_t to, std::string_view& out) {
    if (file_) {
      std::optional<std::string> got = file_->bytes(file_line_, from, to);
      if (!got) return false;
      held_ = std::move(*got);
      out = held_;
      return true;
    }
    out = line_.substr(from, to - from);
    return true;
  }

 private:
  // The n-th line (1-based) of the text without its line break; empty when out of range.
  std::string_view at(std::uint32_t n) {
    if (starts_.empty()) {
      starts_.push_back(0);
      for (std::size_t i = text_.find('\n'); i != std::string_view::npos; i = text_.find('\n', i + 1))
        starts_.push_back(i + 1);
    }
    if (n == 0 || n > starts_.size()) return {};
    std::size_t start = starts_[n - 1];
    std::size_t end = n < starts_.size() ? starts_[n] - 1 : text_.size();
    std::string_view line = text_.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  std::string_view text_;
  std::vector<std::size_t> starts_;
  SourceFile* file_;
  std::string_view line_;          // the current line (of the text)
  SourceFile::Line file_line_;     // the current line (of the file)
  std::size_t size_ = 0;
  std::string held_;               // the last window read from the file
};

std::string location(const FileReport& f, const Diagnostic& d) {
  std::string s = visible(f.path);
  if (d.range.known()) s += ":" + std::to_string(d.range.line) + ":" + std::to_string(std::max<std::uint32_t>(1, d.range.column));
  return s;
}

// The plan line of a finding and a caret under the operator name. Long lines (minified JSON)
// are cut to a window around the column. Everything shown is read before anything is written: a
// line that cannot be read as it was (a file read in pieces that changed since) shows nothing.
void write_source(std::ostream& out, Lines& lines, const Diagnostic& d, const Style& st) {
  if (!d.range.known()) return;
  if (!lines.select(d.range.line)) return;
  const std::size_t size = lines.size();
  if (!d.operator_name.empty()) {
    const std::optional<bool> named = lines.contains(d.operator_name);
    if (!named) return;
    if (!*named) {
      // JSON inputs (profiles, event logs): the line is the node's `{`; name the operator instead.
      std::string gutter(std::to_string(d.range.line).size(), ' ');
      out << gutter << " " << st.wrap("34", "=") << " operator: " << visible(d.operator_name)
          << (d.operator_id.empty() ? "" : " (" + visible(d.operator_id) + ")") << "\n";
      return;
    }
  }
  std::size_t col = d.range.column ? d.range.column - 1 : 0;
  if (col > size) col = size;
  constexpr std::size_t kMax = 160;
  std::size_t start = col > kMax / 2 ? col - kMax / 4 : 0;
  std::size_t end = std::min(size, start + kMax);
  // The bytes read: the window shown, and the operator's name at the column (or one byte) past it.
  const std::size_t last = std::min(size, std::max(end, col + std::max<std::size_t>(1, d.operator_name.size())));
  std::string_view shown_bytes;
  if (!lines.window(start, last, shown_bytes)) return;
  // The line's bytes [from, from + n), as line.substr(from, n) (within the window read).
  const auto sub = [&](std::size_t from, std::size_t n) { return shown_bytes.substr(from - start, n); };
  std::size_t width = 1;
  if (d.range.end_line == d.range.line && d.range.end_column > d.range.column)
    width = d.range.end_column - d.range.column;
  else if (!d.operator_name.empty() && sub(col, d.operator_name.size()) == d.operator_name)
    width = d.operator_name.size();
  // Shown visibly (escape sequences as \x1b): the caret is placed under the same characters.
  std::string before = (start ? "..." : "") + visible(sub(start, col - start));
  std::string shown = before + visible(sub(col, end - col)) + (end < size ? "..." : "");
  width = std::max<std::size_t>(1, std::min(width, end > col ? end - col : 1));
  std::string num = std::to_string(d.range.line);
  std::string gutter(num.size(), ' ');
  // Columns, not bytes: a wide character (a Chinese table name) takes two, a combining mark none.
  std::string pad;
  for (std::size_t i = 0, from = 0; i <= before.size(); ++i)
    if (i == before.size() || before[i] == '\t') {
      pad += std::string(display_width(std::string_view(before).substr(from, i - from)), ' ');
      if (i < before.size()) pad += '\t';
      from = i + 1;
    }
  std::size_t carets = std::max<std::size_t>(1, display_width(visible(sub(col, width))));
  out << st.wrap("34", gutter + " |") << "\n";
  out << st.wrap("34", num + " |") << " " << shown << "\n";
  out << st.wrap("34", gutter + " |") << " " << pad << st.caret(d.severity, std::string(carets, '^')) << "\n";
}

void write_notes(std::ostream& out, const Diagnostic& d, std::size_t gutter, const Style& st) {
  std::string g(gutter, ' ');
  for (const auto& e : d.evidence)
    out << g << " " << st.wrap("34", "=") << " evidence: " << visible(e.name) << ": " << visible(evidence_value(e)) << "\n";
  if (!d.impact_text.empty()) out << g << " " << st.wrap("34", "=") << " impact: " << visible(d.impact_text) << "\n";
  if (!d.fix.empty()) out << g << " " << st.wrap("34", "=") << " " << st.wrap("32", "fix:") << " " << visible(d.fix) << "\n";
}

bool same_operator(const Diagnostic& a, const Diagnostic& b) {
  if (a.plan_index != b.plan_index) return false;
  if (a.op && b.op) return *a.op == *b.op;
  return false;
}

void write_statistics(std::ostream& out, const std::vector<FileReport>& files) {
  std::map<std::string, std::pair<std::size_t, std::string>> by_rule;
  for (const auto& f : files)
    for (const auto& d : f.diagnostics) {
      auto& e = by_rule[d.rule];
      ++e.first;
      e.second = d.code;
    }
  std::vector<std::tuple<std::size_t, std::string, std::string>> rows;
  for (const auto& [rule, e] : by_rule) rows.emplace_back(e.first, rule, e.second);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  for (const auto& [n, rule, code] : rows) {
    std::string count = std::to_string(n);
    out << std::string(count.size() < 5 ? 5 - count.size() : 0, ' ') << count << "  " << code
        << std::string(code.size() < 6 ? 6 - code.size() : 1, ' ') << " " << rule << "\n";
  }
}

}  // namespace

namespace {
void write_text_lines(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt) {
  Style st{opt.color};
  if (opt.statistics) {
    write_statistics(out, files);
  } else {
    for (const auto& f : files) {
      Lines lines(f);
      const Diagnostic* prev = nullptr;
      for (const auto& d : f.diagnostics) {
        bool grouped = prev && same_operator(*prev, d);
        if (prev && !grouped) out << "\n";
        out << st.wrap("1", location(f, d) + ":") << " " << st.severity(d.severity) << ": " << visible(labelled_message(d)) << " "
            << st.wrap("2", "[" + rule_label(d) + "]") << "\n";
        if (!grouped) write_source(out, lines, d, st);
        write_notes(out, d, d.range.known() ? std::to_string(d.range.line).size() : 1, st);
        prev = &d;
      }
      if (prev) out << "\n";
    }
  }
  if (!opt.quiet) out << st.wrap("1", summary_line(count_totals(files))) << "\n";
}

void write_concise_lines(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt) {
  Style st{opt.color};
  if (opt.statistics) {
    write_statistics(out, files);
  } else {
    for (const auto& f : files)
      for (const auto& d : f.diagnostics) {
        std::string loc = visible(f.path) + ":" + std::to_string(std::max<std::uint32_t>(1, d.range.line)) + ":" +
                          std::to_string(std::max<std::uint32_t>(1, d.range.column));
        out << st.wrap("1", loc + ":") << " " << st.severity(d.severity) << "[" << rule_label(d) << "] " << visible(labelled_message(d)) << "\n";
      }
  }
  if (!opt.quiet) out << summary_line(count_totals(files)) << "\n";
}
}  // namespace

// Every piece that comes from an input is shown visibly (lint/core/sanitize.hpp); then no line may
// start like a GitHub Actions workflow command.
void write_text(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt) {
  std::ostringstream s;
  write_text_lines(s, files, opt);
  out << no_workflow_commands(s.str());
}

void write_concise(std::ostream& out, const std::vector<FileReport>& files, const OutputOptions& opt) {
  std::ostringstream s;
  write_concise_lines(s, files, opt);
  out << no_workflow_commands(s.str());
}

void write_messages_text(std::ostream& out, const std::vector<FileReport>& files) {
  for (const auto& f : files)
    for (const auto& m : f.messages)
      out << visible(f.path) << ':' << m.loc.line << ':' << m.loc.column << ": " << to_string(m.severity) << ": "
          << visible(m.message) << "\n";
}

}  // namespace planlint
