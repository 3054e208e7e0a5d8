// Text of the model: a view (pointer and length, 16 bytes) instead of an owned std::string
// (32 bytes plus a heap block per string longer than 15 bytes). The bytes live in the plan's
// TextStore (one arena per plan, see Plan::keep), in a string literal or in a static table;
// they never move, so a Text stays valid as long as its plan (copies of a plan share its store).
//
// A Text cannot be made from a std::string: that would be a view into a string that dies first.
// Readers write `op.name = plan.keep(text)`; tests and tables may assign string literals.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "support/compact_vector.hpp"

namespace planlint {

// The reading members of a text type: everything a std::string_view offers for reading, written
// once over the derived type's `view()` (Text holds a view, PackedText packs one into 8 bytes). A
// part (`sub`) is a Text of the same bytes. Comparisons: against the same type, and against
// anything that reads as a string_view (a literal, a std::string, the other text type): one exact
// match each way, so that no comparison is ambiguous (also with the reversed candidates of C++20).
class Text;
template <class D>
class TextReading {
 public:
  using size_type = std::size_t;
  using const_iterator = std::string_view::const_iterator;
  static constexpr size_type npos = std::string_view::npos;

  [[nodiscard]] std::string str() const { return std::string(v()); }
  [[nodiscard]] constexpr const char* data() const noexcept { return v().data(); }
  [[nodiscard]] constexpr size_type size() const noexcept { return v().size(); }
  [[nodiscard]] constexpr size_type length() const noexcept { return v().size(); }
  [[nodiscard]] constexpr bool empty() const noexcept { return v().empty(); }
  [[nodiscard]] constexpr const_iterator begin() const noexcept { return v().begin(); }
  [[nodiscard]] constexpr const_iterator end() const noexcept { return v().end(); }
  [[nodiscard]] constexpr char front() const { return v().front(); }
  [[nodiscard]] constexpr char back() const { return v().back(); }
  constexpr char operator[](size_type i) const { return v()[i]; }

  // A part of a text lives as long as the text.
  [[nodiscard]] constexpr Text sub(size_type pos, size_type n = npos) const;
  [[nodiscard]] constexpr std::string_view substr(size_type pos, size_type n = npos) const { return v().substr(pos, n); }
  [[nodiscard]] constexpr size_type find(std::string_view s, size_type pos = 0) const noexcept { return v().find(s, pos); }
  [[nodiscard]] constexpr size_type find(char c, size_type pos = 0) const noexcept { return v().find(c, pos); }
  [[nodiscard]] constexpr size_type rfind(std::string_view s, size_type pos = npos) const noexcept { return v().rfind(s, pos); }
  [[nodiscard]] constexpr size_type rfind(char c, size_type pos = npos) const noexcept { return v().rfind(c, pos); }
  [[nodiscard]] constexpr size_type find_first_of(std::string_view s, size_type pos = 0) const noexcept {
    return v().find_first_of(s, pos);
  }
  [[nodiscard]] constexpr size_type find_last_of(std::string_view s, size_type pos = npos) const noexcept {
    return v().find_last_of(s, pos);
  }
  [[nodiscard]] constexpr size_type find_first_not_of(std::string_view s, size_type pos = 0) const noexcept {
    return v().find_first_not_of(s, pos);
  }
  [[nodiscard]] constexpr size_type find_last_not_of(std::string_view s, size_type pos = npos) const noexcept {
    return v().find_last_not_of(s, pos);
  }
  [[nodiscard]] constexpr bool starts_with(std::string_view s) const noexcept { return v().starts_with(s); }
  [[nodiscard]] constexpr bool starts_with(char c) const noexcept { return v().starts_with(c); }
  [[nodiscard]] constexpr bool ends_with(std::string_view s) const noexcept { return v().ends_with(s); }
  [[nodiscard]] constexpr bool ends_with(char c) const noexcept { return v().ends_with(c); }
  [[nodiscard]] constexpr int compare(std::string_view s) const noexcept { return v().compare(s); }

  friend constexpr bool operator==(const D& a, const D& b) noexcept { return a.view() == b.view(); }
  friend constexpr auto operator<=>(const D& a, const D& b) noexcept { return a.view() <=> b.view(); }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, D>)
  friend constexpr bool operator==(const D& a, const T& b) noexcept {
    return a.view() == std::string_view(b);
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, D>)
  friend constexpr auto operator<=>(const D& a, const T& b) noexcept {
    return a.view() <=> std::string_view(b);
  }
  friend std::ostream& operator<<(std::ostream& os, const D& t) { return os << t.view(); }
  friend std::string operator+(const std::string& a, const D& b) { return a + std::string(b.view()); }
  friend std::string operator+(const D& a, const std::string& b) { return std::string(a.view()) + b; }
  friend std::string operator+(const char* a, const D& b) { return a + std::string(b.view()); }
  friend std::string operator+(const D& a, const char* b) { return std::string(a.view()) + b; }
  friend std::string operator+(const D& a, const D& b) { return std::string(a.view()) + std::string(b.view()); }

 protected:
  TextReading() = default;

 private:
  [[nodiscard]] constexpr std::string_view v() const noexcept { return static_cast<const D&>(*this).view(); }
};

class Text : public TextReading<Text> {
 public:
  constexpr Text() noexcept = default;
  // A string literal (static storage).
  template <std::size_t N>
  constexpr Text(const char (&literal)[N]) noexcept : v_(literal, std::char_traits<char>::length(literal)) {}  // NOLINT
  template <std::size_t N>
  constexpr Text& operator=(const char (&literal)[N]) noexcept {
    v_ = std::string_view(literal, std::char_traits<char>::length(literal));
    return *this;
  }
  Text(const std::string&) = delete;
  Text(std::string&&) = delete;
  Text& operator=(const std::string&) = delete;
  Text& operator=(std::string&&) = delete;
  // Text whose bytes outlive the model: a TextStore's, a static table's.
  static constexpr Text stable(std::string_view kept) noexcept { return Text(kept, 0); }

  constexpr operator std::string_view() const noexcept { return v_; }  // NOLINT: reads like a view
  [[nodiscard]] constexpr std::string_view view() const noexcept { return v_; }

 private:
  constexpr Text(std::string_view v, int) noexcept : v_(v) {}
  std::string_view v_;
};
static_assert(sizeof(Text) == sizeof(std::string_view));

template <class D>
constexpr Text TextReading<D>::sub(size_type pos, size_type n) const {
  return Text::stable(v().substr(pos, n));
}

// Whether `part` lies inside `whole` (a view into the same bytes): then it needs no copy of its
// own, and a word `whole` does not contain, no part of it contains either.
inline bool lies_within(std::string_view part, std::string_view whole) noexcept {
  const auto p = reinterpret_cast<std::uintptr_t>(part.data());
  const auto w = reinterpret_cast<std::uintptr_t>(whole.data());
  return p >= w && p + part.size() <= w + whole.size();
}

// The bytes behind a plan's Texts: blocks that never move, filled one after another. Keeping a
// text copies it once; there is no per-string header or heap block. Not thread-safe (one reader
// builds one plan).
class TextStore {
 public:
  TextStore() = default;
  TextStore(const TextStore&) = delete;
  TextStore& operator=(const TextStore&) = delete;

  // A copy of `s` that lives as long as the store. A part of the text kept last (or of the
  // current block) is not copied again: keeping a label and then its name costs the label once.
  Text keep(std::string_view s) {
    if (s.empty()) return {};
    if (holds(s)) return Text::stable(s);
    char* p = allocate(s.size());
    std::memcpy(p, s.data(), s.size());
    return Text::stable({p, s.size()});
  }
  // The concatenation of the parts, kept.
  Text concat(std::initializer_list<std::string_view> parts) {
    std::size_t n = 0;
    for (std::string_view s : parts) n += s.size();
    if (n == 0) return {};
    char* p = allocate(n);
    std::size_t at = 0;
    for (std::string_view s : parts) {
      if (!s.empty()) std::memcpy(p + at, s.data(), s.size());
      at += s.size();
    }
    return Text::stable({p, n});
  }
  // Room for `n` bytes aligned to `align` (a power of two, at most the alignment of operator new:
  // the blocks start there), freed with the store: the blocks of the plan's CompactVectors while a
  // BlockScope is open (a heap block per vector cost more than parsing them). They share the text
  // blocks. nullptr: take a heap block instead.
  void* allocate_block(std::size_t n, std::size_t align = __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    n = (n + align - 1) & ~(align - 1);
    const std::size_t pad = (0 - reinterpret_cast<std::uintptr_t>(at_)) & (align - 1);  // a power of two: no division
    if (at_ == nullptr || pad + n > left_) [[unlikely]]
      return allocate_block_anew(n);
    at_ += pad;
    left_ -= pad;
    return take(n);
  }
  // Keeps another store alive as long as this one (a plan that takes over a reader's store after
  // it kept texts of its own).
  void retain(std::shared_ptr<const TextStore> other) { retained_.push_back(std::move(other)); }
  // The input the plan was read from, when its owner shares it: a text that lies inside it is
  // kept as a view into it, not copied, and the store keeps it alive.
  void view_input(std::shared_ptr<const std::string> input) {
    input_ = std::move(input);
    set_views_input(true);
  }
  // While `false`: texts inside the input are copied like any other, not viewed (bytes of the
  // input a reader gives back to the system once read). The input is still kept.
  void set_views_input(bool views) { viewed_ = views && input_ ? std::string_view(*input_) : std::string_view(); }

 private:
  [[nodiscard]] bool holds(std::string_view s) const {
    // The shared input first: nearly every text a reader keeps is a view into it.
    return lies_within(s, viewed_) || (block_ && lies_within(s, {block_, static_cast<std::size_t>(at_ - block_)})) ||
           (large_ && lies_within(s, {large_, large_size_}));
  }
  // allocate_block's rare case, out of line: the common one (room in the current block) then
  // saves and restores no registers (a list's block is taken ~150,000 times over the golden plans).
  [[gnu::noinline]] void* allocate_block_anew(std::size_t n) {
    // The heap for a large list (freed with its vector), and while the block's unused rest is
    // not small (a new block would leave it unused for good).
    if (n > kMaxBlock / 4 || (at_ != nullptr && left_ > next_ / 16)) return nullptr;
    next_block(n);
    return take(n);
  }
  char* allocate(std::size_t n) {
    if (n > left_) {
      // Large texts get a block of their own; small ones a new shared block (growing to 64 KiB).
      if (n > kMaxBlock / 4) {
        blocks_.push_back(std::make_unique_for_overwrite<char[]>(n));
        large_ = blocks_.back().get();
        large_size_ = n;
        return blocks_.back().get();
      }
      next_block(n);
    }
    return take(n);
  }
  // A new shared block for at least n bytes (blocks double up to 64 KiB; operator new[] aligns
  // them like operator new). The rest of the previous one is left unused.
  void next_block(std::size_t n) {
    next_ = std::max(next_ < kMaxBlock ? next_ * 2 : kMaxBlock, n);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(next_));
    at_ = block_ = blocks_.back().get();
    left_ = next_;
  }
  char* take(std::size_t n) {
    char* p = at_;
    at_ += n;
    left_ -= n;
    return p;
  }
  static constexpr std::size_t kMaxBlock = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::shared_ptr<const TextStore>> retained_;
  std::shared_ptr<const std::string> input_;  // the shared input, viewed not copied
  std::string_view viewed_;                   // its bytes while texts in it are viewed, else empty
  char* block_ = nullptr;  // the block being filled: [block_, at_) is kept text
  char* at_ = nullptr;
  const char* large_ = nullptr;  // the last text that got a block of its own
  std::size_t large_size_ = 0;
  std::size_t left_ = 0;
  std::size_t next_ = 512;
};

// While alive, the CompactVectors this thread grows take their blocks from `store` (see
// BlockSource). Open it only around code that builds parts of the plans that own `store`: a
// vector that outlived the store would point into freed memory, as a Text kept in it would.
class BlockScope {
 public:
  explicit BlockScope(TextStore& store) noexcept : source_{&allocate, &store}, previous_(detail::block_source) {
    detail::block_source = &source_;
  }
  ~BlockScope() { detail::block_source = previous_; }
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;

 private:
  static void* allocate(void* store, std::size_t bytes, std::size_t align) {
    return static_cast<TextStore*>(store)->allocate_block(bytes, align);
  }
  BlockSource source_;
  const BlockSource* previous_;
};

// The bytes of a shared input (an input file held once: TextStore::view_input), "" when none.
inline std::string_view shared_text(const std::shared_ptr<const std::string>& input) {
  return input ? std::string_view(*input) : std::string_view();
}

}  // namespace planlint

template <>
struct std::hash<planlint::Text> {
  std::size_t operator()(const planlint::Text& t) const noexcept { return std::hash<std::string_view>{}(t.view()); }
};
