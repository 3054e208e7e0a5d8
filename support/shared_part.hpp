// A part of an operator shared by its copies, in one pointer: std::shared_ptr's sharing (copies
// point to the same object, the last one frees it; the count is atomic, as plans may be copied
// and dropped on other threads) without its second pointer (16 -> 8 bytes). The count sits in the
// heap block before the object. Like std::shared_ptr, a const SharedPart gives a non-const object.
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>

namespace planlint {

template <class T>
class SharedPart {
 public:
  SharedPart() noexcept = default;
  SharedPart(std::nullptr_t) noexcept {}  // NOLINT: like std::shared_ptr
  // A new object (value-initialised, like std::make_shared) held by one SharedPart.
  template <class... Args>
  [[nodiscard]] static SharedPart make(Args&&... args) {
    SharedPart s;
    s.b_ = new Block(std::forward<Args>(args)...);
    return s;
  }
  SharedPart(const SharedPart& o) noexcept : b_(o.b_) {
    if (b_) b_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  SharedPart(SharedPart&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
  SharedPart& operator=(const SharedPart& o) noexcept {
    SharedPart(o).swap(*this);
    return *this;
  }
  SharedPart& operator=(SharedPart&& o) noexcept {
    SharedPart(std::move(o)).swap(*this);
    return *this;
  }
  ~SharedPart() { release(); }

  void swap(SharedPart& o) noexcept { std::swap(b_, o.b_); }
  void reset() noexcept {
    release();
    b_ = nullptr;
  }

  [[nodiscard]] T* get() const noexcept { return b_ ? &b_->value : nullptr; }
  T& operator*() const noexcept { return b_->value; }
  T* operator->() const noexcept { return &b_->value; }
  explicit operator bool() const noexcept { return b_ != nullptr; }
  [[nodiscard]] std::size_t use_count() const noexcept { return b_ ? b_->refs.load(std::memory_order_relaxed) : 0; }

  friend bool operator==(const SharedPart& a, std::nullptr_t) noexcept { return a.b_ == nullptr; }
  friend bool operator==(const SharedPart& a, const SharedPart& b) noexcept { return a.b_ == b.b_; }

 private:
  struct Block {
    template <class... Args>
    explicit Block(Args&&... args) : value(std::forward<Args>(args)...) {}
    std::atomic<std::size_t> refs{1};
    T value;
  };
  void release() noexcept {
    if (b_ && b_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete b_;
  }
  Block* b_ = nullptr;
};

}  // namespace planlint
