#include "parser/explain/normalize.hpp"

#include <algorithm>
#include <cctype>

namespace planlint {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view ltrim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}
std::string_view rtrim(std::string_view s) {
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `+------+` borders of Dataset.show().
bool is_table_border(std::string_view s) {
  s = rtrim(ltrim(s));
  if (s.size() < 3 || s.front() != '+' || s.back() != '+') return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c == '+' || c == '-'; });
}

bool is_fence(std::string_view s) {
  s = ltrim(s);
  return starts_with(s, "```") || starts_with(s, "~~~");
}

// log4j / python logging lines and interactive prompts around a pasted plan.
bool is_noise(std::string_view s) {
  // 25/11/30 10:00:00 INFO ..., 2025-11-30 10:00:00,123 WARN ...
  std::size_t i = 0;
  std::size_t d = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++d;
  if ((d == 2 || d == 4) && i + 15 <= s.size() && (s[i] == '/' || s[i] == '-') && is_digit(s[i + 1]) &&
      is_digit(s[i + 2]) && (s[i + 3] == '/' || s[i + 3] == '-') && is_digit(s[i + 4]) && is_digit(s[i + 5]) &&
      (s[i + 6] == ' ' || s[i + 6] == 'T') && is_digit(s[i + 7]) && is_digit(s[i + 8]) && s[i + 9] == ':')
    return true;
  static constexpr std::string_view kPrompts[] = {">>> ", "scala> ", "spark-sql> ", "spark-sql (", "In [", "Out[",
                                                  "$ ", "sql> "};
  // Hot path (every input line): only lines starting like a prompt are compared.
  if (s.empty() || (s[0] != '>' && s[0] != 's' && s[0] != 'I' && s[0] != 'O' && s[0] != '$')) return false;
  for (auto p : kPrompts)
    if (starts_with(s, p)) return true;
  return s == ">>>" || s == "scala>";
}

// "... 1234 more characters" at the end of a line: position of the "..." or npos.
std::size_t find_cut(std::string_view s) {
  static constexpr std::string_view kTail = " more characters";
  if (s.size() < kTail.size() + 5 || s.substr(s.size() - kTail.size()) != kTail) return std::string_view::npos;
  std::size_t e = s.size() - kTail.size();
  std::size_t b = e;
  while (b > 0 && is_digit(s[b - 1])) --b;
  if (b == e || b < 4 || s.substr(b - 4, 4) != "... ") return std::string_view::npos;
  return b - 4;
}

bool is_mode_header(std::string_view s) {
  s = rtrim(ltrim(s));
  return s.size() >= 7 && starts_with(s, "== ") && s.substr(s.size() - 3) == " ==";
}


std::size_t leading_spaces(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return i;
}

}  // namespace

std::uint32_t Normalized::column(std::size_t idx, std::size_t col) const {
  if (idx >= lines.size()) return 1;
  const NormLine& l = lines[idx];
  std::size_t x = col + l.shift;
  if (x < l.tab_norm_end) return l.col_base + static_cast<std::uint32_t>(x * l.tab_orig_end / l.tab_norm_end);
  return l.col_base + static_cast<std::uint32_t>(x - l.tab_norm_end + l.tab_orig_end);
}

SourceRange Normalized::range(std::size_t idx, std::size_t begin, std::size_t end) const {
  return range(idx, begin, idx, end);
}

SourceRange Normalized::range(std::size_t first_idx, std::size_t begin, std::size_t last_idx, std::size_t end) const {
  SourceRange r;
  if (first_idx >= lines.size() || last_idx >= lines.size()) return r;
  r.line = lines[first_idx].line;
  r.column = column(first_idx, begin);
  r.end_line = lines[last_idx].line;
  r.end_column = column(last_idx, end);
  return r;
}

Normalized normalize(std::string_view input) {
  Normalized out;
  if (starts_with(input, "\xEF\xBB\xBF")) input.remove_prefix(3);
  auto& lines = out.lines;

  // 1. Split, strip CR and trailing blanks, drop fences / borders / noise. Lines are views into
  //    `input`; only the few rewritten lines (tabs) are stored in `out.owned`.
  lines.reserve(input.size() / 48 + 16);
  std::size_t pos = 0;
  std::uint32_t lineno = 0;
  bool any_table = false, any_noise = false, any_fence = false, any_crlf = false, any_tab = false;
  std::size_t nonempty = 0, margin = 0;
  std::vector<std::size_t> borders;
  while (pos <= input.size()) {
    std::size_t nl = input.find('\n', pos);
    if (nl == std::string_view::npos) nl = input.size();
    std::string_view raw = input.substr(pos, nl - pos);
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') any_crlf = true;
    NormLine l;
    l.line = lineno;
    l.text = rtrim(raw);
    std::size_t f = 0;
    while (f < l.text.size() && is_blank(l.text[f])) ++f;
    if (f < l.text.size()) {
      char c = l.text[f];
      if ((c == '`' || c == '~') && is_fence(l.text)) {
        l.text = {};
        any_fence = true;
      } else if (c == '+' && is_table_border(l.text)) {
        l.text = {};
        borders.push_back(lines.size());
        any_table = true;
      } else if ((is_digit(c) || c == '>' || c == 's' || c == 'I' || c == 'O' || c == '$') && f == 0 && is_noise(l.text)) {
        l.text = {};
        any_noise = true;
      } else {
        ++nonempty;
        if (c == '|' || ((c == '"' || c == 's') && (starts_with(l.text.substr(f), "\"\"\"|") || starts_with(l.text.substr(f), "s\"\"\"|"))))
          ++margin;
        if (!any_tab && l.text.find('\t') != std::string_view::npos) any_tab = true;
      }
    }
    lines.push_back(l);
    if (nl == input.size()) break;
    pos = nl + 1;
  }
  // A trailing newline gives one empty last line: drop it.
  if (!lines.empty() && lines.back().text.empty() && !input.empty() && input.back() == '\n') lines.pop_back();
  if (any_crlf) out.repairs.emplace_back("converted CRLF line ends");
  if (any_fence) out.repairs.emplace_back("removed markdown fences");
  if (any_noise) out.repairs.emplace_back("removed log or prompt lines");

  auto strip_front = [](NormLine& l, std::size_t n) {
    l.text.remove_prefix(n);
    l.col_base += static_cast<std::uint32_t>(n);
  };

  // 2. ASCII table of Dataset.show(truncate=False): `|plan|` header row, `|` on the first content
  //    line, `   |` padding on the last.
  if (any_table) {
    out.repairs.emplace_back("removed the ASCII table of .show()");
    std::size_t b = 0;
    for (std::size_t i = borders.front() + 1; i < lines.size(); ++i) {
      while (b < borders.size() && borders[b] < i) ++b;
      NormLine& l = lines[i];
      std::string_view t = ltrim(l.text);
      if (b == 1 && !t.empty() && t.front() == '|' && t.size() >= 2 && t.back() == '|' &&
          t.find("==") == std::string_view::npos && (i == 0 || lines[i - 1].text.empty())) {
        l.text = {};  // column header row
        continue;
      }
      if (!t.empty() && t.front() == '|') strip_front(l, static_cast<std::size_t>(t.data() - l.text.data()) + 1);
      if (!l.text.empty() && l.text.back() == '|') l.text = rtrim(l.text.substr(0, l.text.size() - 1));
    }
  }

  // 3. Scala stripMargin: most non-empty lines start with optional blanks and `|`.
  if (margin >= 2 && margin * 10 >= nonempty * 8) {
    out.repairs.emplace_back("removed '|' stripMargin margins");
    for (auto& l : lines) {
      std::string_view t = ltrim(l.text);
      std::size_t bar = t.find('|');
      if (t.empty() || bar > 4 || (bar > 0 && !starts_with(t, "\"\"\"") && !starts_with(t, "s\"\"\""))) continue;
      strip_front(l, static_cast<std::size_t>(t.data() - l.text.data()) + bar + 1);
      for (std::string_view tail : {std::string_view("\"\"\".stripMargin"), std::string_view("\"\"\"")})
        if (l.text.size() >= tail.size() && l.text.substr(l.text.size() - tail.size()) == tail) {
          l.text = rtrim(l.text.substr(0, l.text.size() - tail.size()));
          break;
        }
    }
  }

  // 4. Tabs: leading tabs to 8-column stops, other tabs to one space (keeps columns 1:1).
  if (any_tab) {
    out.repairs.emplace_back("expanded tabs");
    for (auto& l : lines) {
      if (l.text.find('\t') == std::string_view::npos) continue;
      std::string s;
      s.reserve(l.text.size() + 16);
      std::size_t i = 0;
      for (; i < l.text.size() && is_blank(l.text[i]); ++i) {
        if (l.text[i] == '\t')
          s.append(8 - s.size() % 8, ' ');
        else
          s += ' ';
      }
      if (i > 0 && s.size() != i) {
        l.tab_norm_end = static_cast<std::uint32_t>(s.size());
        l.tab_orig_end = static_cast<std::uint32_t>(i);
      }
      for (; i < l.text.size(); ++i) s += l.text[i] == '\t' ? ' ' : l.text[i];
      out.owned.push_back(std::move(s));
      l.text = out.owned.back();
    }
  }

  // 5. Spark's own cut: "... N more characters" (no newline before it).
  for (std::size_t i = lines.size(); i-- > 0;) {
    if (lines[i].text.empty()) continue;
    std::size_t c = find_cut(lines[i].text);
    if (c != std::string_view::npos) {
      out.cut = true;
      out.cut_line = i;
      out.cut_text = std::string(lines[i].text.substr(c));
      lines[i].text = rtrim(lines[i].text.substr(0, c));
    }
    break;
  }

  // 6. Common indent, per region: a `== Title ==` header fixes the indent of the lines after it;
  //    before the first header the smallest indent of the non-empty lines is used.
  {
    bool any_indent = false;
    auto apply = [&](std::size_t b, std::size_t e, std::size_t indent) {
      if (indent == 0) return;
      for (std::size_t i = b; i < e; ++i) {
        std::size_t n = std::min(indent, leading_spaces(lines[i].text));
        if (n == 0) continue;
        any_indent = true;
        lines[i].text.remove_prefix(n);
        lines[i].shift += static_cast<std::uint32_t>(n);
      }
    };
    auto header_at = [&](std::size_t i) {
      std::string_view t = lines[i].text;
      std::size_t k = leading_spaces(t);
      return k < t.size() && t[k] == '=' && is_mode_header(t);
    };
    std::size_t first_header = lines.size();
    std::size_t m = std::string_view::npos;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (header_at(i)) {
        first_header = i;
        break;
      }
      if (!lines[i].text.empty()) m = std::min(m, leading_spaces(lines[i].text));
    }
    if (m != std::string_view::npos) apply(0, first_header, m);
    std::size_t region_start = first_header;
    while (region_start < lines.size()) {
      std::size_t indent = leading_spaces(lines[region_start].text);
      std::size_t e = region_start + 1;
      while (e < lines.size() && !header_at(e)) ++e;
      apply(region_start, e, indent);
      region_start = e;
    }
    if (any_indent) out.repairs.emplace_back("removed a common indent");
  }
  return out;
}

}  // namespace planlint
