// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace weightspace::testing {

// tests/golden/<relative>, parsed. The directory is fixed at configure time.
std::filesystem::path golden_path(std::string_view relative);
const nlohmann::json& golden(std::string_view relative);  // parsed once per process

// The golden files' number encodings (tests/golden/README.md, "Conventions").
float f32_from_hex(std::string_view eight_hex_digits);
std::uint32_t f32_bits(float value);
double f64_from_hex(const std::string& python_float_hex);
std::uint64_t f64_bits(double value);
std::vector<float> f32_tensor_from_hex(std::string_view concatenated);

}  // namespace weightspace::testing
