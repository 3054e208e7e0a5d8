// The read and element-access surface of a list whose elements sit side by side: iteration
// (iterators are pointers), [], at, front, back, empty, over the derived list's data() and size().
// CompactVector and IndexVector store their elements differently (a block with a header; one
// index inline or a block) and share this surface (CRTP: no virtual calls, no extra bytes).
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>

namespace planlint {

template <class Derived, class T>
class ContiguousAccess {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  [[nodiscard]] bool empty() const noexcept { return self().size() == 0; }
  iterator begin() noexcept { return self().data(); }
  iterator end() noexcept { return self().data() + self().size(); }
  const_iterator begin() const noexcept { return self().data(); }
  const_iterator end() const noexcept { return self().data() + self().size(); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  T& operator[](size_type i) noexcept { return self().data()[i]; }
  const T& operator[](size_type i) const noexcept { return self().data()[i]; }
  T& at(size_type i) {
    if (i >= self().size()) throw std::out_of_range("list index out of range");
    return self().data()[i];
  }
  const T& at(size_type i) const {
    if (i >= self().size()) throw std::out_of_range("list index out of range");
    return self().data()[i];
  }
  T& front() noexcept { return self().data()[0]; }
  const T& front() const noexcept { return self().data()[0]; }
  T& back() noexcept { return self().data()[self().size() - 1]; }
  const T& back() const noexcept { return self().data()[self().size() - 1]; }

 protected:
  ContiguousAccess() = default;
  ~ContiguousAccess() = default;

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace planlint
