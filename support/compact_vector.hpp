// A vector in one pointer (8 bytes instead of std::vector's 24): the size and the capacity sit in
// the heap block in front of the elements, and an empty vector holds no block at all. For the
// operator lists a plan keeps per operator (children, parents, fields, metrics), most of which are
// short or empty. Reads like the std::vector it replaces (size, [], iteration, push_back,
// emplace_back, insert, erase, ...); iterators are pointers and, as with std::vector, a growing
// vector invalidates them. At most 2^31 - 1 elements. Blocks come from the heap, or from the plan's
// TextStore while a BlockScope is open (see BlockSource).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/contiguous_access.hpp"

namespace planlint {

// Where CompactVector blocks come from while a BlockScope (text.hpp) is open on the thread: an
// arena that frees them all at once, the TextStore of the plan being built. A block taken from
// it is marked in its header and never given to operator delete; its vector may still grow
// (the new block comes from the arena, or the heap once the scope is closed) or be destroyed.
struct BlockSource {
  // `bytes` aligned to `align` (a power of two, at most the alignment of operator new); nullptr:
  // use the heap.
  void* (*allocate)(void* owner, std::size_t bytes, std::size_t align);
  void* owner;
};
namespace detail {
constinit inline thread_local const BlockSource* block_source = nullptr;
// How many heap parts of the model's lists are alive in the process: CompactVector blocks taken
// from the heap, and PackedText's out-of-line views of long texts. While it is zero, every list
// block is in some store and no text holds a heap view, so a list whose elements own nothing else
// (ReleasesOnlyListParts) is let go without visiting them (see CompactVector::release). One
// process-wide count, not one a thread: a block may be freed on another thread than the one that
// made it. Relaxed is enough: a block a thread holds was counted before it could reach that thread,
// so the count it reads is not below one while it does.
constinit inline std::atomic<std::size_t> heap_list_parts{0};
}  // namespace detail

// An element type whose destruction gives back nothing but CompactVector blocks and PackedText
// views (its members and theirs are CompactVectors of such types, PackedTexts and trivially
// destructible values): it says so with `using releases_only_list_parts = void;`. A vector of them
// is released without destroying each element while detail::heap_list_parts is zero (the
// elements' blocks are then all in stores, which free them at once). A member that owns anything
// else (a std::string, a std::vector, an OutOfLine, a SharedPart) must not be added to such a type.
template <class T>
concept ReleasesOnlyListParts = requires { typename T::releases_only_list_parts; };

template <class T>
class CompactVector : public ContiguousAccess<CompactVector<T>, T> {
  using Access = ContiguousAccess<CompactVector<T>, T>;

 public:
  using typename Access::value_type, typename Access::size_type, typename Access::difference_type,
      typename Access::reference, typename Access::const_reference, typename Access::pointer,
      typename Access::const_pointer, typename Access::iterator, typename Access::const_iterator,
      typename Access::reverse_iterator, typename Access::const_reverse_iterator;
  // (iteration, [], at, front, back and empty come from ContiguousAccess over data() and size())
  using Access::empty, Access::begin, Access::end, Access::cbegin, Access::cend, Access::rbegin,
      Access::rend, Access::front, Access::back;

  CompactVector() noexcept = default;
  CompactVector(std::initializer_list<T> list) { append(list.begin(), list.end()); }
  template <class It>
    requires(!std::is_integral_v<It>)
  CompactVector(It first, It last) {
    append(first, last);
  }
  explicit CompactVector(const std::vector<T>& v) { append(v.begin(), v.end()); }
  CompactVector(const CompactVector& o) { append(o.begin(), o.end()); }
  CompactVector(CompactVector&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  CompactVector& operator=(const CompactVector& o) {
    if (this != &o) CompactVector(o).swap(*this);
    return *this;
  }
  CompactVector& operator=(CompactVector&& o) noexcept {
    if (this != &o) {
      if (p_) release();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  CompactVector& operator=(std::initializer_list<T> list) {
    CompactVector(list).swap(*this);
    return *this;
  }
  CompactVector& operator=(const std::vector<T>& v) {
    CompactVector(v).swap(*this);
    return *this;
  }
  // The test inline: most vectors destroyed are empty or moved from, and release() is often not
  // inlined (it destroys the elements, which for expressions destroy vectors of their own).
  ~CompactVector() {
    if (p_) release();
  }

  void swap(CompactVector& o) noexcept { std::swap(p_, o.p_); }

  [[nodiscard]] size_type size() const noexcept { return p_ ? head()->size : 0; }
  [[nodiscard]] size_type capacity() const noexcept { return p_ ? head()->capacity & ~kArenaBlock : 0; }
  [[nodiscard]] static constexpr size_type max_size() noexcept { return kArenaBlock - 1; }

  T* data() noexcept { return p_ ? elements() : nullptr; }
  const T* data() const noexcept { return p_ ? elements() : nullptr; }
  void reserve(size_type n) {
    if (n > capacity()) reallocate(n);
  }
  void shrink_to_fit() {
    // An arena block is not given back: moving into a smaller one would only add to the arena.
    if (size() == capacity() || (p_ && (head()->capacity & kArenaBlock))) return;
    if (empty()) {
      release();
    } else {
      reallocate(size());
    }
  }
  void clear() noexcept {
    if (!p_) return;
    std::destroy(begin(), end());
    head()->size = 0;
  }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    const size_type n = size();
    if (n == capacity()) {
      // The new element first: `args` may refer to an element of this vector.
      Block grown = allocate(grow(n + 1));
      T* slot;
      try {
        slot = ::new (static_cast<void*>(grown.elements() + n)) T(std::forward<Args>(args)...);
      } catch (...) {
        free_block(grown.p);
        throw;
      }
      move_into(grown);
      adopt(grown.p, n + 1);
      return *slot;
    }
    T* slot = ::new (static_cast<void*>(elements() + n)) T(std::forward<Args>(args)...);
    head()->size = static_cast<std::uint32_t>(n + 1);
    return *slot;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  // `n` more elements, left for the caller to write (a trivial T, such as an index): one capacity
  // test for a list filled from a known count instead of one an element. Room is reserved as
  // reserve(size() + n) does; the pointer is to the first new element.
  T* append_for_overwrite(size_type n)
    requires(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>)
  {
    const size_type old = size();
    if (n == 0) return data() + old;
    reserve(old + n);
    head()->size = static_cast<std::uint32_t>(old + n);
    return elements() + old;
  }
  // `n` elements in place of those held, left for the caller to write (a trivial T): what clear()
  // and append_for_overwrite(n) do, but an empty vector takes one block of exactly `n` at once
  // (no reserve, no move of nothing: a list filled once from a known count).
  T* assign_for_overwrite(size_type n)
    requires(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>)
  {
    if (p_ == nullptr && n != 0) {
      if (n > max_size()) throw std::length_error("CompactVector: more than 2^31 - 1 elements");
      adopt(allocate(n).p, n);
      return elements();
    }
    if (p_) head()->size = 0;
    return append_for_overwrite(n);
  }
  void pop_back() noexcept {
    std::destroy_at(&back());
    --head()->size;
  }
  void resize(size_type n) {
    if (n < size()) {
      erase(begin() + n, end());
      return;
    }
    reserve(n);
    while (size() < n) emplace_back();
  }
  void resize(size_type n, const T& v) {
    if (n < size()) {
      erase(begin() + n, end());
      return;
    }
    reserve(n);
    while (size() < n) emplace_back(v);
  }

  iterator insert(const_iterator pos, const T& v) {
    const size_type at = static_cast<size_type>(pos - begin());
    emplace_back(v);
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  iterator insert(const_iterator pos, T&& v) {
    const size_type at = static_cast<size_type>(pos - begin());
    emplace_back(std::move(v));
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  template <class It>
    requires(!std::is_integral_v<It>)
  iterator insert(const_iterator pos, It first, It last) {
    const size_type at = static_cast<size_type>(pos - begin());
    const size_type old = size();
    append(first, last);
    std::rotate(begin() + at, begin() + old, end());
    return begin() + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    T* f = begin() + (first - begin());
    T* l = begin() + (last - begin());
    if (f == l) return f;
    // The count is tested before the move: gcc 12 otherwise warns of a negative memmove bound.
    const std::ptrdiff_t tail = end() - l;
    T* new_end = tail > 0 ? std::move(l, l + tail, f) : f;
    std::destroy(new_end, end());
    head()->size = static_cast<std::uint32_t>(new_end - begin());
    return f;
  }

  [[nodiscard]] std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  // A copy as a std::vector, where code copies the list into one (as it copied the vector before).
  operator std::vector<T>() const { return to_vector(); }  // NOLINT: reads like the vector it was

  friend bool operator==(const CompactVector& a, const CompactVector& b)
    requires std::equality_comparable<T>
  {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const CompactVector& a, const std::vector<T>& b)
    requires std::equality_comparable<T>
  {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  struct Header {
    std::uint32_t size;
    std::uint32_t capacity;  // with kArenaBlock set when the block came from a BlockSource
  };
  static constexpr std::uint32_t kArenaBlock = 0x80000000u;
  // The elements start after the header, aligned for T.
  // A function, not a constant, so that T may still be incomplete where the vector is declared
  // (an expression's arguments are expressions).
  static constexpr std::size_t head_size() noexcept {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned elements");
    static_assert(std::is_nothrow_move_constructible_v<T>, "growing moves the elements");
    return alignof(T) > sizeof(Header) ? alignof(T) : sizeof(Header);
  }

  struct Block {
    std::byte* p;
    T* elements() const { return reinterpret_cast<T*>(p + head_size()); }
  };

  Header* head() const noexcept { return std::launder(reinterpret_cast<Header*>(p_)); }
  T* elements() const noexcept { return reinterpret_cast<T*>(p_ + head_size()); }

  // The first block holds 16 bytes of elements at least (two indexes, or one 120-byte parsed
  // expression: most lists of big elements hold one), then 1.5x what is needed.
  static size_type grow(size_type needed) {
    constexpr size_type first = sizeof(T) >= 16 ? 1 : 16 / sizeof(T);
    if (needed > max_size()) throw std::length_error("CompactVector: more than 2^31 - 1 elements");
    return std::min<size_type>(max_size(), std::max<size_type>(first, needed + needed / 2));
  }
  static Block allocate(size_type capacity) {
    const std::size_t bytes = head_size() + capacity * sizeof(T);
    std::uint32_t cap = static_cast<std::uint32_t>(capacity);
    std::byte* p;
    const BlockSource* source = detail::block_source;
    // An arena block is aligned only as its header and elements need (8 bytes for every list of
    // the model): a plan holds hundreds of thousands of small lists, and aligning each one to 16
    // left 8 bytes unused in front of every other one.
    if (source && (p = static_cast<std::byte*>(source->allocate(source->owner, bytes, head_size()))) != nullptr) {
      cap |= kArenaBlock;
    } else {
      p = static_cast<std::byte*>(::operator new(bytes));
      detail::heap_list_parts.fetch_add(1, std::memory_order_relaxed);
    }
    ::new (static_cast<void*>(p)) Header{0, cap};
    return {p};
  }
  static void free_block(std::byte* p) noexcept {
    if ((std::launder(reinterpret_cast<Header*>(p))->capacity & kArenaBlock) == 0) {
      ::operator delete(p);
      detail::heap_list_parts.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  // Moves the elements into `to` (which has room) and frees this block; `p_` is left dangling
  // until adopt().
  void move_into(Block to) noexcept {
    if (!p_) return;
    T* from = elements();
    const size_type n = head()->size;
    std::uninitialized_move(from, from + n, to.elements());
    std::destroy(from, from + n);
    free_block(p_);
    p_ = nullptr;
  }
  void adopt(std::byte* p, size_type size) noexcept {
    p_ = p;
    head()->size = static_cast<std::uint32_t>(size);
  }
  void reallocate(size_type capacity) {
    if (capacity > max_size()) throw std::length_error("CompactVector: more than 2^31 - 1 elements");
    const size_type n = size();
    Block to = allocate(capacity);
    move_into(to);
    adopt(to.p, n);
  }
  template <class It>
  void append(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>)
      reserve(size() + static_cast<size_type>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  void release() noexcept {
    if (!p_) return;
    if constexpr (ReleasesOnlyListParts<T>) {
      // No heap part alive: this block and every one its elements hold are in stores, which free
      // them (a plan's operators, torn down, skip the walk over their fields and expressions).
      if (detail::heap_list_parts.load(std::memory_order_relaxed) == 0) {
        p_ = nullptr;
        return;
      }
    }
    std::destroy(begin(), end());
    free_block(p_);
    p_ = nullptr;
  }

  std::byte* p_ = nullptr;
};

}  // namespace planlint
