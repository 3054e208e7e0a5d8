// A one-pass JSON scanner for the Query Profile reader (profile_reader.cpp), and the small
// per-element document it fills for graph nodes and edges.
//
// The scanner checks the whole text against JSON's grammar as nlohmann's parser does and hands a
// handler events (start / end of objects and arrays, keys, scalars); it gives up (run() returns
// false) on anything it cannot vouch for: any byte nlohmann would reject, a number nlohmann would
// find out of range. The caller then parses the text with nlohmann, which reports the error, so
// the diagnostics of a damaged export stay nlohmann's. What it accepts it reads the same way:
// strings decoded (escapes, surrogate pairs, UTF-8 checked as RFC 3629), numbers typed as
// nlohmann types them (unsigned, signed, floating point) and converted with the same functions.
//
// LiteDoc holds one JSON value (a node or an edge of the export) as a flat array: strings and
// number tokens stay views of the input unless they held escapes. The reader's accessors
// (member, text, number: profile_internal.hpp) have overloads for it that answer what they
// answer for nlohmann's document of the same text. A node is read, then the document is reused
// for the next: no allocation per value.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "parser/common/json_plain_run.hpp"


namespace planlint::profile {

// How nlohmann types a number token: unsigned (no sign, fits uint64), signed (a minus sign, fits
// int64), floating point (a fraction, an exponent, or an integer out of range).
enum class NumKind : std::uint8_t { Unsigned, Integer, Float };

// strtod of a token (as nlohmann converts floating-point numbers, in the C locale).
inline double float_value(std::string_view tok) {
  char buf[96];
  if (tok.size() < sizeof buf) {
    std::memcpy(buf, tok.data(), tok.size());
    buf[tok.size()] = '\0';
    return std::strtod(buf, nullptr);
  }
  std::string big(tok);
  return std::strtod(big.c_str(), nullptr);
}
inline std::uint64_t unsigned_value(std::string_view tok) {
  std::uint64_t v = 0;
  std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return v;
}
inline std::int64_t integer_value(std::string_view tok) {
  std::int64_t v = 0;
  std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return v;
}

// Where a scanner's bytes come from: the text it was given, all of it (FileWindow,
// profile_positions.hpp, is the other source: a file read in pieces).
struct WholeText {
  static constexpr bool kPieces = false;
  static bool more(const char*&, const char*&) { return false; }
};

template <class Handler, class Source = WholeText>
class JsonScanner {
 public:
  // Handler: bool start_object(), end_object(), start_array(), end_array();
  // bool key(std::string_view k, bool in_input); bool wants_value() const;
  // bool string(std::string_view s, bool in_input); bool number(std::string_view token, NumKind);
  // bool boolean(bool); bool null(). A handler returning false stops the scan (run() is false).
  // A string view is valid until the next event; in_input says it points into the text.
  JsonScanner(std::string_view text, Handler& h) : p_(text.data()), end_(text.data() + text.size()), h_(h) {}
  // The bytes of `source` from [p, end) on (the piece it has read). A string view handed to the
  // handler is then valid until the next event only: the window moves as more is read.
  JsonScanner(Source& source, const char* p, const char* end, Handler& h) : p_(p), end_(end), h_(h), src_(&source) {}

  // True when the text is exactly one valid JSON value (surrounding whitespace allowed) and every
  // event was taken.
  bool run() {
    enum class Next : std::uint8_t { Value, ValueOrClose, Key, KeyOrClose, AfterValue };
    Next next = Next::Value;
    stack_.clear();
    for (;;) {
      skip_ws();
      if (p_ == end_) return false;
      const char ch = *p_;
      bool close = false;
      switch (next) {
        case Next::KeyOrClose:
          if (ch == '}') {
            close = true;
            break;
          }
          [[fallthrough]];
        case Next::Key:
          if (!key()) return false;
          next = Next::Value;
          break;
        case Next::ValueOrClose:
          if (ch == ']') {
            close = true;
            break;
          }
          [[fallthrough]];
        case Next::Value:
          if (ch == '{' || ch == '[') {
            ++p_;
            stack_.push_back(ch == '{');
            if (!(ch == '{' ? h_.start_object() : h_.start_array())) return false;
            next = ch == '{' ? Next::KeyOrClose : Next::ValueOrClose;
            break;
          }
          if (!scalar(ch)) return false;
          if (stack_.empty()) return at_end();
          next = Next::AfterValue;
          break;
        case Next::AfterValue:
          if (ch == ',') {
            ++p_;
            next = stack_.back() ? Next::Key : Next::Value;
            break;
          }
          if (ch != (stack_.back() ? '}' : ']')) return false;
          close = true;
          break;
      }
      if (!close) continue;
      ++p_;
      const bool object = stack_.back();
      stack_.pop_back();
      if (!(object ? h_.end_object() : h_.end_array())) return false;
      if (stack_.empty()) return at_end();
      next = Next::AfterValue;
    }
  }

 private:
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  bool at_end() {
    skip_ws();
    return p_ == end_;
  }

  void skip_ws() {
    for (;;) {
      while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
      if constexpr (Source::kPieces)
        if (p_ == end_ && src_->more(p_, end_)) continue;
      return;
    }
  }

  // A file read in pieces: the token at p_ (a string to its closing quote, else a run of number or
  // literal bytes) whole in the window and one byte after it, reading more as needed, unless the
  // file ends first. The token's code below then reads it as it reads a whole text: it looks at
  // no byte past the one after the token, so what it accepts it accepts from a whole text too.
  void whole_token() {
    std::size_t j = 1;
    if (*p_ == '"') {
      for (;;) {
        const auto have = static_cast<std::size_t>(end_ - p_);
        while (j < have && p_[j] != '"') j += p_[j] == '\\' ? 2 : 1;
        if (j < have || !src_->more(p_, end_)) return;
      }
    }
    for (;;) {
      const auto have = static_cast<std::size_t>(end_ - p_);
      while (j < have && token_byte(p_[j])) ++j;
      if (j < have || !src_->more(p_, end_)) return;
    }
  }
  static bool token_byte(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.';
  }

  // From p_ to the first byte that ends a plain run of a string: the quote, a backslash, a control
  // byte or a non-ASCII byte.
  void plain_run() { p_ = json_plain_run(p_, end_); }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  // Four hex digits at q, or -1.
  int hex4(const char* q) const {
    if (end_ - q < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      int d = hex_digit(q[i]);
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v;
  }

  void append_utf8(std::uint32_t cp) {
    if (cp < 0x80) {
      buf_ += static_cast<char>(cp);
    } else if (cp < 0x800) {
      buf_ += static_cast<char>(0xC0 | (cp >> 6));
      buf_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      buf_ += static_cast<char>(0xE0 | (cp >> 12));
      buf_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      buf_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      buf_ += static_cast<char>(0xF0 | (cp >> 18));
      buf_ += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      buf_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      buf_ += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // An escape at p_ (the backslash); appended to buf_ when decoding.
  bool escape(bool decode) {
    if (end_ - p_ < 2) return false;
    char out = 0;
    switch (p_[1]) {
      case '"': out = '"'; break;
      case '\\': out = '\\'; break;
      case '/': out = '/'; break;
      case 'b': out = '\b'; break;
      case 'f': out = '\f'; break;
      case 'n': out = '\n'; break;
      case 'r': out = '\r'; break;
      case 't': out = '\t'; break;
      case 'u': {
        int cp = hex4(p_ + 2);
        if (cp < 0) return false;
        p_ += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: a low one must follow
          if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') return false;
          int lo = hex4(p_ + 2);
          if (lo < 0xDC00 || lo > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p_ += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return false;
        }
        if (decode) append_utf8(static_cast<std::uint32_t>(cp));
        return true;
      }
      default:
        return false;
    }
    if (decode) buf_ += out;
    p_ += 2;
    return true;
  }

  // A UTF-8 sequence at p_ (a byte >= 0x80), as RFC 3629 (and nlohmann's lexer) allow it.
  bool utf8() {
    const auto* q = reinterpret_cast<const unsigned char*>(p_);
    const auto left = static_cast<std::size_t>(end_ - p_);
    auto in = [&](std::size_t i, unsigned lo, unsigned hi) { return i < left && q[i] >= lo && q[i] <= hi; };
    const unsigned c = q[0];
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF) n = in(1, 0x80, 0xBF) ? 2 : 0;
    else if (c == 0xE0) n = in(1, 0xA0, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    else if (c == 0xED) n = in(1, 0x80, 0x9F) && in(2, 0x80, 0xBF) ? 3 : 0;
    else if (c == 0xF0) n = in(1, 0x90, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    else if (c >= 0xF1 && c <= 0xF3) n = in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    else if (c == 0xF4) n = in(1, 0x80, 0x8F) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    if (n == 0) return false;
    p_ += n;
    return true;
  }

  // A string from its opening quote (at p_). `s` is its text: a view of the input when it held no
  // escape (`in_input`), else, when `decode`, the decoded text in buf_.
  bool string(std::string_view& s, bool& in_input, bool decode) {
    const char* start = ++p_;
    const char* run = start;
    bool escaped = false;
    for (;;) {
      plain_run();
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') break;
      if (c < 0x20) return false;  // a control character must be escaped
      if (c == '\\') {
        if (decode) {
          if (!escaped) buf_.clear();
          buf_.append(run, p_);
        }
        escaped = true;
        if (!escape(decode)) return false;
        run = p_;
        continue;
      }
      if (!utf8()) return false;
    }
    if (escaped && decode) {
      buf_.append(run, p_);
      s = buf_;
      in_input = false;
    } else {
      s = {start, static_cast<std::size_t>(p_ - start)};
      in_input = true;
    }
    ++p_;
    return true;
  }

  // (The key goes to the handler before the colon is looked for: skipping blanks may read more,
  // which moves the window the key's text lies in.)
  bool key() {
    if (*p_ != '"') return false;
    if constexpr (Source::kPieces) whole_token();
    std::string_view k;
    bool in_input = true;
    if (!string(k, in_input, true)) return false;
    if (!h_.key(k, in_input)) return false;
    skip_ws();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    return true;
  }

  bool scalar(char ch) {
    if constexpr (Source::kPieces) whole_token();
    if (ch == '"') {
      std::string_view s;
      bool in_input = true;
      const bool wanted = h_.wants_value();
      if (!string(s, in_input, wanted)) return false;
      return h_.string(s, in_input);
    }
    if (ch == '-' || is_digit(ch)) return number();
    auto literal = [&](std::string_view word) {
      if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
      p_ += word.size();
      return true;
    };
    if (ch == 't') return literal("true") && h_.boolean(true);
    if (ch == 'f') return literal("false") && h_.boolean(false);
    if (ch == 'n') return literal("null") && h_.null();
    return false;
  }

  // A number token (JSON's grammar), typed as nlohmann types it. A floating-point value nlohmann
  // would find infinite (it reports "number overflow") stops the scan.
  bool number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    bool fraction = false, exponent = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      fraction = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      exponent = true;
    }
    const std::string_view tok(start, static_cast<std::size_t>(p_ - start));
    NumKind kind = negative ? NumKind::Integer : NumKind::Unsigned;
    if (fraction || exponent) {
      kind = NumKind::Float;
    } else if (tok.size() - (negative ? 1 : 0) > 18) {  // may not fit: as strtoll / strtoull say
      const char* e = tok.data() + tok.size();
      bool fits = false;
      if (negative) {
        std::int64_t v = 0;
        fits = std::from_chars(tok.data(), e, v).ec == std::errc();
      } else {
        std::uint64_t v = 0;
        fits = std::from_chars(tok.data(), e, v).ec == std::errc();
      }
      if (!fits) kind = NumKind::Float;
    }
    // Only an exponent or some 300 digits can leave double's range.
    if (kind == NumKind::Float && (exponent || tok.size() > 300) && !std::isfinite(float_value(tok))) return false;
    return h_.number(tok, kind);
  }

  const char* p_;
  const char* end_;
  Handler& h_;
  Source* src_ = nullptr;
  std::vector<bool> stack_;  // open containers: true for an object
  std::string buf_;          // the decoded text of a string with escapes
};

// One JSON value as a flat array in document order; a container's values follow it.
class LiteDoc {
 public:
  enum class Type : std::uint8_t { Null, Bool, String, Number, Object, Array };
  struct Value {
    Type type = Type::Null;
    bool flag = false;          // Bool: its value; String, Number: the text is in the input
    bool key_in_input = false;  // the member's key is in the input
    NumKind num = NumKind::Unsigned;
    std::uint32_t end = 0;      // one past the last value of this one's subtree
    std::uint32_t count = 0;    // a container's values
    std::size_t off = 0, len = 0;          // String / Number: the text (input or buffer)
    std::size_t key_off = 0, key_len = 0;  // an object member's key
  };

  void reset(const char* input) {
    values_.clear();
    buf_.clear();
    open_.clear();
    input_ = input;
  }
  // Building, in document order.
  void key(std::string_view k, bool in_input) {
    key_in_input_ = in_input;
    key_len_ = k.size();
    if (in_input) {
      key_off_ = static_cast<std::size_t>(k.data() - input_);
    } else {
      key_off_ = buf_.size();
      buf_.append(k);
    }
  }
  void scalar(Type t, bool flag, std::string_view text, bool in_input, NumKind num = NumKind::Unsigned) {
    Value& v = add(t);
    v.flag = flag;
    v.num = num;
    v.len = text.size();
    if (t == Type::String || t == Type::Number) {
      if (in_input) {
        v.off = static_cast<std::size_t>(text.data() - input_);
      } else {
        v.off = buf_.size();
        buf_.append(text);
      }
    }
    if (t == Type::String || t == Type::Number) v.flag = in_input;
    v.end = static_cast<std::uint32_t>(values_.size());
  }
  void start(Type t) {
    add(t);
    open_.push_back(static_cast<std::uint32_t>(values_.size() - 1));
  }
  void finish() {
    values_[open_.back()].end = static_cast<std::uint32_t>(values_.size());
    open_.pop_back();
  }
  [[nodiscard]] bool empty() const { return values_.empty(); }

  // Reading.
  [[nodiscard]] const Value& at(std::uint32_t i) const { return values_[i]; }
  [[nodiscard]] std::string_view text(std::uint32_t i) const {
    const Value& v = values_[i];
    return {((v.type == Type::String || v.type == Type::Number) && !v.flag) ? buf_.data() + v.off : input_ + v.off, v.len};
  }
  [[nodiscard]] std::string_view key_text(std::uint32_t i) const {
    const Value& v = values_[i];
    return {v.key_in_input ? input_ + v.key_off : buf_.data() + v.key_off, v.key_len};
  }

 private:
  Value& add(Type t) {
    Value& v = values_.emplace_back();
    v.type = t;
    if (!open_.empty()) {
      Value& parent = values_[open_.back()];
      ++parent.count;
      if (parent.type == Type::Object) {
        v.key_in_input = key_in_input_;
        v.key_off = key_off_;
        v.key_len = key_len_;
      }
    }
    return v;
  }

  std::vector<Value> values_;
  std::string buf_;
  std::vector<std::uint32_t> open_;
  const char* input_ = nullptr;
  bool key_in_input_ = true;
  std::size_t key_off_ = 0, key_len_ = 0;
};

// A value of a LiteDoc, with the part of nlohmann's json interface the reader uses.
class LiteRef {
 public:
  LiteRef(const LiteDoc& d, std::uint32_t i) : d_(&d), i_(i) {}
  [[nodiscard]] bool is_null() const { return v().type == LiteDoc::Type::Null; }
  [[nodiscard]] bool is_boolean() const { return v().type == LiteDoc::Type::Bool; }
  [[nodiscard]] bool is_string() const { return v().type == LiteDoc::Type::String; }
  [[nodiscard]] bool is_number() const { return v().type == LiteDoc::Type::Number; }
  [[nodiscard]] bool is_object() const { return v().type == LiteDoc::Type::Object; }
  [[nodiscard]] bool is_array() const { return v().type == LiteDoc::Type::Array; }
  [[nodiscard]] bool boolean() const { return v().flag; }
  [[nodiscard]] NumKind num() const { return v().num; }
  [[nodiscard]] std::string_view str() const { return d_->text(i_); }  // String / Number token
  [[nodiscard]] std::size_t size() const { return v().count; }
  [[nodiscard]] bool empty() const { return v().count == 0; }

  // The values of a container, in order.
  class iterator {
   public:
    iterator(const LiteDoc& d, std::uint32_t i) : d_(&d), i_(i) {}
    LiteRef operator*() const { return {*d_, i_}; }
    iterator& operator++() {
      i_ = d_->at(i_).end;
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const LiteDoc* d_;
    std::uint32_t i_;
  };
  [[nodiscard]] iterator begin() const { return {*d_, is_object() || is_array() ? i_ + 1 : v().end}; }
  [[nodiscard]] iterator end() const { return {*d_, v().end}; }

  // The member `key` of an object (the last one, when a key is repeated: nlohmann keeps the last).
  [[nodiscard]] std::optional<LiteRef> find(std::string_view key) const {
    std::optional<LiteRef> found;
    if (!is_object()) return found;
    for (std::uint32_t c = i_ + 1; c < v().end; c = d_->at(c).end)
      if (d_->key_text(c) == key) found = LiteRef(*d_, c);
    return found;
  }

 private:
  [[nodiscard]] const LiteDoc::Value& v() const { return d_->at(i_); }
  const LiteDoc* d_;
  std::uint32_t i_;
};

}  // namespace planlint::profile
