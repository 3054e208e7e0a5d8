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
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/text.hpp"

namespace planlint {

// The word PackedText and PackedView share, and what reads it: the address in the low 48 bits,
// the length in the high 16 (kLong: the address is that of a std::string_view kept out of line).
template <class D>
class PackedWord : public TextReading<D> {
 public:
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
  friend std::string operator+(const Text& a, const D& b) { return std::string(a.view()) + std::string(b.view()); }
  friend std::string operator+(const D& a, const Text& b) { return std::string(a.view()) + std::string(b.view()); }

 protected:
  static constexpr unsigned kLengthShift = 48;
  static constexpr std::uint64_t kAddressMask = (std::uint64_t{1} << kLengthShift) - 1;
  static constexpr std::size_t kLong = 0xFFFF;  // the length field of a text kept out of line

  PackedWord() noexcept = default;
  explicit PackedWord(std::uint64_t b) noexcept : b_(b) {}
  [[nodiscard]] bool is_long() const noexcept { return (b_ >> kLengthShift) == kLong; }
  static std::uint64_t address(const void* p) noexcept {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  }
  static std::uint64_t word(std::uint64_t address, std::size_t length) noexcept {
    return address | (static_cast<std::uint64_t>(length) << kLengthShift);
  }
  // Packs `v` in the word when its length and address fit (nearly always); false when they do not.
  bool set_short(std::string_view v) noexcept {
    const std::uint64_t a = address(v.data());
    if (v.size() >= kLong || a > kAddressMask) [[unlikely]]
      return false;
    b_ = word(a, v.size());
    return true;
  }

  std::uint64_t b_ = 0;
};

class PackedText : public PackedWord<PackedText> {
 public:
  PackedText() noexcept = default;
  explicit PackedText(Text t) { set(t.view()); }
  // A string literal (static storage).
  template <std::size_t N>
  PackedText(const char (&literal)[N]) { set(Text(literal).view()); }  // NOLINT: as Text's
  PackedText(const PackedText& o) : PackedWord(o.b_) {
    if (o.is_long()) set(o.view());
  }
  PackedText(PackedText&& o) noexcept : PackedWord(std::exchange(o.b_, 0)) {}
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
  ~PackedText() {
    if (is_long()) [[unlikely]]
      drop_long();
  }

 private:
  void set(std::string_view v) {
    if (set_short(v)) [[likely]]
      return;
    auto* own = new std::string_view(v);
    const std::uint64_t o = address(own);
    if (o > kAddressMask) {  // no 64-bit target planlint builds for hands out such an address
      delete own;
      std::abort();
    }
    detail::heap_list_parts.fetch_add(1, std::memory_order_relaxed);  // see ReleasesOnlyListParts
    b_ = word(o, kLong);
  }
  void release() noexcept {
    if (is_long()) [[unlikely]]
      drop_long();
    b_ = 0;
  }
  // The test inline (every operator and field destroyed asks it), the rare long text's view freed
  // out of line.
  [[gnu::noinline]] void drop_long() noexcept {
    delete reinterpret_cast<const std::string_view*>(static_cast<std::uintptr_t>(b_ & kAddressMask));
    detail::heap_list_parts.fetch_sub(1, std::memory_order_relaxed);
  }
};
static_assert(sizeof(PackedText) == 8);

// A PackedText that owns nothing: copied, moved and destroyed as the 8-byte word it is (no test
// for an out-of-line text on each of those), for the texts the expression parser makes and moves
// many times over (half a million expression nodes in a 100,000-operator plan). A text of 65,535
// bytes or more keeps its view out of line as PackedText does, but in the store of the BlockScope
// open on the thread (the expression parser always opens one over the plan's store: the view
// lives as long as the plan, like the text's bytes); with no scope open (hand-built trees in tests
// and tools), in a process-wide list that is never freed (16 bytes each such text).
class PackedView : public PackedWord<PackedView> {
 public:
  PackedView() noexcept = default;
  PackedView(Text t) { set(t.view()); }  // NOLINT: reads like a Text
  // A string literal (static storage).
  template <std::size_t N>
  PackedView(const char (&literal)[N]) noexcept {  // NOLINT: as Text's
    static_assert(N - 1 < kLong, "a literal this long is not packed");
    b_ = word(address(literal), std::char_traits<char>::length(literal));
  }
  PackedView& operator=(Text t) {
    set(t.view());
    return *this;
  }
  template <std::size_t N>
  PackedView& operator=(const char (&literal)[N]) noexcept {
    return *this = PackedView(literal);
  }
  // A part of a text shorter than 65,535 bytes whose address fits (the expression parser's fast
  // reader declines longer texts): no test for the long form.
  [[nodiscard]] static PackedView short_part(const char* p, std::size_t n) noexcept {
    PackedView v;
    v.b_ = word(address(p), n);
    return v;
  }
  // Whether short_part may be used for every part of a text of `n` bytes at `p`.
  [[nodiscard]] static bool short_parts(const char* p, std::size_t n) noexcept {
    return n < kLong && address(p + n) <= kAddressMask;
  }

  // Against a string literal (the rules ask `name == "AND"` of every node): a length that differs
  // answers without unpacking the address (a long text's length field never equals a literal's).
  template <std::size_t N>
  friend bool operator==(const PackedView& a, const char (&literal)[N]) noexcept {
    static_assert(N - 1 < kLong);
    if ((a.b_ >> kLengthShift) != N - 1) return false;
    return N == 1 || std::memcmp(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(a.b_ & kAddressMask)), literal, N - 1) == 0;
  }

 private:
  void set(std::string_view v) {
    if (!set_short(v)) [[unlikely]]
      set_long(v);
  }
  [[gnu::noinline]] void set_long(std::string_view v) {
    const std::string_view* held = nullptr;
    if (const BlockSource* s = detail::block_source) {
      if (void* m = s->allocate(s->owner, sizeof(std::string_view), alignof(std::string_view)))
        held = ::new (m) std::string_view(v);
    }
    if (held == nullptr) held = hold_for_process(v);
    const std::uint64_t o = address(held);
    if (o > kAddressMask) std::abort();  // no 64-bit target planlint builds for hands out such an address
    b_ = word(o, kLong);
  }
  static const std::string_view* hold_for_process(std::string_view v) {
    static std::mutex m;
    static std::vector<std::unique_ptr<const std::string_view>> held;
    const std::lock_guard<std::mutex> lock(m);
    held.push_back(std::make_unique<const std::string_view>(v));
    return held.back().get();
  }
};
static_assert(sizeof(PackedView) == 8);
static_assert(std::is_trivially_copyable_v<PackedView> && std::is_trivially_destructible_v<PackedView>);

}  // namespace planlint

template <>
struct std::hash<planlint::PackedText> {
  std::size_t operator()(const planlint::PackedText& t) const noexcept { return std::hash<std::string_view>{}(t.view()); }
};
template <>
struct std::hash<planlint::PackedView> {
  std::size_t operator()(const planlint::PackedView& t) const noexcept { return std::hash<std::string_view>{}(t.view()); }
};
