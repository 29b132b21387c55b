// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "policy/tanh.hpp"

namespace weightspace::app {

// What a throughput figure depends on. Two runs' speeds are compared only when the CPU model,
// the cores and the SIMD level agree (the host name is for people: identical machines may
// differ in name).
struct Machine {
  std::string cpu_model;
  int cores = 0;  // the threads oneTBB runs with --threads 0 (the process's CPU affinity)
  std::string simd;
  std::string hostname;

  bool same_as(const Machine& other) const {
    return cpu_model == other.cpu_model && cores == other.cores && simd == other.simd;
  }
  // e.g. "Intel(R) Xeon(R) ... , 2 cores, avx512". Here, not in machine.cpp, so that a reader of
  // stored runs (fuzz/fuzz_store.cpp) links without the policy code this_machine() needs.
  std::string describe() const {
    return cpu_model + ", " + std::to_string(cores) + (cores == 1 ? " core, " : " cores, ") + simd;
  }
};

// {"cpu_model", "cores", "simd", "hostname"}: runs' JSON (compare --json, the report's data).
inline void to_json(nlohmann::json& json, const Machine& machine) {
  json = {{"cpu_model", machine.cpu_model},
          {"cores", machine.cores},
          {"simd", machine.simd},
          {"hostname", machine.hostname}};
}

// The SIMD level is named as `weightspace --version` names it (policy's simd_level_name).
Machine this_machine();

}  // namespace weightspace::app
