// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace weightspace {

// The six float32 tensors of the 600 -> 32 -> 32 -> 6 tanh MLP, zero-initialised, stored
// back to back in the grader's order (W1, b1, W2, b2, W3, b3), each row-major.
enum class Tensor { W1, b1, W2, b2, W3, b3 };

struct TensorShape {
  std::string_view name;
  int rows;     // first dimension
  int columns;  // second dimension; 0 for a 1-D tensor
  std::size_t offset;

  std::size_t size() const { return static_cast<std::size_t>(rows) * (columns == 0 ? 1 : columns); }
  int dimensions() const { return columns == 0 ? 1 : 2; }
};

inline constexpr int kInputCount = 600;
inline constexpr int kHiddenCount = 32;
inline constexpr int kActionCount = 6;
inline constexpr std::size_t kWeightCount = 600 * 32 + 32 + 32 * 32 + 32 + 32 * 6 + 6;

inline constexpr std::array<TensorShape, 6> kTensorShapes{{
    {"W1", 600, 32, 0},
    {"b1", 32, 0, 19200},
    {"W2", 32, 32, 19232},
    {"b2", 32, 0, 20256},
    {"W3", 32, 6, 20288},
    {"b3", 6, 0, 20480},
}};

constexpr const TensorShape& shape_of(Tensor tensor) { return kTensorShapes[static_cast<int>(tensor)]; }

class Weights {
 public:
  Weights() : storage_(std::make_unique<Storage>()) {}
  Weights(const Weights& other) : storage_(std::make_unique<Storage>(*other.storage_)) {}
  Weights& operator=(const Weights& other) {
    if (this == &other) return *this;
    if (storage_) {
      *storage_ = *other.storage_;
    } else {  // assigning to a moved-from Weights
      storage_ = std::make_unique<Storage>(*other.storage_);
    }
    return *this;
  }
  Weights(Weights&&) noexcept = default;
  Weights& operator=(Weights&&) noexcept = default;

  std::span<float> tensor(Tensor t) { return {data() + shape_of(t).offset, shape_of(t).size()}; }
  std::span<const float> tensor(Tensor t) const { return {data() + shape_of(t).offset, shape_of(t).size()}; }

  // All 20486 values in the grader's concatenation order (what weights_sha256 hashes).
  std::span<float> values() { return storage_->values; }
  std::span<const float> values() const { return storage_->values; }

  const float* w1() const { return data() + shape_of(Tensor::W1).offset; }
  const float* b1() const { return data() + shape_of(Tensor::b1).offset; }
  const float* w2() const { return data() + shape_of(Tensor::W2).offset; }
  const float* b2() const { return data() + shape_of(Tensor::b2).offset; }
  const float* w3() const { return data() + shape_of(Tensor::W3).offset; }
  const float* b3() const { return data() + shape_of(Tensor::b3).offset; }

 private:
  // Cache-line aligned, so that each 32-float (128-byte) row of W1 and W2 spans exactly two
  // lines; every tensor offset is a multiple of 8 floats.
  struct alignas(64) Storage {
    std::array<float, kWeightCount> values{};
  };
  float* data() { return storage_->values.data(); }
  const float* data() const { return storage_->values.data(); }

  std::unique_ptr<Storage> storage_;
};

}  // namespace weightspace
