// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/machine.hpp"

#include <oneapi/tbb/info.h>
#include <unistd.h>

#include <climits>
#include <fstream>

namespace weightspace::app {

namespace {

// The first "model name" of /proc/cpuinfo (x86), else the first "Processor" / "cpu model"
// line other architectures print; "unknown" when there is none.
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key == "model name" || key == "Processor" || key == "cpu model") {
      const std::size_t start = line.find_first_not_of(" \t", colon + 1);
      if (start != std::string::npos) return line.substr(start);
    }
  }
  return "unknown";
}

}  // namespace

Machine this_machine() {
  Machine machine;
  machine.cpu_model = cpu_model();
  machine.cores = tbb::info::default_concurrency();
  machine.simd = simd_level_name(best_simd_level());
  char host[HOST_NAME_MAX + 1] = {};
  machine.hostname = ::gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
  return machine;
}

}  // namespace weightspace::app
