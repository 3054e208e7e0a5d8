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

class PackedText : public TextReading<PackedText> {
 public:
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

  // The reading members (find, starts_with, comparisons, ...) are TextReading's; with a Text:
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
