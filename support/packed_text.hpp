// A Text in 8 bytes instead of 16: for the texts the model holds once per operator, field and
// metric (a large plan holds a quarter of a million fields). It reads like a Text (it converts to
// one and to a std::string_view, and has Text's const members); it is assigned a Text.
//
// The pointer and the length share one word: a user-space address fits in 48 bits on the 64-bit
// targets planlint builds for, the length in the other 16. A text of 65,535 bytes or more (or, on
// a target where an address does not fit, any text) is kept as a pointer to a view of its own,
// allocated for it and freed with it: rare, and still exact.
#pragma once

#include <compare>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "support/text.hpp"

namespace planlint {

class PackedText {
 public:
  using size_type = std::size_t;
  using const_iterator = std::string_view::const_iterator;
  static constexpr size_type npos = std::string_view::npos;

  PackedText() noexcept = default;
  explicit PackedText(Text t) { set(t.view()); }
  // A string literal (static storage).
  template <std::size_t N>
  PackedText(const char (&literal)[N]) { set(Text(literal).view()); }  // NOLINT: as Text's
  PackedText(const PackedText& o) : b_(o.b_) {
    if (o.is_long()) set(o.view());
  }
  PackedText(PackedText&& o) noexcept : b_(std::exchange(o.b_, 0)) {}
  PackedText& operator=(const PackedText& o) {
    if (this != &o) {
      release();
      if (o.is_long()) set(o.view());
      else b_ = o.b_;
    }
    return *this;
  }
  PackedText& operator=(PackedText&& o) noexcept {
    if (this != &o) {
      release();
      b_ = std::exchange(o.b_, 0);
    }
    return *this;
  }
  PackedText& operator=(Text t) {
    release();
    set(t.view());
    return *this;
  }
  template <std::size_t N>
  PackedText& operator=(const char (&literal)[N]) {
    return *this = Text(literal);
  }
  ~PackedText() { release(); }

  [[nodiscard]] std::string_view view() const noexcept {
    const auto n = static_cast<std::size_t>(b_ >> kLengthShift);
    const auto* p = reinterpret_cast<const char*>(static_cast<std::uintptr_t>(b_ & kAddressMask));
    if (n != kLong) [[likely]]
      return {p, n};
    return *reinterpret_cast<const std::string_view*>(p);
  }
  operator std::string_view() const noexcept { return view(); }  // NOLINT: reads like a view
  operator Text() const noexcept { return Text::stable(view()); }  // NOLINT: reads like a Text
  [[nodiscard]] Text text() const noexcept { return Text::stable(view()); }
  [[nodiscard]] std::string str() const { return std::string(view()); }

  [[nodiscard]] const char* data() const noexcept { return view().data(); }
  [[nodiscard]] size_type size() const noexcept { return view().size(); }
  [[nodiscard]] size_type length() const noexcept { return view().size(); }
  [[nodiscard]] bool empty() const noexcept { return view().empty(); }
  [[nodiscard]] const_iterator begin() const noexcept { return view().begin(); }
  [[nodiscard]] const_iterator end() const noexcept { return view().end(); }
  [[nodiscard]] char front() const { return view().front(); }
  [[nodiscard]] char back() const { return view().back(); }
  char operator[](size_type i) const { return view()[i]; }

  [[nodiscard]] Text sub(size_type pos, size_type n = npos) const { return text().sub(pos, n); }
  [[nodiscard]] std::string_view substr(size_type pos, size_type n = npos) const { return view().substr(pos, n); }
  [[nodiscard]] size_type find(std::string_view s, size_type pos = 0) const noexcept { return view().find(s, pos); }
  [[nodiscard]] size_type find(char c, size_type pos = 0) const noexcept { return view().find(c, pos); }
  [[nodiscard]] size_type rfind(std::string_view s, size_type pos = npos) const noexcept { return view().rfind(s, pos); }
  [[nodiscard]] size_type rfind(char c, size_type pos = npos) const noexcept { return view().rfind(c, pos); }
  [[nodiscard]] size_type find_first_of(std::string_view s, size_type pos = 0) const noexcept {
    return view().find_first_of(s, pos);
  }
  [[nodiscard]] size_type find_last_of(std::string_view s, size_type pos = npos) const noexcept {
    return view().find_last_of(s, pos);
  }
  [[nodiscard]] size_type find_first_not_of(std::string_view s, size_type pos = 0) const noexcept {
    return view().find_first_not_of(s, pos);
  }
  [[nodiscard]] size_type find_last_not_of(std::string_view s, size_type pos = npos) const noexcept {
    return view().find_last_not_of(s, pos);
  }
  [[nodiscard]] bool starts_with(std::string_view s) const noexcept { return view().starts_with(s); }
  [[nodiscard]] bool starts_with(char c) const noexcept { return view().starts_with(c); }
  [[nodiscard]] bool ends_with(std::string_view s) const noexcept { return view().ends_with(s); }
  [[nodiscard]] bool ends_with(char c) const noexcept { return view().ends_with(c); }
  [[nodiscard]] int compare(std::string_view s) const noexcept { return view().compare(s); }

  // Against another PackedText, and against anything that reads as a string_view (a Text, a
  // literal, a std::string): one exact match each way, as for Text.
  friend bool operator==(const PackedText& a, const PackedText& b) noexcept { return a.view() == b.view(); }
  friend auto operator<=>(const PackedText& a, const PackedText& b) noexcept { return a.view() <=> b.view(); }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, PackedText>)
  friend bool operator==(const PackedText& a, const T& b) noexcept {
    return a.view() == std::string_view(b);
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, PackedText>)
  friend auto operator<=>(const PackedText& a, const T& b) noexcept {
    return a.view() <=> std::string_view(b);
  }
  friend std::ostream& operator<<(std::ostream& os, const PackedText& t) { return os << t.view(); }
  friend std::string operator+(const std::string& a, const PackedText& b) { return a + std::string(b.view()); }
  friend std::string operator+(const PackedText& a, const std::string& b) { return std::string(a.view()) + b; }
  friend std::string operator+(const char* a, const PackedText& b) { return a + std::string(b.view()); }
  friend std::string operator+(const PackedText& a, const char* b) { return std::string(a.view()) + b; }
  friend std::string operator+(const PackedText& a, const PackedText& b) {
    return std::string(a.view()) + std::string(b.view());
  }
  friend std::string operator+(const Text& a, const PackedText& b) { return std::string(a.view()) + std::string(b.view()); }
  friend std::string operator+(const PackedText& a, const Text& b) { return std::string(a.view()) + std::string(b.view()); }

 private:
  static constexpr unsigned kLengthShift = 48;
  static constexpr std::uint64_t kAddressMask = (std::uint64_t{1} << kLengthShift) - 1;
  static constexpr std::size_t kLong = 0xFFFF;  // the length field of a text kept out of line

  [[nodiscard]] bool is_long() const noexcept { return (b_ >> kLengthShift) == kLong; }
  static std::uint64_t address(const void* p) noexcept {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  }
  void set(std::string_view v) {
    const std::uint64_t a = address(v.data());
    if (v.size() < kLong && a <= kAddressMask) [[likely]] {
      b_ = a | (static_cast<std::uint64_t>(v.size()) << kLengthShift);
      return;
    }
    auto* own = new std::string_view(v);
    const std::uint64_t o = address(own);
    if (o > kAddressMask) {  // no 64-bit target planlint builds for hands out such an address
      delete own;
      std::abort();
    }
    b_ = o | (static_cast<std::uint64_t>(kLong) << kLengthShift);
  }
  void release() noexcept {
    if (is_long()) delete reinterpret_cast<const std::string_view*>(static_cast<std::uintptr_t>(b_ & kAddressMask));
    b_ = 0;
  }

  std::uint64_t b_ = 0;
};
static_assert(sizeof(PackedText) == 8);

}  // namespace planlint

template <>
struct std::hash<planlint::PackedText> {
  std::size_t operator()(const planlint::PackedText& t) const noexcept { return std::hash<std::string_view>{}(t.view()); }
};
