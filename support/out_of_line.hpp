// A rarely used part of an operator kept out of line: one pointer in the Operator, the data on
// the heap only for the operators that have it (joins, operators with Statistics). Reading an
// absent part gives an empty value without allocating; writing goes through edit().
#pragma once

#include <memory>

namespace planlint {

template <class T>
class OutOfLine {
 public:
  OutOfLine() = default;
  OutOfLine(const OutOfLine& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  OutOfLine(OutOfLine&&) noexcept = default;
  OutOfLine& operator=(const OutOfLine& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  OutOfLine& operator=(OutOfLine&&) noexcept = default;
  OutOfLine& operator=(T value) {
    p_ = std::make_unique<T>(std::move(value));
    return *this;
  }
  ~OutOfLine() = default;

  const T* operator->() const { return p_ ? p_.get() : &empty(); }
  const T& operator*() const { return p_ ? *p_ : empty(); }
  // The part, created (empty) on first write.
  T& edit() {
    if (!p_) p_ = std::make_unique<T>();
    return *p_;
  }
  [[nodiscard]] bool present() const { return p_ != nullptr; }
  void reset() { p_.reset(); }

 private:
  static const T& empty() {
    static const T e{};
    return e;
  }
  std::unique_ptr<T> p_;
};

}  // namespace planlint
