#include "parser/explain/normalize.hpp"

#include <algorithm>
#include <optional>
#include <cctype>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace planlint {

namespace {

// Newlines in `s`, 16 bytes at a time with SSE2, else eight (a byte-wise loop or memchr per line
// costs 10-20x more instructions on a plan of short lines; the count only sizes the line table).
std::size_t count_newlines(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, low7 = 0x7F7F7F7F7F7F7F7FULL, nl = ones * '\n';
  std::size_t n = 0, i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time: per byte lane, minus the compare masks (-1 per newline) counts up to 255
  // blocks, then the lanes are summed.
  const __m128i nlv = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (i + 16 <= s.size()) {
    __m128i acc = zero;
    for (int k = 0; k < 255 && i + 16 <= s.size(); ++k, i += 16)
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i)), nlv));
    const __m128i sums = _mm_sad_epu8(acc, zero);  // two 16-bit sums, one per half
    n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
#endif
  while (i + 8 <= s.size()) {
    std::uint64_t acc = 0;  // per byte lane: how many newlines, at most 255 words per flush
    for (int k = 0; k < 255 && i + 8 <= s.size(); ++k, i += 8) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      const std::uint64_t x = w ^ nl;                             // newline bytes become 0
      const std::uint64_t zero = ~(((x & low7) + low7) | x | low7);  // 0x80 exactly in zero bytes
      acc += zero >> 7;
    }
    const std::uint64_t pairs = (acc & 0x00FF00FF00FF00FFULL) + ((acc >> 8) & 0x00FF00FF00FF00FFULL);
    n += static_cast<std::size_t>((pairs * 0x0001000100010001ULL) >> 48);  // sum of four lanes <= 2040
  }
  for (; i < s.size(); ++i) n += s[i] == '\n';
  return n;
}

// The first byte `c` at or after an offset of `s`, for offsets that mostly grow (lines in order):
// one memchr per line that holds `c` instead of one per line.
struct NextByte {
  std::string_view s;
  char c;
  std::size_t from = 1, at = 0;  // s[from, at) holds no c, s[at] == c or at == s.size() (none yet)
  std::size_t find(std::size_t o) {
    if (o < from || o > at) {
      from = o;
      const void* p = o < s.size() ? std::memchr(s.data() + o, c, s.size() - o) : nullptr;
      at = p == nullptr ? s.size() : static_cast<std::size_t>(static_cast<const char*>(p) - s.data());
    }
    return at;
  }
};

// The first newline in s at or after `from`, or s.size(): inline, 16 bytes at a time where SSE2
// is there (lines are short: a memchr call per line costs more than the search).
std::size_t find_newline(std::string_view s, std::size_t from) {
  const char* const d = s.data();
  const std::size_t n = s.size();
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i nlv = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    const auto m = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i)), nlv)));
    if (m != 0) return i + static_cast<std::size_t>(__builtin_ctz(m));
  }
#endif
  while (i < n && d[i] != '\n') ++i;
  return i;
}

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

// `INFO core/src/lib.rs: ...`, `WARN CometExecRule: ...`: a level, then a word ending in `: `.
bool is_log_level_line(std::string_view s, std::string_view lvl) {
  if (!starts_with(s, lvl)) return false;
  std::size_t colon = s.find(": ", lvl.size());
  std::size_t space = s.find(' ', lvl.size());
  return colon != std::string_view::npos && colon <= space;
}

// log4j / python logging lines and interactive prompts around a pasted plan.
bool is_noise(std::string_view s) {
  if (s.empty()) return false;
  const char c = s[0];
  // Hot path (every input line starting at column 0): one switch on the first byte.
  switch (c) {
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      // 25/11/30 10:00:00 INFO ..., 2025-11-30 10:00:00,123 WARN ...
      std::size_t i = 0;
      while (i < s.size() && is_digit(s[i])) ++i;
      return (i == 2 || i == 4) && i + 15 <= s.size() && (s[i] == '/' || s[i] == '-') && is_digit(s[i + 1]) &&
             is_digit(s[i + 2]) && (s[i + 3] == '/' || s[i + 3] == '-') && is_digit(s[i + 4]) && is_digit(s[i + 5]) &&
             (s[i + 6] == ' ' || s[i + 6] == 'T') && is_digit(s[i + 7]) && is_digit(s[i + 8]) && s[i + 9] == ':';
    }
    case '>': return starts_with(s, ">>> ") || s == ">>>";
    case 's':
      return starts_with(s, "scala> ") || starts_with(s, "spark-sql> ") || starts_with(s, "spark-sql (") ||
             starts_with(s, "sql> ") || s == "scala>";
    // `Input [3]: ...` and `Output [3]: ...` of formatted plans start like these: look at bytes.
    case 'I':
      return s.size() >= 4 && ((s[1] == 'n' && s[2] == ' ' && s[3] == '[') ||
                               (s[1] == 'N' && is_log_level_line(s, "INFO ")));
    case 'O': return s.size() >= 4 && s[1] == 'u' && s[2] == 't' && s[3] == '[';
    case '$': return starts_with(s, "$ ");
    case 'T': return starts_with(s, "Time taken: ");
    case 'W': return is_log_level_line(s, "WARN ");
    case 'E': return is_log_level_line(s, "ERROR ");
    case 'D': return is_log_level_line(s, "DEBUG ");
    case 'r': {  // `res6: String =` (Scala REPL result)
      if (s.size() <= 4 || !starts_with(s, "res") || !is_digit(s[3])) return false;
      std::size_t i = 3;
      while (i < s.size() && is_digit(s[i])) ++i;
      return i < s.size() && s[i] == ':';
    }
    default: return false;
  }
}

// Whether a line starting with c can be noise (a cheap test before the call).
bool maybe_noise(char c) {
  switch (c) {
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
    case '>': case 's': case 'I': case 'O': case '$': case 'T': case 'W': case 'E': case 'D': case 'r':
      return true;
    default: return false;
  }
}

// `         > from t` : a continuation prompt of spark-sql / beeline.
bool is_continuation_prompt(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return i >= 4 && i + 1 < s.size() && s[i] == '>' && s[i + 1] == ' ';
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


// How many bytes s starts with that are a or b (16 bytes at a time where SSE2 is there: tree
// lines start with long runs of blanks).
std::size_t leading_run(std::string_view s, char a, char b) {
  const char* const d = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
  if (n == 0 || (d[0] != a && d[0] != b)) return 0;  // most lines
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
    const auto other = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)))) & 0xFFFFu;
    if (other != 0) return i + static_cast<std::size_t>(__builtin_ctz(other));
  }
#endif
  while (i < n && (d[i] == a || d[i] == b)) ++i;
  return i;
}

std::size_t leading_spaces(std::string_view s) { return s.empty() || s[0] != ' ' ? 0 : leading_run(s, ' ', ' '); }


// ---- rewritten lines ----------------------------------------------------------------------------

// A line being rebuilt byte by byte, each byte with its source position.
struct Mapped {
  std::string text;
  std::vector<MapRun> runs;  // see MapRun
  void put(char c, SrcPos p) {
    if (runs.empty() || p.line != runs.back().pos.line ||
        p.col != runs.back().pos.col + static_cast<std::uint32_t>(text.size() - runs.back().at))
      runs.push_back({static_cast<std::uint32_t>(text.size()), p});
    text += c;
  }
  void put(std::string_view s, SrcPos p) {
    for (char c : s) put(c, p);
  }
};

NormLine make_line(Normalized& out, Mapped&& m, std::uint32_t line) {
  NormLine l;
  l.line = m.runs.empty() ? line : m.runs.front().pos.line;
  out.set_owned_text(l, m.text);
  out.maps.push_back({out.map_runs.size(), static_cast<std::uint32_t>(m.runs.size()), l.len});
  out.map_runs.insert(out.map_runs.end(), m.runs.begin(), m.runs.end());
  out.extra_of(l).map = static_cast<std::int32_t>(out.maps.size() - 1);
  return l;
}

// Drop the first n bytes of l's text, which are original columns (a margin, a prefix).
void strip_front(Normalized& out, NormLine& l, std::size_t n) {
  if (n == 0) return;
  out.set_text(l, out.text(l).substr(n));
  out.extra_of(l).col_base += static_cast<std::uint32_t>(n);
}

// Drop the first n bytes of l's text as normalised columns (a common indent, a tree number).
void strip_shift(Normalized& out, NormLine& l, std::size_t n) {
  if (n == 0) return;
  out.set_text(l, out.text(l).substr(n));
  if (!l.has_extra() && std::uint64_t{l.aux} + n < NormLine::kExtra)
    l.aux += static_cast<std::uint32_t>(n);  // a plain line keeps its shift in aux
  else
    out.extra_of(l).shift += static_cast<std::uint32_t>(n);
}

bool is_rewritten(const Normalized& out, const NormLine& l) {
  return l.has_extra() && out.extras[l.extra_index()].map >= 0;
}

// Copy normalised bytes [b, e) of line idx with their source positions.
void copy_range(const Normalized& out, std::size_t idx, std::size_t b, std::size_t e, Mapped& m) {
  std::string_view t = out.text(idx);
  for (std::size_t x = b; x < e && x < t.size(); ++x) m.put(t[x], out.pos(idx, x));
}

bool is_tree_marker(std::string_view s, std::size_t at) {
  return at + 2 < s.size() && (s[at] == '+' || s[at] == ':') && s[at + 1] == '-' && s[at + 2] == ' ';
}

// Skip a tree prefix: blanks and `:` guides (a `:` followed by a blank or the end of the line).
// Returns the offset of what follows. Deep trees have long prefixes: 16 bytes at a time where
// SSE2 is there.
std::size_t skip_guides(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  const char* const d = s.data();
  if (n == 0 || (d[0] != ' ' && d[0] != ':')) return 0;  // most lines
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), co = _mm_set1_epi8(':');
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
    const auto spaces = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, sp)));
    const auto colons = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, co)));
    // Stop at a byte that is neither, or at a `:` whose next byte (in this block) is not a blank.
    const unsigned stop = (~(spaces | colons) & 0xFFFFu) | (colons & ~(spaces >> 1) & 0x7FFFu);
    if (stop != 0) return i + static_cast<std::size_t>(__builtin_ctz(stop));
    if ((colons & 0x8000u) != 0 && i + 16 < n && d[i + 16] != ' ') return i + 15;
  }
#endif
  while (i < n) {
    if (d[i] == ' ') {
      ++i;
    } else if (d[i] == ':' && (i + 1 == n || d[i + 1] == ' ')) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

bool is_title_line(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && is_blank(t[i])) ++i;
  if (i + 7 > t.size() || t[i] != '=' || t[i + 1] != '=') return false;  // most lines: one compare
  return t[t.size() - 1] == '=' && t[t.size() - 2] == '=';
}

// ---- Databricks notebook sources: `# MAGIC `, `-- MAGIC `, `// MAGIC ` ----------------------------
void strip_notebook_prefixes(Normalized& out, bool& any) {
  static constexpr std::string_view kMagic[] = {"# MAGIC", "-- MAGIC", "// MAGIC"};
  static constexpr std::string_view kCommand[] = {"# COMMAND ---", "-- COMMAND ---", "// COMMAND ---",
                                                  "# Databricks notebook source", "-- Databricks notebook source",
                                                  "// Databricks notebook source"};
  for (auto& l : out.lines) {
    std::string_view t = out.text(l);
    if (t.empty() || (t[0] != '#' && t[0] != '-' && t[0] != '/')) continue;
    bool cmd = false;
    for (auto c : kCommand) cmd = cmd || starts_with(t, c);
    if (cmd) {
      out.set_text(l, {});
      any = true;
      continue;
    }
    for (auto m : kMagic) {
      if (!starts_with(t, m) || (t.size() > m.size() && t[m.size()] != ' ')) continue;
      strip_front(out, l, m.size() + (t.size() > m.size() ? 1 : 0));
      any = true;
      std::string_view r = out.text(l);
      // `%md`, `%sql`, `%md-sandbox`: the cell's magic command, not text.
      if (!r.empty() && r[0] == '%') {
        std::size_t sp = r.find(' ');
        strip_front(out, l, sp == std::string_view::npos ? r.size() : sp + 1);
      }
      std::string_view body = rtrim(ltrim(out.text(l)));
      if (is_fence(body) || body == "<pre>" || body == "</pre>" || body == "/*" || body == "*/" ||
          is_noise(body))
        out.set_text(l, {});
      break;
    }
  }
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
void unwrap_notebook_json(Normalized& out, bool& any) {
  // The lines are still views into the input, so a key the input does not hold, no line starts
  // with (one search of the input's quotes instead of a look at every line).
  bool key = false;
  for (std::size_t q = out.input.find('"'); q != std::string_view::npos && !key; q = out.input.find('"', q + 1)) {
    const std::string_view r = out.input.substr(q);
    key = starts_with(r, "\"output_type\"") || starts_with(r, "\"cell_type\"");
  }
  if (!key) return;
  std::size_t items = 0;
  bool keys = false;
  for (const auto& l : out.lines) {
    std::string_view t = ltrim(out.text(l));
    if (t.empty() || t[0] != '"') continue;  // both tests below need a leading quote
    t = rtrim(t);
    if (starts_with(t, "\"output_type\"") || starts_with(t, "\"cell_type\"")) keys = true;
    if (t.size() > 4 && t[0] == '"' && (t.substr(t.size() - 4) == "\\n\"," || t.substr(t.size() - 3) == "\\n\""))
      ++items;
  }
  if (!keys || items < 2) return;
  any = true;
  std::vector<NormLine> next;
  next.reserve(out.lines.size());
  enum { Other, Text, Source } mode = Other;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const NormLine& l = out.lines[i];
    const std::string_view text = out.text(l);
    std::string_view t = ltrim(text);
    std::size_t lead = static_cast<std::size_t>(t.data() - text.data());
    t = rtrim(t);
    NormLine blank = l;  // takes over l's extra entry, if any: l itself is not kept
    out.set_text(blank, {});
    if (t.empty()) {
      next.push_back(blank);
      continue;
    }
    if (t[0] == '"') {
      std::size_t close = json_string_end(text, lead);
      std::string_view after = close == std::string_view::npos ? std::string_view{} : ltrim(text.substr(close + 1));
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
}

// A plan on one line with literal `\n` (a JSON value, a log line, a `show()` cell).
void split_literal_newlines(Normalized& out, bool& any) {
  std::vector<NormLine> next;
  bool changed = false;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view t = out.text(i);
    std::size_t hits = 0;
    for (std::size_t p = t.find("\\n"); p != std::string_view::npos && hits < 3; p = t.find("\\n", p + 2)) {
      std::string_view after = t.substr(p + 2);
      std::size_t g = skip_guides(after);
      if (is_tree_marker(after, g) || starts_with(after, "*(") || starts_with(after, "== ") ||
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
}

// ---- markdown / HTML escaping -------------------------------------------------------------------
constexpr std::pair<std::string_view, char> kEntities[] = {
    {"&gt;", '>'}, {"&lt;", '<'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''},
    {"&nbsp;", ' '}, {"&#42;", '*'}, {"&#95;", '_'}};

// The entity above that starts at s[p], or nullptr.
const std::pair<std::string_view, char>* entity_at(std::string_view s, std::size_t p) {
  for (const auto& e : kEntities)
    if (s.substr(p, e.first.size()) == e.first) return &e;
  return nullptr;
}

// Whether `s` holds one of the entities above. A bare `&` (Catalyst's bitwise AND,
// `(spark_grouping_id#24 & 1)`) is not one: such a text needs no unescaping.
bool has_entity(std::string_view s) {
  for (std::size_t p = s.find('&'); p != std::string_view::npos; p = s.find('&', p + 1))
    if (entity_at(s, p) != nullptr) return true;
  return false;
}

void unescape_markup(Normalized& out, bool& any) {
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view t = out.text(i);
    bool amp = has_entity(t);
    bool bs = t.find('\\') != std::string_view::npos;
    std::size_t stars = 0;  // only `stars >= 2` matters below
    for (std::size_t p = t.find("**"); p != std::string_view::npos && stars < 2; p = t.find("**", p + 2)) ++stars;
    if (!amp && !bs && stars < 2) continue;
    Mapped m;
    bool hit = false;
    for (std::size_t x = 0; x < t.size(); ++x) {
      SrcPos p = out.pos(i, x);
      if (t[x] == '\\' && x + 1 < t.size() && std::string_view("_*[]#<>|`-").find(t[x + 1]) != std::string_view::npos) {
        ++x;
        m.put(t[x], out.pos(i, x));  // the escaped character's own column
        hit = true;
        continue;
      }
      if (const auto* e = t[x] == '&' ? entity_at(t, x) : nullptr) {
        m.put(e->second, p);
        x += e->first.size() - 1;
        hit = true;
        continue;
      }
      if (stars >= 2 && t[x] == '*' && x + 1 < t.size() && t[x + 1] == '*') {  // **bold**
        ++x;
        hit = true;
        continue;
      }
      m.put(t[x], p);
    }
    if (!hit) continue;
    any = true;
    out.lines[i] = make_line(out, std::move(m), out.lines[i].line);
  }
}

// ---- newlines lost: `== Physical Plan == *(2) HashAggregate(...) +- Exchange ... +- ...` --------
// Split before a `== Title ==`, after it, and before every `+- ` / `:- ` with its `:` guides.
void split_collapsed_lines(Normalized& out, bool& any) {
  // `next` is built only from the first line that is split (most inputs have none).
  std::vector<NormLine> next;
  bool changed = false;
  std::vector<std::size_t> cuts;
  NextByte dash{out.input, '-'}, eq{out.input, '='};
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (!changed) {
      // Until a line is split, skip the plain views that lie between the last '-' / '=' seen and
      // the next one (most lines), with no look at their text.
      const std::size_t lo = std::max(dash.from, eq.from), hi = std::min(dash.at, eq.at);
      for (; i < out.lines.size(); ++i) {
        const NormLine& l = out.lines[i];
        if (l.len != 0 && (l.has_extra() || l.off < lo || std::size_t{l.off} + l.len > hi)) break;
      }
      if (i == out.lines.size()) break;
    }
    std::string_view t = out.text(i);
    // A marker needs a '-', a header a '=': most lines have neither, and a line that is a view
    // into the input is checked against the next of each in the input.
    const NormLine& l = out.lines[i];
    if (l.len == 0) {
      if (changed) next.push_back(l);
      continue;
    }
    // A marker needs a '-', a header a '=': most lines have neither. A line that is a view into
    // the input finds them through the next of each in the input (one memchr per line that has
    // one, instead of a few per line).
    const bool view = !l.has_extra() || out.extras[l.extra_index()].base == out.input.data();
    auto find_dash = [&](std::size_t d) -> std::size_t {  // the first '-' in t[d, size - 2) or npos
      if (view) {
        const std::size_t at = dash.find(l.off + d) - l.off;
        return at + 2 < t.size() ? at : std::string_view::npos;
      }
      const void* hit = std::memchr(t.data() + d, '-', t.size() - 2 - d);
      return hit == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char*>(hit) - t.data());
    };
    std::size_t first_eq = 0;  // no '=' in t before it
    if (view) {
      first_eq = eq.find(l.off) - l.off;
      if (first_eq >= t.size() && find_dash(std::min<std::size_t>(2, t.size())) == std::string_view::npos) {
        if (changed) next.push_back(l);
        continue;
      }
    }
    cuts.clear();
    std::size_t markers = 0;
    std::size_t lead = std::string_view::npos;  // skip_guides(t), once a marker needs it
    // Markers ` +- ` / ` :- ` at p (p >= 1, p + 3 < size): found through their '-' at p + 1.
    for (std::size_t d = 2; d + 2 < t.size(); ++d) {
      d = find_dash(d);
      if (d == std::string_view::npos) break;
      const std::size_t p = d - 1;
      if (t[p - 1] != ' ' || !is_tree_marker(t, p)) continue;
      // The marker of an ordinary tree line: everything before it is skipped as guides, so the
      // walk back below would reach the start of the line (each `:` skipped by skip_guides has a
      // blank after it, so no `::` and a blank before it).
      if (lead == std::string_view::npos) lead = skip_guides(t);
      if (p == lead) continue;
      std::size_t q = p;
      while (true) {
        while (q > 0 && t[q - 1] == ' ') --q;
        if (q > 0 && t[q - 1] == ':' && (q == 1 || t[q - 2] == ' ')) {
          --q;
          continue;
        }
        break;
      }
      if (q == 0) continue;  // an ordinary tree line
      // The text before must end an operator (not `a +- b` inside an expression).
      ++markers;
      while (q < p && t[q] == ' ') ++q;
      cuts.push_back(q);
    }
    std::size_t h = first_eq < t.size() ? t.find("== ", first_eq) : std::string_view::npos;
    bool header_inside = false;
    if (h != std::string_view::npos) {
      std::size_t he = t.find(" ==", h + 3);
      if (he != std::string_view::npos && he + 3 < t.size() && t.substr(h + 3, he - h - 3).find("Plan") != std::string_view::npos) {
        header_inside = true;
        if (h > 0) cuts.push_back(h);
        std::size_t r = he + 3;
        while (r < t.size() && t[r] == ' ') ++r;
        cuts.push_back(r);
      }
    }
    if (markers < 2 && !(header_inside && markers >= 1) && !(header_inside && !cuts.empty() && cuts.back() < t.size() && markers == 0 && h == 0)) {
      if (changed) next.push_back(out.lines[i]);
      continue;
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    if (!changed) next.assign(out.lines.begin(), out.lines.begin() + static_cast<std::ptrdiff_t>(i));
    changed = true;
    std::size_t b = 0;
    cuts.push_back(t.size());
    for (std::size_t c : cuts) {
      std::size_t e = c;
      std::size_t ee = e;
      while (ee > b && t[ee - 1] == ' ') --ee;
      // A `.show()` table around the collapsed plan: `... | +------+`.
      std::string_view piece = t.substr(b, ee - b);
      std::size_t bar = piece.rfind(" |");
      if (bar != std::string_view::npos) {
        std::string_view tail = ltrim(piece.substr(bar + 2));
        if (tail.empty() || std::all_of(tail.begin(), tail.end(), [](char x) { return x == '+' || x == '-'; }))
          ee = b + bar;
      }
      if (ee > b) {
        Mapped m;
        copy_range(out, i, b, ee, m);
        next.push_back(make_line(out, std::move(m), out.lines[i].line));
        out.extra_of(next.back()).collapsed = true;
      }
      b = e;
    }
  }
  if (changed) {
    any = true;
    out.lines = std::move(next);
  }
}

// ---- numberedTreeString: `00 Project`, `01 +- Filter` ---------------------------------------------
void strip_tree_numbers(Normalized& out, bool& any) {
  long expect = -1;
  auto number = [](std::string_view t, std::size_t& len) -> long {
    std::size_t i = 0;
    while (i < t.size() && is_digit(t[i])) ++i;
    // Tree numbers have a handful of digits; longer runs are not a numbered tree (and would not
    // fit a long).
    if (i < 2 || i > 9 || i >= t.size() || t[i] != ' ') return -1;
    len = i + 1;
    long n = 0;
    for (std::size_t k = 0; k < i; ++k) n = n * 10 + (t[k] - '0');
    return n;
  };
  // Nothing happens before the first `0...0 ` line followed by a `0...1 ` line: find it first,
  // by the first byte of each line.
  std::size_t first = 0;
  for (; first + 1 < out.lines.size(); ++first) {
    std::string_view t = out.text(first);
    std::size_t len = 0;
    if (!t.empty() && t[0] == '0' && number(t, len) == 0 && number(out.text(first + 1), len) == 1) break;
  }
  for (std::size_t i = first; i < out.lines.size(); ++i) {
    std::size_t len = 0;
    long n = number(out.text(i), len);
    bool start = n == 0 && i + 1 < out.lines.size();
    if (start) {
      std::size_t len2 = 0;
      start = number(out.text(i + 1), len2) == 1;
    }
    if (!(start || (expect >= 0 && n == expect))) {
      expect = -1;
      continue;
    }
    expect = n + 1;
    NormLine& l = out.lines[i];
    if (is_rewritten(out, l)) {
      strip_shift(out, l, len);
    } else {
      strip_front(out, l, len);
    }
    any = true;
  }
}

// ---- double-spaced text (a PDF or a blog that put a blank line after every line) -------------------
void undouble_spacing(Normalized& out, bool& any) {
  std::size_t nonempty = 0;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (out.text(i).empty()) continue;
    ++nonempty;
    if (i + 1 < out.lines.size() && !out.text(i + 1).empty()) return;
  }
  if (nonempty < 4) return;
  std::vector<NormLine> next;
  for (std::size_t i = 0; i < out.lines.size(); ++i)
    if (!out.text(i).empty()) next.push_back(out.lines[i]);
  if (next.size() < 4) return;
  out.lines = std::move(next);
  any = true;
}

// ---- tree shape of each line, shared by the two passes of step 7 -------------------------------
// Both passes ask the same questions of every line (its `:` guides, its marker, whether it or the
// text after its marker is a `== Title ==`); they are answered once per line, in one scan of the
// line's tree prefix, instead of once per pass.
struct Shape {
  static constexpr std::uint32_t kEmpty = 1, kTitle = 2, kMarker = 4, kBodyTitle = 8;
  std::uint32_t g = 0;      // skip_guides(t)
  std::uint32_t flags = 0;  // kTitle: is_title_line(t); kBodyTitle: a marker and is_title_line(t.substr(g + 3))
};

Shape shape_of(std::string_view t) {
  Shape sh;
  if (t.empty()) {
    sh.flags = Shape::kEmpty;
    return sh;
  }
  const std::size_t g = skip_guides(t);
  sh.g = static_cast<std::uint32_t>(g);
  // is_title_line(t) needs a `=` at its first byte after blanks: that is t[g] unless a tab stopped
  // the guides (a `:` skipped before it makes is_title_line false anyway).
  if (g < t.size() && (t[g] == '=' || t[g] == '\t') && is_title_line(t)) sh.flags |= Shape::kTitle;
  if (is_tree_marker(t, g)) {
    sh.flags |= Shape::kMarker;
    if (is_title_line(t.substr(g + 3))) sh.flags |= Shape::kBodyTitle;
  }
  return sh;
}

void shape_lines(const Normalized& out, std::vector<Shape>& shapes) {
  shapes.resize(out.lines.size());
  for (std::size_t i = 0; i < out.lines.size(); ++i) shapes[i] = shape_of(out.text(i));
}

// ---- flattened indentation: every `+-` at one column -------------------------------------------
// Parents come from the guides: `:-` opens a branch that the next line with fewer `:` guides
// closes; any other line is a child of the line before it.
void rebuild_flattened_trees(Normalized& out, const std::vector<Shape>& shapes, bool& any) {
  std::size_t i = 0;
  const std::size_t n = out.lines.size();
  while (i < n) {
    // A tree block: a root line, then marker lines.
    if ((shapes[i].flags & (Shape::kEmpty | Shape::kTitle)) != 0 || i + 1 >= n) {
      ++i;
      continue;
    }
    std::size_t e = i + 1;
    while (e < n && (shapes[e].flags & (Shape::kEmpty | Shape::kMarker | Shape::kBodyTitle)) == Shape::kMarker) ++e;
    if (e == i + 1) {
      ++i;
      continue;
    }
    bool flattened = false;
    for (std::size_t k = i; k < e && !flattened; ++k) {
      const NormLine& l = out.lines[k];
      flattened = l.has_extra() && out.extras[l.extra_index()].collapsed;
    }
    for (std::size_t k = i + 1; k + 1 < e && !flattened; ++k) {
      std::size_t ga = shapes[k].g, gb = shapes[k + 1].g;
      if (out.text(k)[ga] == '+' && ga == gb) flattened = true;
    }
    if (!flattened) {
      i = e;
      continue;
    }
    any = true;
    std::vector<std::size_t> depth(e - i, 0), parent(e - i, 0);
    std::vector<std::size_t> branch;  // owners of the open `:-` branches
    for (std::size_t k = 1; k < e - i; ++k) {
      std::string_view s = out.text(i + k);
      std::size_t g = skip_guides(s);
      std::size_t colons = static_cast<std::size_t>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(g), ':'));
      std::size_t par = k - 1;
      if (colons < branch.size()) {
        par = branch[colons];
        branch.resize(colons);
      }
      parent[k] = par;
      depth[k] = depth[par] + 1;
      if (s[g] == ':') branch.push_back(par);
    }
    for (std::size_t k = 1; k < e - i; ++k) {
      std::size_t idx = i + k;
      std::string_view s = out.text(idx);
      std::size_t g = skip_guides(s);
      Mapped m;
      SrcPos at = out.pos(idx, g);
      for (std::size_t d = 1; d < depth[k]; ++d) m.put("   ", at);
      copy_range(out, idx, g, s.size(), m);
      out.lines[idx] = make_line(out, std::move(m), out.lines[idx].line);
    }
    i = e;
  }
}

// ---- hand-wrapped long lines: a continuation is not a child operator ---------------------------
// After the title line t of a section: how many non-empty lines until the section's root (-1: not
// a plan section).
int title_root_wait(std::string_view t) {
  std::string_view title = rtrim(ltrim(t));
  bool plan = title.find("Plan ==") != std::string_view::npos || title.find("Subtree ") != std::string_view::npos;
  return plan ? (title.find("Analyzed") != std::string_view::npos ? 1 : 0) : -1;
}

void join_continuations(Normalized& out, const std::vector<Shape>& shapes, bool& any) {
  // `next` is built only from the first continuation (most inputs have none); until then the kept
  // lines are out.lines[0, i).
  std::vector<NormLine> next;
  bool changed = false;
  std::size_t last = 0;  // index in out.lines of the last kept line (never a joined one)
  int root_wait = -1;  // non-empty lines still to see before the section's root (0: the next one)
  bool tree = false;   // the previous kept line is an operator line (so a line was kept)
  std::optional<Mapped> open;  // the line next.back() with the continuations seen so far
  auto flush = [&] {
    if (!open) return;
    std::uint32_t line = next.back().line;
    next.back() = make_line(out, std::move(*open), line);
    next.back().line = line;
    open.reset();
  };
  auto keep = [&](std::size_t i) {
    flush();
    if (changed) next.push_back(out.lines[i]);
    last = i;
  };
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const Shape sh = shapes[i];
    if ((sh.flags & Shape::kEmpty) != 0) {
      tree = false;
      keep(i);
      continue;
    }
    std::string_view t = out.text(i);
    if ((sh.flags & Shape::kTitle) != 0) {
      root_wait = title_root_wait(t);
      tree = false;
      keep(i);
      continue;
    }
    std::size_t g = sh.g;
    bool marker = (sh.flags & Shape::kMarker) != 0;
    bool detail = g + 1 < t.size() && t[g] == '(' && is_digit(t[g + 1]);  // formatted `(3) Filter`
    if (tree && !marker && !detail) {
      if (!changed) {
        next.reserve(out.lines.size());
        next.assign(out.lines.begin(), out.lines.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      }
      // The whole run of continuation lines is joined once (rebuilding the line per continuation
      // was quadratic in a long run).
      if (!open) {
        std::string_view pt = out.text(last);
        open.emplace();
        for (std::size_t x = 0; x < pt.size(); ++x) open->put(pt[x], out.pos(last, x));
      }
      std::string_view body = t.substr(g);
      char last_char = open->text.empty() ? ' ' : open->text.back();
      bool glue = last_char == '/' || last_char == '(' || last_char == '[' ||
                  (last_char == ')' && !body.empty() && body[0] == '[');
      if (!glue) open->put(' ', out.pos(i, g));
      copy_range(out, i, g, t.size(), *open);
      continue;
    }
    bool is_root = root_wait == 0;
    if (root_wait >= 0) --root_wait;
    // The text after a marker, or the line itself (not a title: see above).
    tree = (marker || is_root) && (sh.flags & Shape::kBodyTitle) == 0;
    keep(i);
  }
  flush();
  if (changed) {
    any = true;
    out.lines = std::move(next);
  }
}

// Whether rebuild_flattened_trees or join_continuations would change anything, in one pass that
// keeps no shapes (most inputs need neither). For lines that no split marked `collapsed`:
// - a tree is flattened when a `+-` line is followed by a marker line at the same column, both
//   inside a block. A marker line (its text after the marker no title) is inside a block exactly
//   when the line before it is neither empty nor a title: that line is either inside the block or
//   is its root.
// - a continuation is a line that join_continuations would join (the same walk, without joining).
bool tree_shape_work(const Normalized& out) {
  constexpr std::uint32_t kMemberMask = Shape::kEmpty | Shape::kMarker | Shape::kBodyTitle;
  // Of line j - 2: neither empty nor a title. Of line j - 1: the same; a marker line whose text
  // after the marker is no title; that, with a `+-` marker; its skip_guides.
  bool open2 = false, open1 = false, member1 = false, plus1 = false;
  std::uint32_t g1 = 0;
  int root_wait = -1;
  bool tree = false;
  for (std::size_t j = 0; j < out.lines.size(); ++j) {
    const std::string_view t = out.text(j);
    if (t.empty()) {
      tree = false;
      open2 = open1;
      open1 = member1 = plus1 = false;
      continue;
    }
    const char c = t[0];
    if (c != ' ' && c != ':' && c != '+' && c != '=' && c != '\t') {
      // Most lines (formatted details, operator lines at column 0): no guides, no marker, no title.
      const bool detail = c == '(' && t.size() > 1 && is_digit(t[1]);
      if (tree && !detail) return true;
      tree = root_wait == 0;
      if (root_wait >= 0) --root_wait;
      open2 = open1;
      open1 = true;
      member1 = plus1 = false;
      continue;
    }
    const Shape sh = shape_of(t);
    const bool member = (sh.flags & kMemberMask) == Shape::kMarker;
    // rebuild_flattened_trees: lines j - 1 and j are a flattened pair.
    if (member && member1 && plus1 && open2 && g1 == sh.g) return true;
    // join_continuations
    if ((sh.flags & Shape::kEmpty) != 0) {
      tree = false;
    } else if ((sh.flags & Shape::kTitle) != 0) {
      root_wait = title_root_wait(t);
      tree = false;
    } else {
      const std::size_t g = sh.g;
      const bool marker = (sh.flags & Shape::kMarker) != 0;
      const bool detail = g + 1 < t.size() && t[g] == '(' && is_digit(t[g + 1]);
      if (tree && !marker && !detail) return true;
      const bool is_root = root_wait == 0;
      if (root_wait >= 0) --root_wait;
      tree = (marker || is_root) && (sh.flags & Shape::kBodyTitle) == 0;
    }
    open2 = open1;
    open1 = (sh.flags & (Shape::kEmpty | Shape::kTitle)) == 0;
    member1 = member;
    plus1 = member && t[sh.g] == '+';
    g1 = sh.g;
  }
  return false;
}

}  // namespace

const char* TextArena::add(std::string_view s) {
  if (size_ - used_ < s.size() + 1) {
    // Blocks grow from 4 KiB to 1 MiB: a few rewritten lines cost little, many cost few blocks.
    size_ = std::max(std::clamp<std::size_t>(2 * size_, 4096, 1 << 20), s.size() + 1);
    blocks_.emplace_back(new char[size_]);
    used_ = 0;
  }
  char* p = blocks_.back().get() + used_;
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  used_ += s.size() + 1;
  return p;
}

LineExtra Normalized::extra(const NormLine& l) const {
  if (l.has_extra()) return extras[l.extra_index()];
  LineExtra e;
  e.base = input.data();
  e.shift = l.aux;
  return e;
}

LineExtra& Normalized::extra_of(NormLine& l) {
  if (l.has_extra()) return extras[l.extra_index()];
  extras.push_back(extra(l));
  l.aux = NormLine::kExtra | static_cast<std::uint32_t>(extras.size() - 1);
  return extras.back();
}

void Normalized::set_text(NormLine& l, std::string_view t) {
  if (t.empty()) {  // keeps its place (the address of an empty line stays inside its buffer)
    l.len = 0;
    return;
  }
  const char* base = l.has_extra() ? extras[l.extra_index()].base : input.data();
  auto off = static_cast<std::size_t>(t.data() - base);
  if (off > UINT32_MAX) {  // a line more than 4 GiB into the input: its own base
    extra_of(l).base = t.data();
    off = 0;
  }
  l.off = static_cast<std::uint32_t>(off);
  l.len = static_cast<std::uint32_t>(std::min<std::size_t>(t.size(), UINT32_MAX));  // (cut at 4 GiB)
}

void Normalized::set_owned_text(NormLine& l, std::string_view t) {
  extra_of(l).base = owned.add(t);
  l.off = 0;
  l.len = static_cast<std::uint32_t>(std::min<std::size_t>(t.size(), UINT32_MAX));
}

SrcPos Normalized::map_pos(const ByteMap& m, std::size_t x) const {
  const auto b = map_runs.begin() + static_cast<std::ptrdiff_t>(m.first);
  auto r = std::upper_bound(b, b + m.count, x, [](std::size_t v, const MapRun& run) { return v < run.at; });
  --r;  // the run holding x (the first run is at 0)
  return {r->pos.line, r->pos.col + static_cast<std::uint32_t>(x - r->at)};
}

SrcPos Normalized::pos(std::size_t idx, std::size_t col) const {
  if (idx >= lines.size()) return {};
  const NormLine& l = lines[idx];
  if (!l.has_extra()) return {l.line, static_cast<std::uint32_t>(1 + col + l.aux)};  // col_base 1, aux the shift
  const LineExtra& e = extras[l.extra_index()];
  std::size_t x = col + e.shift;
  if (e.map >= 0) {
    const ByteMap& m = maps[static_cast<std::size_t>(e.map)];
    if (m.size == 0) return {l.line, e.col_base};
    if (x < m.size) return map_pos(m, x);
    SrcPos p = map_pos(m, m.size - 1);
    p.col += static_cast<std::uint32_t>(x - m.size + 1);
    return p;
  }
  if (x < e.tab_norm_end)
    return {l.line, e.col_base + static_cast<std::uint32_t>(x * e.tab_orig_end / e.tab_norm_end)};
  return {l.line, e.col_base + static_cast<std::uint32_t>(x - e.tab_norm_end + e.tab_orig_end)};
}

SourceRange Normalized::range(std::size_t first_idx, std::size_t begin, std::size_t last_idx, std::size_t end) const {
  SourceRange r;
  if (first_idx >= lines.size() || last_idx >= lines.size()) return r;
  const NormLine& fl = lines[first_idx];
  const NormLine& ll = lines[last_idx];
  SrcPos b, e;
  if (!fl.has_extra() && !ll.has_extra()) {  // most ranges: both lines are shifted views of the input
    b = {fl.line, static_cast<std::uint32_t>(1 + begin + fl.aux)};
    e = {ll.line, static_cast<std::uint32_t>(1 + end + ll.aux)};
  } else {
    b = pos(first_idx, begin);
    // The end is exclusive: take the position of the last byte and step past it, so that a range
    // ending on a rewritten byte (an unescaped `&gt;`, a joined line) ends where that byte ends.
    e = end > 0 ? pos(last_idx, end - 1) : pos(last_idx, 0);
    if (end > 0) ++e.col;
    if (!ll.has_extra() || extras[ll.extra_index()].map < 0) e = pos(last_idx, end);
  }
  r.line = b.line;
  r.column = b.col;
  r.end_line = e.line;
  r.end_column = e.col;
  if (r.end_line < r.line || (r.end_line == r.line && r.end_column < r.column)) {
    r.end_line = r.line;
    r.end_column = r.column;
  }
  return r;
}

Normalized normalize(std::string_view input) {
  Normalized out;
  if (starts_with(input, "\xEF\xBB\xBF")) input.remove_prefix(3);
  out.input = input;
  auto& lines = out.lines;

  // 1. Split, strip CR and trailing blanks, drop fences / borders / noise. Lines are views into
  //    `input`; only the few rewritten lines (tabs) are stored in `out.owned`.
  // One entry per input line at most: count them (memchr speed) so the table is allocated once
  // and no larger than needed.
  const std::size_t newlines = count_newlines(input);
  lines.reserve(newlines + 1);
  std::size_t pos = 0;
  std::uint32_t lineno = 0;
  bool any_table = false, any_noise = false, any_fence = false, any_crlf = false, any_tab = false;
  std::size_t nonempty = 0, margin = 0;
  std::vector<std::size_t> borders;
  bool in_error = false;
  bool magic_start = false;  // a kept line starts like a notebook `MAGIC` / `COMMAND` prefix
  // One search of the whole input instead of one per line (most inputs have no tab).
  const bool input_tab = input.find('\t') != std::string_view::npos;
  while (pos <= input.size()) {
    const std::size_t nl = find_newline(input, pos);
    std::string_view raw = input.substr(pos, nl - pos);
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') any_crlf = true;
    std::string_view t = rtrim(raw);
    const std::string_view none = raw.substr(0, 0);  // an emptied line (stays at its place)
    // A trailing `Error in query: ...` block (spark-sql) up to the next prompt or header.
    const char c0 = t.empty() ? '\0' : t[0];
    if ((c0 == 'E' && starts_with(t, "Error in query")) ||
        (c0 == 'o' && starts_with(t, "org.apache.spark.sql.AnalysisException")))
      in_error = true;
    else if (in_error && (starts_with(t, "== ") || is_noise(t))) in_error = false;
    if (in_error) {
      any_noise = true;
      t = none;
    }
    const std::size_t f = t.empty() || !is_blank(t[0]) ? 0 : leading_run(t, ' ', '\t');
    if (f < t.size()) {
      char c = t[f];
      if ((c == '`' || c == '~') && is_fence(t)) {
        t = none;
        any_fence = true;
      } else if (c == '+' && is_table_border(t)) {
        t = none;
        borders.push_back(lines.size());
        any_table = true;
      } else if (f == 0 && maybe_noise(c) && is_noise(t)) {
        t = none;
        any_noise = true;
      } else if (c == '>' && is_continuation_prompt(t)) {
        t = none;
        any_noise = true;
      } else {
        ++nonempty;
        if (f == 0 && (c == '#' || c == '-' || c == '/')) magic_start = true;
        if (c == '|' || ((c == '"' || c == 's') && (starts_with(t.substr(f), "\"\"\"|") || starts_with(t.substr(f), "s\"\"\"|"))))
          ++margin;
        if (input_tab && !any_tab && t.find('\t') != std::string_view::npos) any_tab = true;
      }
    }
    NormLine& l = lines.emplace_back();
    l.line = lineno;
    if (!t.empty()) {  // out.set_text(l, t) for a new line (its base is the input)
      const auto off = static_cast<std::size_t>(t.data() - input.data());
      if (off <= UINT32_MAX && t.size() <= UINT32_MAX) {
        l.off = static_cast<std::uint32_t>(off);
        l.len = static_cast<std::uint32_t>(t.size());
      } else {
        out.set_text(l, t);
      }
    }
    if (nl == input.size()) break;
    pos = nl + 1;
  }
  // A trailing newline gives one empty last line: drop it.
  if (!lines.empty() && lines.back().len == 0 && !input.empty() && input.back() == '\n') lines.pop_back();
  if (any_crlf) out.repairs.emplace_back("converted CRLF line ends");
  if (any_fence) out.repairs.emplace_back("removed markdown fences");
  if (any_noise) out.repairs.emplace_back("removed log or prompt lines");
  {
    bool magic = false;
    if (magic_start) strip_notebook_prefixes(out, magic);
    if (magic) out.repairs.emplace_back("removed Databricks notebook 'MAGIC' prefixes");
  }

  // 2. ASCII table of Dataset.show(truncate=False): `|plan|` header row, `|` on the first content
  //    line, `   |` padding on the last.
  if (any_table) {
    out.repairs.emplace_back("removed the ASCII table of .show()");
    std::size_t b = 0;
    for (std::size_t i = borders.front() + 1; i < lines.size(); ++i) {
      while (b < borders.size() && borders[b] < i) ++b;
      NormLine& l = lines[i];
      std::string_view t = ltrim(out.text(l));
      if (b == 1 && !t.empty() && t.front() == '|' && t.size() >= 2 && t.back() == '|' &&
          t.find("==") == std::string_view::npos && (i == 0 || out.text(i - 1).empty())) {
        out.set_text(l, {});  // column header row
        continue;
      }
      if (!t.empty() && t.front() == '|') strip_front(out, l, static_cast<std::size_t>(t.data() - out.text(l).data()) + 1);
      std::string_view rest = out.text(l);
      if (!rest.empty() && rest.back() == '|') out.set_text(l, rtrim(rest.substr(0, rest.size() - 1)));
    }
  }

  // 3. Scala stripMargin: most non-empty lines start with optional blanks and `|`.
  if (margin >= 2 && margin * 10 >= nonempty * 8) {
    out.repairs.emplace_back("removed '|' stripMargin margins");
    for (auto& l : lines) {
      std::string_view t = ltrim(out.text(l));
      std::size_t bar = t.find('|');
      if (t.empty() || bar > 4 || (bar > 0 && !starts_with(t, "\"\"\"") && !starts_with(t, "s\"\"\""))) continue;
      strip_front(out, l, static_cast<std::size_t>(t.data() - out.text(l).data()) + bar + 1);
      std::string_view rest = out.text(l);
      for (std::string_view tail : {std::string_view("\"\"\".stripMargin"), std::string_view("\"\"\"")})
        if (rest.size() >= tail.size() && rest.substr(rest.size() - tail.size()) == tail) {
          out.set_text(l, rtrim(rest.substr(0, rest.size() - tail.size())));
          break;
        }
    }
  }

  bool collapsed = false;  // split_collapsed_lines split a line (step 7 rebuilds its tree)
  // 3b. Text that is not a plain plan: notebook JSON, literal `\n`, markup, lost newlines,
  //     numbered tree strings, double spacing. Rewritten lines carry a byte map to the source.
  {
    bool json = false, lit = false, markup = false, numbers = false, twice = false;
    unwrap_notebook_json(out, json);
    // Until here every line is a view into `input` unless the notebook JSON was decoded: what the
    // input does not contain, no line does, and the line passes that look for it are skipped (a
    // whole-input memchr instead of a few searches per line).
    const bool backslash = json || input.find('\\') != std::string_view::npos;
    if (backslash) split_literal_newlines(out, lit);
    if (backslash || lit || has_entity(input) || input.find("**") != std::string_view::npos)
      unescape_markup(out, markup);
    split_collapsed_lines(out, collapsed);
    strip_tree_numbers(out, numbers);
    undouble_spacing(out, twice);
    if (json) out.repairs.emplace_back("read the plan out of notebook (.ipynb) JSON strings");
    if (lit) out.repairs.emplace_back("split a line at literal '\\n'");
    if (markup) out.repairs.emplace_back("removed markdown / HTML escaping");
    if (collapsed) out.repairs.emplace_back("rebuilt lines from a plan whose newlines were lost");
    if (numbers) out.repairs.emplace_back("removed numberedTreeString numbers");
    if (twice) out.repairs.emplace_back("removed the blank line after every line");
  }

  // 4. Tabs: leading tabs to 8-column stops, other tabs to one space (keeps columns 1:1).
  if (any_tab) {
    out.repairs.emplace_back("expanded tabs");
    std::string s;  // one buffer for every line
    for (auto& l : lines) {
      const std::string_view t = out.text(l);
      if (is_rewritten(out, l) || t.find('\t') == std::string_view::npos) continue;
      s.clear();
      std::size_t i = 0;
      for (; i < t.size() && is_blank(t[i]); ++i) {
        if (t[i] == '\t')
          s.append(8 - s.size() % 8, ' ');
        else
          s += ' ';
      }
      const std::size_t orig_end = i, norm_end = s.size();
      for (; i < t.size(); ++i) s += t[i] == '\t' ? ' ' : t[i];
      out.set_owned_text(l, s);
      if (orig_end > 0 && norm_end != orig_end) {
        LineExtra& e = out.extra_of(l);
        e.tab_norm_end = static_cast<std::uint32_t>(norm_end);
        e.tab_orig_end = static_cast<std::uint32_t>(orig_end);
      }
    }
  }

  // 5. Spark's own cut: "... N more characters" (no newline before it).
  for (std::size_t i = lines.size(); i-- > 0;) {
    const std::string_view t = out.text(i);
    if (t.empty()) continue;
    std::size_t c = find_cut(t);
    if (c != std::string_view::npos) {
      out.cut = true;
      out.cut_line = i;
      out.cut_text = std::string(t.substr(c));
      out.set_text(lines[i], rtrim(t.substr(0, c)));
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
        std::size_t n = std::min(indent, leading_spaces(out.text(i)));
        if (n == 0) continue;
        any_indent = true;
        strip_shift(out, lines[i], n);
      }
    };
    auto header_at = [&](std::size_t i) {
      std::string_view t = out.text(i);
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
      if (!out.text(i).empty()) m = std::min(m, leading_spaces(out.text(i)));
    }
    if (m != std::string_view::npos) apply(0, first_header, m);
    std::size_t region_start = first_header;
    while (region_start < lines.size()) {
      std::size_t indent = leading_spaces(out.text(region_start));
      std::size_t e = region_start + 1;
      while (e < lines.size() && !header_at(e)) ++e;
      apply(region_start, e, indent);
      region_start = e;
    }
    if (any_indent) out.repairs.emplace_back("removed a common indent");
  }

  // 7. Tree shape: flattened indentation, then hand-wrapped continuation lines.
  {
    bool flat = false, joined = false;
    if (collapsed || tree_shape_work(out)) {
      std::vector<Shape> shapes;
      shape_lines(out, shapes);
      rebuild_flattened_trees(out, shapes, flat);
      if (flat) shape_lines(out, shapes);  // rebuilt lines have new prefixes
      join_continuations(out, shapes, joined);
    }
    if (flat) out.repairs.emplace_back("rebuilt the indentation of a flattened tree from its ':' guides");
    if (joined) out.repairs.emplace_back("joined hand-wrapped continuation lines to their operator");
  }
  return out;
}

}  // namespace planlint
