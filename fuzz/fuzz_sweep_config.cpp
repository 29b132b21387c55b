// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a sweep config (TOML) as `weightspace sweep` reads it: parse_config, the
// whole of load_config but the file system (every answer set path exists here), then
// stored_baseline, which `compare` and `report` apply to the config text a store kept. Only
// UsageError may escape, and an accepted config holds what load_config promises.
#include <cstddef>
#include <cstdint>
#include <string>

#include "apps/cli/errors.hpp"
#include "apps/sweep/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace weightspace::app;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const SweepConfig config = parse_config("sweeps/nightly.toml", text, [](const std::string&) { return true; });
    if (config.answers.empty() || config.name.empty() || config.sources.empty() || config.episodes.empty()) {
      __builtin_trap();
    }
    if (config.speed_min_time < 0.0 || config.speed_min_time > kMaxSpeedMinTime) __builtin_trap();
  } catch (const UsageError& error) {
    if (std::string(error.what()).rfind("sweeps/nightly.toml:", 0) != 0) __builtin_trap();
  }
  try {
    static_cast<void>(stored_baseline(text, "sweeps/nightly.toml"));
  } catch (const UsageError& error) {
    if (std::string(error.what()).rfind("sweeps/nightly.toml:", 0) != 0) __builtin_trap();
  }
  return 0;
}
