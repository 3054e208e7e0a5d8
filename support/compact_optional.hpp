// An optional value in the size of the value: one value of the type stands for "empty" (a
// particular NaN for doubles, the largest index for indexes, the smallest int for ids that are digits) instead of std::optional's extra
// flag and padding (16 bytes -> 8 for a double or a size_t, 8 -> 4 for an int). Reads like the std::optional it
// replaces: has_value(), explicit bool, *, value(), value_or(), = value / = std::nullopt,
// == std::nullopt, and it converts to std::optional<T> where code passes the value on.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

namespace planlint {

// "Empty" for doubles: a quiet NaN with a payload no arithmetic produces, compared by its bits,
// so that a NaN that was computed (0/0, a parsed "NaN") stays a value. A value with exactly these
// bits is stored as the ordinary quiet NaN (it is still a value, and still a NaN).
struct EmptyDoubleIsNaN {
  static constexpr std::uint64_t kBits = 0x7ff8'e5a7'0000'0001ULL;
  static constexpr double empty() { return std::bit_cast<double>(kBits); }
  static constexpr bool is_empty(double v) { return std::bit_cast<std::uint64_t>(v) == kBits; }
  static constexpr double stored(double v) {
    return is_empty(v) ? std::numeric_limits<double>::quiet_NaN() : v;
  }
};

// "Empty" for an integer: one value the field never takes (SIZE_MAX for an index into a plan,
// INT32_MIN for a printed codegen stage id, which is digits). Storing that value throws instead of
// silently reading back as empty.
template <class I, I kEmpty>
struct EmptyIntegerIs {
  static constexpr I empty() { return kEmpty; }
  static constexpr bool is_empty(I v) { return v == kEmpty; }
  static constexpr I stored(I v) {
    if (is_empty(v)) throw std::out_of_range("CompactOptional: the value is the one that means empty");
    return v;
  }
};

template <class T, class Empty>
class CompactOptional {
 public:
  using value_type = T;

  constexpr CompactOptional() noexcept = default;
  constexpr CompactOptional(std::nullopt_t) noexcept {}  // NOLINT: like std::optional
  constexpr CompactOptional(T v) : v_(Empty::stored(v)) {}  // NOLINT: like std::optional
  // Explicit, so that `cond ? compact : std::optional<T>` takes the std::optional type.
  constexpr explicit CompactOptional(const std::optional<T>& o) : v_(o ? Empty::stored(*o) : Empty::empty()) {}

  constexpr CompactOptional& operator=(std::nullopt_t) noexcept {
    v_ = Empty::empty();
    return *this;
  }
  constexpr CompactOptional& operator=(T v) {
    v_ = Empty::stored(v);
    return *this;
  }
  constexpr CompactOptional& operator=(const std::optional<T>& o) {
    v_ = o ? Empty::stored(*o) : Empty::empty();
    return *this;
  }

  [[nodiscard]] constexpr bool has_value() const noexcept { return !Empty::is_empty(v_); }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const T& operator*() const noexcept { return v_; }
  [[nodiscard]] constexpr const T& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return v_;
  }
  template <class U>
  [[nodiscard]] constexpr T value_or(U&& fallback) const {
    return has_value() ? v_ : static_cast<T>(std::forward<U>(fallback));
  }
  constexpr void reset() noexcept { v_ = Empty::empty(); }

  constexpr operator std::optional<T>() const {  // NOLINT: passes on where std::optional is expected
    return has_value() ? std::optional<T>(v_) : std::nullopt;
  }

  // The comparisons of std::optional: empty equals empty, empty never equals a value.
  friend constexpr bool operator==(const CompactOptional& a, std::nullopt_t) noexcept { return !a.has_value(); }
  friend constexpr bool operator==(const CompactOptional& a, const CompactOptional& b) noexcept {
    return a.has_value() == b.has_value() && (!a.has_value() || a.v_ == b.v_);
  }
  friend constexpr bool operator==(const CompactOptional& a, const std::optional<T>& b) noexcept {
    return a.has_value() == b.has_value() && (!a.has_value() || a.v_ == *b);
  }
  friend constexpr bool operator==(const CompactOptional& a, const T& b) noexcept { return a.has_value() && a.v_ == b; }

 private:
  T v_ = Empty::empty();
};

using OptionalDouble = CompactOptional<double, EmptyDoubleIsNaN>;
using OptionalIndex = CompactOptional<std::size_t, EmptyIntegerIs<std::size_t, SIZE_MAX>>;
using OptionalInt32 = CompactOptional<std::int32_t, EmptyIntegerIs<std::int32_t, INT32_MIN>>;
// An index into a plan's operators in 4 bytes (Operator::reuses): a plan's lists hold at most
// 2^31 - 1 elements (CompactVector), so UINT32_MAX is never an index.
using OptionalIndex32 = CompactOptional<std::uint32_t, EmptyIntegerIs<std::uint32_t, UINT32_MAX>>;

static_assert(sizeof(OptionalDouble) == sizeof(double));
static_assert(sizeof(OptionalIndex) == sizeof(std::size_t));
static_assert(sizeof(OptionalInt32) == sizeof(std::int32_t));
static_assert(sizeof(OptionalIndex32) == sizeof(std::uint32_t));

}  // namespace planlint
