// A list of 32-bit indexes in one word (8 bytes), for an operator's children and parents: most
// operators have one child and one parent, and a CompactVector holds even one index in a block of
// its own (16 bytes of store: header and room for two). Here one index sits inline, in the word
// that otherwise holds the block pointer; two or more live in a CompactVector<std::uint32_t> block
// (heap, or the plan's TextStore while a BlockScope is open, as CompactVector). Reads like the
// vector it replaces: size, [], iteration over std::uint32_t (iterators are pointers), front, back,
// push_back, erase, resize, clear; indexes are taken as std::size_t and must be below 2^32.
// A list shrunk to one index (erase, resize, pop_back) goes back inline; cleared, it holds nothing.
// As with std::vector, changing the list invalidates its iterators.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/compact_vector.hpp"
#include "support/contiguous_access.hpp"

namespace planlint {

// (iteration, [], at, front, back and empty come from ContiguousAccess over data() and size())
class IndexVector : public ContiguousAccess<IndexVector, std::uint32_t> {
 public:

  IndexVector() noexcept { ::new (static_cast<void*>(raw_)) Block(); }
  IndexVector(std::initializer_list<std::size_t> list) : IndexVector() { append(list.begin(), list.end()); }
  template <class It>
    requires(!std::is_integral_v<It>)
  IndexVector(It first, It last) : IndexVector() {
    append(first, last);
  }
  explicit IndexVector(const std::vector<std::size_t>& v) : IndexVector() { append(v.begin(), v.end()); }
  IndexVector(const IndexVector& o) : IndexVector() { append(o.begin(), o.end()); }
  IndexVector(IndexVector&& o) noexcept { take(o); }
  IndexVector& operator=(const IndexVector& o) {
    if (this != &o) IndexVector(o).swap(*this);
    return *this;
  }
  IndexVector& operator=(IndexVector&& o) noexcept {
    if (this != &o) {
      destroy();
      take(o);
    }
    return *this;
  }
  IndexVector& operator=(std::initializer_list<std::size_t> list) {
    IndexVector(list).swap(*this);
    return *this;
  }
  IndexVector& operator=(const std::vector<std::size_t>& v) {
    IndexVector(v).swap(*this);
    return *this;
  }
  ~IndexVector() { destroy(); }

  // Both states are one relocatable word (an index pair or a block pointer): swapping the bytes
  // swaps the lists.
  void swap(IndexVector& o) noexcept {
    alignas(8) std::byte t[8];
    std::memcpy(t, raw_, 8);
    std::memcpy(raw_, o.raw_, 8);
    std::memcpy(o.raw_, t, 8);
  }

  [[nodiscard]] size_type size() const noexcept { return is_one() ? 1 : block().size(); }
  [[nodiscard]] size_type capacity() const noexcept { return is_one() ? 1 : block().capacity(); }
  // Whether the list holds its one index inline (no block): for tests and measurements.
  [[nodiscard]] bool is_inline() const noexcept { return is_one(); }

  std::uint32_t* data() noexcept { return is_one() ? one() : block().data(); }
  const std::uint32_t* data() const noexcept { return is_one() ? one() : block().data(); }
  // Room for `n`: one index needs no block.
  void reserve(size_type n) {
    if (n <= 1 || n <= capacity()) return;
    if (is_one()) {
      Block b;
      b.reserve(n);
      b.push_back(*one());
      ::new (static_cast<void*>(raw_)) Block(std::move(b));
    } else {
      block().reserve(n);
    }
  }
  void clear() noexcept {
    destroy();
    set_empty();
  }
  void push_back(std::size_t index) {
    const auto v = checked(index);
    if (is_one()) {
      Block b;
      b.reserve(2);
      b.push_back(*one());
      b.push_back(v);
      ::new (static_cast<void*>(raw_)) Block(std::move(b));
    } else if (block().capacity() == 0) {
      set_one(v);
    } else {
      block().push_back(v);
    }
  }
  void emplace_back(std::size_t index) { push_back(index); }
  void pop_back() noexcept {
    if (is_one()) {
      set_empty();
      return;
    }
    block().pop_back();
    settle();
  }
  void resize(size_type n) {
    if (n < size()) {
      erase(begin() + n, end());
      return;
    }
    reserve(n);
    while (size() < n) push_back(0);
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto at = static_cast<size_type>(first - cbegin());
    if (first == last) return begin() + at;
    if (is_one()) {
      set_empty();
    } else {
      block().erase(first, last);
      settle();
    }
    return begin() + at;
  }
  template <class It>
    requires(!std::is_integral_v<It>)
  void assign(It first, It last) {
    IndexVector(first, last).swap(*this);
  }

  [[nodiscard]] std::vector<std::size_t> to_vector() const { return std::vector<std::size_t>(begin(), end()); }
  // A copy as a std::vector, where code copies the list into one (as it copied the vector before).
  operator std::vector<std::size_t>() const { return to_vector(); }  // NOLINT: reads like the vector it was

  friend bool operator==(const IndexVector& a, const IndexVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const IndexVector& a, const std::vector<std::size_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  using Block = CompactVector<std::uint32_t>;
  static_assert(sizeof(Block) == 8 && alignof(Block) == 8, "a CompactVector is one pointer");
  // The word holds either a Block (a null or 8-aligned block pointer: its low bit is 0) or, for
  // one index, the 32-bit tag kOneTag in the half that holds the pointer's low bits and the index
  // in the other half.
  static constexpr bool kLittle = std::endian::native == std::endian::little;
  static constexpr std::size_t kTagAt = kLittle ? 0 : 4;
  static constexpr std::size_t kIndexAt = kLittle ? 4 : 0;
  static constexpr std::uint32_t kOneTag = 1;

  static std::uint32_t checked(std::size_t index) {
    if (index > 0xffffffffu) throw std::length_error("IndexVector: an index of 2^32 or more");
    return static_cast<std::uint32_t>(index);
  }
  bool is_one() const noexcept {
    std::uint32_t tag;
    std::memcpy(&tag, raw_ + kTagAt, sizeof tag);
    return (tag & 1u) != 0;
  }
  Block& block() noexcept { return *std::launder(reinterpret_cast<Block*>(raw_)); }
  const Block& block() const noexcept { return *std::launder(reinterpret_cast<const Block*>(raw_)); }
  std::uint32_t* one() noexcept { return std::launder(reinterpret_cast<std::uint32_t*>(raw_ + kIndexAt)); }
  const std::uint32_t* one() const noexcept {
    return std::launder(reinterpret_cast<const std::uint32_t*>(raw_ + kIndexAt));
  }
  // (The Block, if any, must be destroyed first.)
  void set_one(std::uint32_t v) noexcept {
    ::new (static_cast<void*>(raw_ + kTagAt)) std::uint32_t(kOneTag);
    ::new (static_cast<void*>(raw_ + kIndexAt)) std::uint32_t(v);
  }
  void set_empty() noexcept { ::new (static_cast<void*>(raw_)) Block(); }
  // (This holds no Block: constructed, or destroyed.) Leaves `o` empty.
  void take(IndexVector& o) noexcept {
    if (o.is_one()) {
      std::memcpy(raw_, o.raw_, sizeof raw_);
      o.set_empty();
    } else {
      ::new (static_cast<void*>(raw_)) Block(std::move(o.block()));
    }
  }
  void destroy() noexcept {
    if (!is_one()) std::destroy_at(&block());
  }
  // After a block list shrank: one index goes back inline (an arena block stays in the store, a
  // heap block is freed), none leaves no block.
  void settle() noexcept {
    const size_type n = block().size();
    if (n > 1) return;
    const std::uint32_t v = n == 1 ? block()[0] : 0;
    std::destroy_at(&block());
    if (n == 1) {
      set_one(v);
    } else {
      set_empty();
    }
  }
  template <class It>
  void append(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>)
      reserve(size() + static_cast<size_type>(std::distance(first, last)));
    for (; first != last; ++first) push_back(static_cast<std::size_t>(*first));
  }

  alignas(8) std::byte raw_[8];
};

static_assert(sizeof(IndexVector) == 8, "IndexVector is one word");

}  // namespace planlint
