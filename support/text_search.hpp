// Substring tests shared by the readers' fact code (explain text, Query Profiles, operator names).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "support/text.hpp"  // lies_within

namespace planlint {

inline bool contains(std::string_view s, std::string_view w) noexcept { return s.find(w) != std::string_view::npos; }

// The first place of `w` in `s` (npos when none), found through w's byte at `k` (< w.size()):
// memchr stops only where that byte occurs, and it can be far rarer in plan text than w's first
// byte (the 'X' of "EXECUTOR_BROADCAST" against its 'E', the 'f' of "more fields" against its
// 'm'). Each stop compares the whole word. Inline: most texts searched hold no match, and the
// call would cost more than the search.
inline std::size_t find_via(std::string_view s, std::string_view w, std::size_t k) noexcept {
  if (s.size() < w.size()) return std::string_view::npos;
  const char* p = s.data() + k;
  const char* const last = s.data() + (s.size() - w.size()) + k;  // the last place the byte can be at
  while (p <= last) {
    p = static_cast<const char*>(std::memchr(p, w[k], static_cast<std::size_t>(last - p) + 1));
    if (p == nullptr) break;
    if (std::memcmp(p - k, w.data(), w.size()) == 0) return static_cast<std::size_t>(p - k - s.data());
    ++p;
  }
  return std::string_view::npos;
}
inline bool contains_via(std::string_view s, std::string_view w, std::size_t k) noexcept {
  return find_via(s, w, k) != std::string_view::npos;
}

// The byte values a short text holds, folded into 64 bits (bit `c & 63`: several bytes share a
// bit, so the set can only say "maybe"). A word can occur in the text only if the text's set holds
// every bit of the word's set: one pass over an operator's name rules out most of the words the
// fact code searches it for, each of which would cost a memchr call or more.
class ByteSet {
 public:
  constexpr ByteSet() noexcept = default;
  constexpr explicit ByteSet(std::string_view s) noexcept {
    for (char c : s) add(c);
  }
  constexpr void add(char c) noexcept { bits_ |= std::uint64_t{1} << (static_cast<unsigned char>(c) & 63); }
  // Whether `word` (the word's set) may occur in the text; false only when it cannot.
  [[nodiscard]] constexpr bool may_contain(ByteSet word) const noexcept { return (bits_ & word.bits_) == word.bits_; }
  // The same ignoring the case of the text's ASCII letters, for the set of a lower-case word: an
  // upper-case letter's bit (1..26) moved up by 32 is its lower-case letter's bit (33..58).
  [[nodiscard]] constexpr bool may_contain_folded(ByteSet lower_word) const noexcept {
    const std::uint64_t folded = bits_ | (bits_ << 32);
    return (folded & lower_word.bits_) == lower_word.bits_;
  }

 private:
  std::uint64_t bits_ = 0;
};

// A word searched for, with its ByteSet: both fixed at compile time when made from a literal.
struct Word {
  std::string_view text;
  ByteSet bytes;
  consteval Word(const char* w) : text(w), bytes(text) {}  // NOLINT(google-explicit-constructor): from literals
};

}  // namespace planlint
