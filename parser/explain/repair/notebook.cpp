// Notebook sources and JSON strings: Databricks `# MAGIC` prefixes, .ipynb cell JSON, literal `\n`.
#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"

namespace planlint::repair {

namespace {

// ---- Databricks notebook sources: `# MAGIC `, `-- MAGIC `, `// MAGIC ` ----------------------------
bool strip_notebook_prefixes(Normalized& out) {
  bool any = false;
  static constexpr std::string_view kMagic[] = {"# MAGIC", "-- MAGIC", "// MAGIC"};
  static constexpr std::string_view kCommand[] = {"# COMMAND ---", "-- COMMAND ---", "// COMMAND ---",
                                                  "# Databricks notebook source", "-- Databricks notebook source",
                                                  "// Databricks notebook source"};
  for (auto& l : out.lines) {
    std::string_view t = out.text(l);
    if (t.empty() || (t[0] != '#' && t[0] != '-' && t[0] != '/')) continue;
    bool cmd = false;
    for (auto c : kCommand) cmd = cmd || t.starts_with(c);
    if (cmd) {
      out.set_text(l, {});
      any = true;
      continue;
    }
    for (auto m : kMagic) {
      if (!t.starts_with(m) || (t.size() > m.size() && t[m.size()] != ' ')) continue;
      strip_front(out, l, m.size() + (t.size() > m.size() ? 1 : 0));
      any = true;
      std::string_view r = out.text(l);
      // `%md`, `%sql`, `%md-sandbox`: the cell's magic command, not text.
      if (!r.empty() && r[0] == '%') {
        std::size_t sp = r.find(' ');
        strip_front(out, l, sp == std::string_view::npos ? r.size() : sp + 1);
      }
      std::string_view body = rtrim_blank_cr(ltrim_blank(out.text(l)));
      if (is_fence(body) || body == "<pre>" || body == "</pre>" || body == "/*" || body == "*/" ||
          is_noise(body))
        out.set_text(l, {});
      break;
    }
  }
  return any;
}

// ---- JSON strings: .ipynb cells and literal `\n` ------------------------------------------------

// Decode the JSON string body s[b, e) (between its quotes) of line idx into lines split at `\n`.
void decode_json_string(const Normalized& out, std::size_t idx, std::size_t b, std::size_t e,
                        std::vector<Mapped>& pieces) {
  std::string_view t = out.text(idx);
  pieces.emplace_back();
  for (std::size_t x = b; x < e; ++x) {
    SrcPos p = out.pos(idx, x);
    if (t[x] != '\\' || x + 1 >= e) {
      pieces.back().put(t[x] == '\t' ? ' ' : t[x], p);
      continue;
    }
    char c = t[++x];
    switch (c) {
      case 'n': pieces.emplace_back(); break;
      case 't': pieces.back().put(' ', p); break;
      case 'r': break;
      case 'u':
        if (x + 4 < e) {
          unsigned v = 0;
          for (int k = 1; k <= 4; ++k) {
            char h = t[x + static_cast<std::size_t>(k)];
            v = v * 16 + static_cast<unsigned>(is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          x += 4;
          if (v < 0x80) {
            pieces.back().put(static_cast<char>(v), p);
          } else if (v < 0x800) {
            pieces.back().put(static_cast<char>(0xC0 | (v >> 6)), p);
            pieces.back().put(static_cast<char>(0x80 | (v & 0x3F)), p);
          } else {
            pieces.back().put(static_cast<char>(0xE0 | (v >> 12)), p);
            pieces.back().put(static_cast<char>(0x80 | ((v >> 6) & 0x3F)), p);
            pieces.back().put(static_cast<char>(0x80 | (v & 0x3F)), p);
          }
        }
        break;
      default: pieces.back().put(c, p); break;  // \" \\ \/
    }
  }
}

// End of the JSON string starting at the quote s[q]: index of the closing quote or npos.
std::size_t json_string_end(std::string_view s, std::size_t q) {
  for (std::size_t i = q + 1; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

// .ipynb: the lines of `"text": [ "...\n", ... ]` output arrays become plan lines; the rest of the
// JSON (structure, `"source"` code) is dropped.
bool unwrap_notebook_json(Normalized& out) {
  std::size_t items = 0;
  bool keys = false;
  for (const auto& l : out.lines) {
    std::string_view t = ltrim_blank(out.text(l));
    if (t.empty() || t[0] != '"') continue;  // both tests below need a leading quote
    t = rtrim_blank_cr(t);
    if (t.starts_with("\"output_type\"") || t.starts_with("\"cell_type\"")) keys = true;
    if (t.size() > 4 && t[0] == '"' && (t.substr(t.size() - 4) == "\\n\"," || t.substr(t.size() - 3) == "\\n\""))
      ++items;
  }
  if (!keys || items < 2) return false;
  std::vector<NormLine> next;
  next.reserve(out.lines.size());
  enum { Other, Text, Source } mode = Other;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const NormLine& l = out.lines[i];
    const std::string_view text = out.text(l);
    std::string_view t = ltrim_blank(text);
    std::size_t lead = static_cast<std::size_t>(t.data() - text.data());
    t = rtrim_blank_cr(t);
    NormLine blank = l;  // takes over l's extra entry, if any: l itself is not kept
    out.set_text(blank, {});
    if (t.empty()) {
      next.push_back(blank);
      continue;
    }
    if (t[0] == '"') {
      std::size_t close = json_string_end(text, lead);
      std::string_view after = close == std::string_view::npos ? std::string_view{} : ltrim_blank(text.substr(close + 1));
      if (!after.empty() && after[0] == ':') {  // a key
        std::string_view key = text.substr(lead + 1, close - lead - 1);
        mode = (key == "text" || key == "text/plain" || key == "data") ? Text : key == "source" ? Source : Other;
        next.push_back(blank);
        continue;
      }
      if (mode == Text && close != std::string_view::npos) {
        std::vector<Mapped> pieces;
        decode_json_string(out, i, lead + 1, close, pieces);
        if (pieces.size() > 1 && pieces.back().text.empty()) pieces.pop_back();
        for (auto& p : pieces) next.push_back(make_line(out, std::move(p), l.line));
        continue;
      }
      next.push_back(blank);
      continue;
    }
    if (t[0] == ']') mode = Other;
    next.push_back(blank);
  }
  out.lines = std::move(next);
  return true;
}

// A plan on one line with literal `\n` (a JSON value, a log line, a `show()` cell).
bool split_at_literal_newlines(Normalized& out) {
  bool any = false;
  std::vector<NormLine> next;
  bool changed = false;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view t = out.text(i);
    std::size_t hits = 0;
    for (std::size_t p = t.find("\\n"); p != std::string_view::npos && hits < 3; p = t.find("\\n", p + 2)) {
      std::string_view after = t.substr(p + 2);
      std::size_t g = skip_guides(after);
      if (is_tree_marker(after, g) || after.starts_with("*(") || after.starts_with("== ") ||
          (p >= 2 && t.substr(p - 2, 2) == "=="))
        ++hits;
    }
    if (hits < 2) {
      if (changed) next.push_back(out.lines[i]);
      continue;
    }
    if (!changed) next.assign(out.lines.begin(), out.lines.begin() + static_cast<std::ptrdiff_t>(i));
    changed = true;
    // The string body: from after an opening quote before the first `==` / marker to a closing quote.
    std::size_t b = 0;
    std::size_t first = t.find("== ");
    if (first == std::string_view::npos) first = t.find("\\n");
    std::size_t q = first == std::string_view::npos ? std::string_view::npos : t.find_last_of("\"'", first);
    if (q != std::string_view::npos) b = q + 1;
    std::size_t e = t.size();
    std::size_t last = t.rfind("\\n");
    std::size_t cq = t.find_first_of("\"'", last == std::string_view::npos ? b : last);
    if (q != std::string_view::npos && cq != std::string_view::npos) e = cq;
    if (b > 0) {
      next.push_back(out.lines[i]);
      out.set_text(next.back(), {});
    }
    std::vector<Mapped> pieces;
    decode_json_string(out, i, b, e, pieces);
    for (auto& p : pieces) next.push_back(make_line(out, std::move(p), out.lines[i].line));
  }
  if (changed) {
    any = true;
    out.lines = std::move(next);
  }
  return any;
}

}  // namespace

bool may_strip_notebook_magic(const RepairState& s) { return s.magic_start; }
bool strip_notebook_magic(RepairState& s) { return s.magic = strip_notebook_prefixes(s.out); }

// The lines are still views into the input, so a key the input does not hold, no line starts with
// (one search of the input's quotes instead of a look at every line).
bool may_unwrap_ipynb(const RepairState& s) {
  const std::string_view in = s.out.input;
  for (std::size_t q = in.find('"'); q != std::string_view::npos; q = in.find('"', q + 1)) {
    const std::string_view r = in.substr(q);
    if (r.starts_with("\"output_type\"") || r.starts_with("\"cell_type\"")) return true;
  }
  return false;
}
bool unwrap_ipynb(RepairState& s) { return s.json = unwrap_notebook_json(s.out); }

// Until here every line is a view into the input unless the notebook JSON was decoded: what the
// input does not contain, no line does (a whole-input memchr instead of a few searches per line).
bool may_split_literal_newlines(const RepairState& s) {
  return s.json || input_has_backslash(s);
}

bool input_has_backslash(const RepairState& s) {
  if (s.backslash < 0) s.backslash = s.out.input.find('\\') != std::string_view::npos;
  return s.backslash != 0;
}
bool split_literal_newlines(RepairState& s) { return s.lit = split_at_literal_newlines(s.out); }

}  // namespace planlint::repair
