#include "lint/lsp/lsp_message.hpp"

#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace planlint::lsp {

namespace {

using json = nlohmann::json;

// "\u0000planlint-long:" then the index of the string; a body that holds this text anywhere is read
// by nlohmann alone, so a placeholder never stands for anything but a string read here.
constexpr std::string_view kMarkEscaped = "\"\\u0000planlint-long:";
constexpr std::string_view kMark = std::string_view("\0planlint-long:", 15);

// The bytes that end a run of plain string bytes: '"', '\\', control characters, non-ASCII.
constexpr auto kStops = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return t;
}();

int hex4(const char* p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= c - '0';
    else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
    else return -1;
  }
  return v;
}

void put_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The length of the valid UTF-8 sequence at p (lead byte >= 0x80), as nlohmann's lexer accepts
// them (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); 0 when invalid.
std::size_t utf8_length(const unsigned char* p, const unsigned char* end) {
  auto in = [](unsigned char c, unsigned lo, unsigned hi) { return c >= lo && c <= hi; };
  std::size_t left = static_cast<std::size_t>(end - p);
  unsigned char c = p[0];
  if (in(c, 0xC2, 0xDF)) return left >= 2 && in(p[1], 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    if (left < 3) return 0;
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    if (left < 4) return 0;
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) && in(p[3], 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// Reads the JSON string whose opening quote is at body[at]: its value into `out` and the offset
// just after its closing quote; npos when it is not one this reader accepts (then nlohmann reads
// it and reports what is wrong).
std::size_t read_string(std::string_view body, std::size_t at, std::string& out) {
  const auto* p = reinterpret_cast<const unsigned char*>(body.data()) + at + 1;
  const auto* end = reinterpret_cast<const unsigned char*>(body.data()) + body.size();
  constexpr std::size_t npos = std::string_view::npos;
  while (p < end) {
    const unsigned char* run = p;
    while (p < end && !kStops[*p]) ++p;
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p >= end) return npos;
    unsigned char c = *p;
    if (c == '"') return static_cast<std::size_t>(p + 1 - reinterpret_cast<const unsigned char*>(body.data()));
    if (c < 0x20) return npos;
    if (c >= 0x80) {
      std::size_t n = utf8_length(p, end);
      if (n == 0) return npos;
      out.append(reinterpret_cast<const char*>(p), n);
      p += n;
      continue;
    }
    // A backslash.
    if (end - p < 2) return npos;
    char e = static_cast<char>(p[1]);
    p += 2;
    switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        if (end - p < 4) return npos;
        int cp = hex4(reinterpret_cast<const char*>(p));
        if (cp < 0) return npos;
        p += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return npos;  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {             // a high one: its low one must follow
          if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return npos;
          int lo = hex4(reinterpret_cast<const char*>(p + 2));
          if (lo < 0xDC00 || lo > 0xDFFF) return npos;
          p += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(out, static_cast<unsigned>(cp));
        break;
      }
      default: return npos;
    }
  }
  return npos;
}

// The strings of `j` that look like placeholders. A body may spell one with other escapes
// ("\u0070lanlint"), so the caller checks that they are exactly the placeholders it made.
void find_marks(json& j, std::vector<std::string*>& marks) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (s.size() > kMark.size() && s.compare(0, kMark.size(), kMark) == 0) marks.push_back(&s);
  } else if (j.is_structured()) {
    for (auto& v : j) find_marks(v, marks);
  }
}

}  // namespace

json parse_message(std::string_view body) {
  if (body.size() < kLongString || body.find(kMarkEscaped) != std::string_view::npos)
    return json::parse(body, nullptr, false);
  std::vector<std::string> longs;
  std::string shortened;  // the body with each long string replaced by its placeholder
  std::size_t copied = 0;
  std::size_t i = 0;
  while (i < body.size()) {
    // Outside strings: find the next one.
    const void* q = std::memchr(body.data() + i, '"', body.size() - i);
    if (!q) break;
    std::size_t open = static_cast<std::size_t>(static_cast<const char*>(q) - body.data());
    // Where it ends, skipping escaped characters.
    // (memchr for both; the next quote is looked for again only once an escape passed it)
    std::size_t close = open + 1;
    std::size_t quote = open;
    while (close < body.size() && body[close] != '"') {
      if (body[close] == '\\') {
        close += 2;
        continue;
      }
      if (quote < close) {
        const void* q2 = std::memchr(body.data() + close, '"', body.size() - close);
        quote = q2 ? static_cast<std::size_t>(static_cast<const char*>(q2) - body.data()) : body.size();
      }
      const void* b2 = std::memchr(body.data() + close, '\\', quote - close);
      close = b2 ? static_cast<std::size_t>(static_cast<const char*>(b2) - body.data()) : quote;
    }
    if (close >= body.size()) break;  // unterminated: nlohmann says so
    std::size_t after = close + 1;
    if (after - open >= kLongString) {
      std::size_t next = body.find_first_not_of(" \t\r\n", after);
      bool is_key = next != std::string_view::npos && body[next] == ':';
      std::string value;
      value.reserve(after - open);
      if (!is_key && read_string(body, open, value) == after) {
        shortened.append(body.substr(copied, open - copied));
        shortened.append(kMarkEscaped);
        shortened.append(std::to_string(longs.size()));
        shortened.push_back('"');
        copied = after;
        longs.push_back(std::move(value));
      }
    }
    i = after;
  }
  if (longs.empty()) return json::parse(body, nullptr, false);
  shortened.append(body.substr(copied));
  json j = json::parse(shortened, nullptr, false);
  if (j.is_discarded()) return j;  // the strings read here were valid: the rest is not
  std::vector<std::string*> marks;
  find_marks(j, marks);
  std::vector<bool> seen(longs.size(), false);
  bool exact = marks.size() == longs.size();
  for (std::size_t k = 0; exact && k < marks.size(); ++k) {
    std::string_view digits = std::string_view(*marks[k]).substr(kMark.size());
    std::size_t index = 0;
    for (char c : digits) {
      if (c < '0' || c > '9' || index > longs.size()) {
        index = longs.size();
        break;
      }
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    exact = index < longs.size() && !seen[index] && *marks[k] == std::string(kMark) + std::to_string(index);
    if (exact) seen[index] = true;
  }
  if (!exact) return json::parse(body, nullptr, false);  // a string of the body looked like a placeholder
  for (auto* m : marks) {
    std::size_t index = std::stoul(m->substr(kMark.size()));
    *m = std::move(longs[index]);
  }
  return j;
}

}  // namespace planlint::lsp
