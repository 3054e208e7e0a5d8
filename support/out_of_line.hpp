// A rarely used part of an operator kept out of line: one pointer in the Operator, the data only
// for the operators that have it (joins, operators with Statistics). Reading an absent part gives
// an empty value without allocating; writing goes through edit().
//
// Where the part lives: while a BlockScope (text.hpp) is open on the thread, in the plan's
// TextStore, as CompactVector's blocks do (a plan has a part for most of its operators: a heap
// block each cost a header and the rounding on top of the part, and a call to malloc and free);
// otherwise on the heap. The low bit of the pointer says which: a part in the store is destroyed
// with its OutOfLine but its bytes go with the store. Copies take a new part from where parts
// come from at the time of the copy; moves take the pointer (the same rule as CompactVector's:
// a plan's parts live as long as its store, which the plan holds).
#pragma once

#include <cstdint>
#include <new>
#include <utility>

#include "support/compact_vector.hpp"

namespace planlint {

template <class T>
class OutOfLine {
  static_assert(alignof(T) >= 2, "the low bit of the pointer marks a part in a store");
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "a store's blocks are aligned as operator new's");

 public:
  OutOfLine() noexcept = default;
  OutOfLine(const OutOfLine& o) : p_(o.p_ ? make(*o.get()) : 0) {}
  OutOfLine(OutOfLine&& o) noexcept : p_(std::exchange(o.p_, 0)) {}
  OutOfLine& operator=(const OutOfLine& o) {
    if (this != &o) {
      OutOfLine copy(o);
      std::swap(p_, copy.p_);
    }
    return *this;
  }
  OutOfLine& operator=(OutOfLine&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, 0);
    }
    return *this;
  }
  OutOfLine& operator=(T value) {
    if (p_) *get() = std::move(value);
    else p_ = make(std::move(value));
    return *this;
  }
  ~OutOfLine() { release(); }

  const T* operator->() const { return p_ ? get() : &empty(); }
  const T& operator*() const { return p_ ? *get() : empty(); }
  // The part, created (empty) on first write.
  T& edit() {
    if (!p_) p_ = make();
    return *get();
  }
  [[nodiscard]] bool present() const { return p_ != 0; }
  void reset() { release(); }
  // Whether the part lives in a store (tests).
  [[nodiscard]] bool in_store() const { return (p_ & kInStore) != 0; }

 private:
  static constexpr std::uintptr_t kInStore = 1;

  static const T& empty() {
    static const T e{};
    return e;
  }
  [[nodiscard]] T* get() const noexcept { return reinterpret_cast<T*>(p_ & ~kInStore); }
  template <class... Args>
  static std::uintptr_t make(Args&&... args) {
    if (const BlockSource* s = detail::block_source) {
      if (void* m = s->allocate(s->owner, sizeof(T), alignof(T))) {
        // Should T's constructor throw, the bytes stay in the store until it goes.
        return reinterpret_cast<std::uintptr_t>(::new (m) T(std::forward<Args>(args)...)) | kInStore;
      }
    }
    return reinterpret_cast<std::uintptr_t>(new T(std::forward<Args>(args)...));
  }
  void release() noexcept {
    if (p_ == 0) return;
    if (p_ & kInStore) get()->~T();
    else delete get();
    p_ = 0;
  }

  std::uintptr_t p_ = 0;
};

}  // namespace planlint
