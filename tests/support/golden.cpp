// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/golden.hpp"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>

namespace weightspace::testing {

std::filesystem::path golden_path(std::string_view relative) {
  return std::filesystem::path(WEIGHTSPACE_GOLDEN_DIR) / relative;
}

const nlohmann::json& golden(std::string_view relative) {
  static std::mutex mutex;
  static std::map<std::string, nlohmann::json, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto found = cache.find(relative); found != cache.end()) return found->second;
  std::ifstream in(golden_path(relative));
  if (!in) throw std::runtime_error("cannot open golden file " + golden_path(relative).string());
  return cache.emplace(std::string(relative), nlohmann::json::parse(in)).first->second;
}

float f32_from_hex(std::string_view hex) {
  std::uint32_t bits = 0;
  const auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), bits, 16);
  if (error != std::errc{} || end != hex.data() + hex.size() || hex.size() != 8) {
    throw std::invalid_argument("bad float32 hex: " + std::string(hex));
  }
  return std::bit_cast<float>(bits);
}

std::uint32_t f32_bits(float value) { return std::bit_cast<std::uint32_t>(value); }

double f64_from_hex(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) throw std::invalid_argument("bad float64 hex: " + text);
  return value;
}

std::uint64_t f64_bits(double value) { return std::bit_cast<std::uint64_t>(value); }

std::vector<float> f32_tensor_from_hex(std::string_view concatenated) {
  if (concatenated.size() % 8 != 0) throw std::invalid_argument("tensor hex length not a multiple of 8");
  std::vector<float> values;
  values.reserve(concatenated.size() / 8);
  for (std::size_t i = 0; i < concatenated.size(); i += 8) values.push_back(f32_from_hex(concatenated.substr(i, 8)));
  return values;
}

}  // namespace weightspace::testing
