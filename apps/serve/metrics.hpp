// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weightspace serve`'s /metrics: requests by endpoint and status, their latency histogram,
// and the engine's counts, in the Prometheus text exposition format (version 0.0.4). No I/O.

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "apps/serve/grading_service.hpp"

namespace weightspace::serve {

class Metrics {
 public:
  // Upper bounds of the latency buckets, in seconds (+Inf follows).
  static constexpr std::array<double, 12> kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                      0.1,   0.25,   0.5,   1.0,  2.5,   10.0};

  // One answered request. `endpoint` is the route ("/v1/grade"), or "other" for anything else,
  // so a scan of random paths cannot grow the label set.
  void record(const std::string& endpoint, int status, double seconds);
  // The whole exposition: these requests and the engine's counts.
  std::string text(const ServiceCounts& engine) const;

 private:
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> buckets{};  // not cumulative here
    std::uint64_t count = 0;
    double sum = 0.0;
  };
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_;
  std::map<std::string, Histogram> latency_;
};

}  // namespace weightspace::serve
