#include "parser/normalize.hpp"

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

struct Work {
  std::string_view text;        // current content (view into input, or into `owned`)
  std::string owned;            // when tabs had to be expanded
  std::uint32_t line = 0;
  std::uint32_t col_base = 1;
  std::uint32_t shift = 0;
  std::uint32_t tab_norm_end = 0;
  std::uint32_t tab_orig_end = 0;
};

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

  // 1. Split, strip CR and trailing blanks, drop fences / borders / noise.
  std::vector<Work> work;
  work.reserve(static_cast<std::size_t>(std::count(input.begin(), input.end(), '\n')) + 1);
  std::size_t pos = 0;
  std::uint32_t lineno = 0;
  bool any_table = false, any_noise = false, any_fence = false, any_crlf = false;
  while (pos <= input.size()) {
    std::size_t nl = input.find('\n', pos);
    if (nl == std::string_view::npos) nl = input.size();
    std::string_view raw = input.substr(pos, nl - pos);
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') any_crlf = true;
    Work w;
    w.line = lineno;
    w.text = rtrim(raw);
    if (is_fence(w.text)) {
      w.text = {};
      any_fence = true;
    } else if (is_table_border(w.text)) {
      w.text = "\x01";  // border marker, removed below
      any_table = true;
    } else if (is_noise(w.text)) {
      w.text = {};
      any_noise = true;
    }
    work.push_back(std::move(w));
    if (nl == input.size()) break;
    pos = nl + 1;
  }
  // A trailing newline gives one empty last line: drop it.
  if (!work.empty() && work.back().text.empty() && !input.empty() && input.back() == '\n') work.pop_back();
  if (any_crlf) out.repairs.emplace_back("converted CRLF line ends");
  if (any_fence) out.repairs.emplace_back("removed markdown fences");
  if (any_noise) out.repairs.emplace_back("removed log or prompt lines");

  auto strip_front = [](Work& w, std::size_t n) {
    w.text.remove_prefix(n);
    w.col_base += static_cast<std::uint32_t>(n);
  };

  // 2. ASCII table of Dataset.show(truncate=False): `|plan|` header row, `|` on the first content
  //    line, `   |` padding on the last.
  if (any_table) {
    out.repairs.emplace_back("removed the ASCII table of .show()");
    int borders_seen = 0;
    for (auto& w : work) {
      if (w.text == "\x01") {
        ++borders_seen;
        w.text = {};
        continue;
      }
      if (borders_seen == 0) continue;
      std::string_view t = ltrim(w.text);
      if (borders_seen == 1 && !t.empty() && t.front() == '|' && t.size() >= 2 && t.back() == '|' &&
          t.find("==") == std::string_view::npos) {
        w.text = {};  // column header row
        continue;
      }
      if (!t.empty() && t.front() == '|') strip_front(w, static_cast<std::size_t>(t.data() - w.text.data()) + 1);
      if (!w.text.empty() && w.text.back() == '|') w.text = rtrim(w.text.substr(0, w.text.size() - 1));
    }
  }

  // 3. Scala stripMargin: most non-empty lines start with optional blanks and `|`.
  {
    std::size_t nonempty = 0, margin = 0;
    for (const auto& w : work) {
      if (w.text.empty()) continue;
      ++nonempty;
      std::string_view t = ltrim(w.text);
      if (starts_with(t, "|") || starts_with(t, "\"\"\"|") || starts_with(t, "s\"\"\"|")) ++margin;
    }
    if (margin >= 2 && margin * 10 >= nonempty * 8) {
      out.repairs.emplace_back("removed '|' stripMargin margins");
      for (auto& w : work) {
        std::string_view t = ltrim(w.text);
        std::size_t bar = t.find('|');
        if (t.empty() || bar > 4 || (bar > 0 && !starts_with(t, "\"\"\"") && !starts_with(t, "s\"\"\""))) continue;
        strip_front(w, static_cast<std::size_t>(t.data() - w.text.data()) + bar + 1);
        for (std::string_view tail : {std::string_view("\"\"\".stripMargin"), std::string_view("\"\"\"")})
          if (w.text.size() >= tail.size() && w.text.substr(w.text.size() - tail.size()) == tail) {
            w.text = rtrim(w.text.substr(0, w.text.size() - tail.size()));
            break;
          }
      }
    }
  }

  // 4. Tabs: leading tabs to 8-column stops, other tabs to one space (keeps columns 1:1).
  bool any_tab = false;
  for (auto& w : work) {
    if (w.text.find('\t') == std::string_view::npos) continue;
    any_tab = true;
    std::string s;
    s.reserve(w.text.size() + 16);
    std::size_t i = 0;
    for (; i < w.text.size() && is_blank(w.text[i]); ++i) {
      if (w.text[i] == '\t')
        s.append(8 - s.size() % 8, ' ');
      else
        s += ' ';
    }
    if (i > 0 && s.size() != i) {
      w.tab_norm_end = static_cast<std::uint32_t>(s.size());
      w.tab_orig_end = static_cast<std::uint32_t>(i);
    }
    for (; i < w.text.size(); ++i) s += w.text[i] == '\t' ? ' ' : w.text[i];
    w.owned = std::move(s);
    w.text = w.owned;
  }
  if (any_tab) out.repairs.emplace_back("expanded tabs");

  // 5. Spark's own cut: "... N more characters" (no newline before it).
  for (std::size_t i = 0; i < work.size(); ++i) {
    std::size_t c = find_cut(work[i].text);
    if (c == std::string_view::npos) continue;
    out.cut = true;
    out.cut_line = i;
    out.cut_text = std::string(work[i].text.substr(c));
    work[i].text = rtrim(work[i].text.substr(0, c));
    break;
  }

  // 6. Common indent, per region: a `== Title ==` header fixes the indent of the lines after it;
  //    before the first header the smallest indent of the non-empty lines is used.
  {
    std::size_t region_start = 0;
    bool any_indent = false;
    auto apply = [&](std::size_t b, std::size_t e, std::size_t indent) {
      if (indent == 0) return;
      for (std::size_t i = b; i < e; ++i) {
        std::size_t n = std::min(indent, leading_spaces(work[i].text));
        if (n == 0) continue;
        any_indent = true;
        work[i].text.remove_prefix(n);
        work[i].shift += static_cast<std::uint32_t>(n);
      }
    };
    std::size_t first_header = work.size();
    for (std::size_t i = 0; i < work.size(); ++i)
      if (is_mode_header(work[i].text)) {
        first_header = i;
        break;
      }
    {
      std::size_t m = std::string_view::npos;
      for (std::size_t i = 0; i < first_header; ++i)
        if (!work[i].text.empty()) m = std::min(m, leading_spaces(work[i].text));
      if (m != std::string_view::npos) apply(0, first_header, m);
    }
    region_start = first_header;
    while (region_start < work.size()) {
      std::size_t indent = leading_spaces(work[region_start].text);
      std::size_t e = region_start + 1;
      while (e < work.size() && !is_mode_header(work[e].text)) ++e;
      apply(region_start, e, indent);
      region_start = e;
    }
    if (any_indent) out.repairs.emplace_back("removed a common indent");
  }

  // 7. Build the buffer and the views.
  std::size_t total = 0;
  for (const auto& w : work) total += w.text.size() + 1;
  out.buffer.reserve(total);
  std::vector<std::size_t> offsets;
  offsets.reserve(work.size());
  for (const auto& w : work) {
    offsets.push_back(out.buffer.size());
    out.buffer.append(w.text);
    out.buffer += '\n';
  }
  out.lines.resize(work.size());
  for (std::size_t i = 0; i < work.size(); ++i) {
    NormLine& l = out.lines[i];
    l.text = std::string_view(out.buffer).substr(offsets[i], work[i].text.size());
    l.line = work[i].line;
    l.col_base = work[i].col_base;
    l.shift = work[i].shift;
    l.tab_norm_end = work[i].tab_norm_end;
    l.tab_orig_end = work[i].tab_orig_end;
  }
  return out;
}

}  // namespace planlint
