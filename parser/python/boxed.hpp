// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <utility>

namespace weightspace {

// An optional value kept on the heap, copied deeply: for members that are rarely present, so
// that the common case pays one pointer instead of their full size.
template <class T>
class Boxed {
 public:
  Boxed() = default;
  explicit Boxed(T value) : pointer_(std::make_unique<T>(std::move(value))) {}
  Boxed(const Boxed& other) : pointer_(other.pointer_ ? std::make_unique<T>(*other.pointer_) : nullptr) {}
  Boxed& operator=(const Boxed& other) {
    if (this != &other) pointer_ = other.pointer_ ? std::make_unique<T>(*other.pointer_) : nullptr;
    return *this;
  }
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;

  explicit operator bool() const { return pointer_ != nullptr; }
  const T& operator*() const { return *pointer_; }
  T& operator*() { return *pointer_; }
  const T* operator->() const { return pointer_.get(); }
  T* operator->() { return pointer_.get(); }

  // The value, default-constructed first if there was none.
  T& ensure() {
    if (!pointer_) pointer_ = std::make_unique<T>();
    return *pointer_;
  }

 private:
  std::unique_ptr<T> pointer_;
};

}  // namespace weightspace
