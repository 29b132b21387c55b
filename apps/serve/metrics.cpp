// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/metrics.hpp"

#include <algorithm>

#include "engine/python_json.hpp"

namespace weightspace::serve {

namespace {

// Prometheus reads Go's float syntax; repr(float) digits are that, but for its spelling of the
// non-finite values, which never occur here (counts and sums of durations).
std::string number(double value) { return python_float_repr(value); }

void counter(std::string& text, const char* name, const char* help, double value) {
  text += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " " +
          number(value) + "\n";
}

void gauge(std::string& text, const char* name, const char* help, double value) {
  text += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n" + name + " " + number(value) +
          "\n";
}

}  // namespace

void Metrics::record(const std::string& endpoint, int status, double seconds) {
  const std::lock_guard lock(mutex_);
  ++requests_[{endpoint, status}];
  Histogram& histogram = latency_[endpoint];
  const auto bucket = std::lower_bound(kBuckets.begin(), kBuckets.end(), seconds) - kBuckets.begin();
  if (bucket < static_cast<std::ptrdiff_t>(kBuckets.size())) ++histogram.buckets[static_cast<std::size_t>(bucket)];
  ++histogram.count;
  histogram.sum += seconds;
}

std::string Metrics::text(const ServiceCounts& engine) const {
  std::string text;
  {
    const std::lock_guard lock(mutex_);
    text += "# HELP weightspace_requests_total HTTP requests answered, by endpoint and status.\n"
            "# TYPE weightspace_requests_total counter\n";
    for (const auto& [key, count] : requests_) {
      text += "weightspace_requests_total{endpoint=\"" + key.first + "\",status=\"" + std::to_string(key.second) +
              "\"} " + std::to_string(count) + "\n";
    }
    text += "# HELP weightspace_request_seconds Time from a request's arrival to its answer.\n"
            "# TYPE weightspace_request_seconds histogram\n";
    for (const auto& [endpoint, histogram] : latency_) {
      const std::string label = "endpoint=\"" + endpoint + "\"";
      std::uint64_t cumulative = 0;
      for (std::size_t index = 0; index < kBuckets.size(); ++index) {
        cumulative += histogram.buckets[index];
        text += "weightspace_request_seconds_bucket{" + label + ",le=\"" + number(kBuckets[index]) + "\"} " +
                std::to_string(cumulative) + "\n";
      }
      text += "weightspace_request_seconds_bucket{" + label + ",le=\"+Inf\"} " + std::to_string(histogram.count) + "\n";
      text += "weightspace_request_seconds_sum{" + label + "} " + number(histogram.sum) + "\n";
      text += "weightspace_request_seconds_count{" + label + "} " + std::to_string(histogram.count) + "\n";
    }
  }
  counter(text, "weightspace_grades_total", "Answers graded (results delivered).", static_cast<double>(engine.grades));
  counter(text, "weightspace_grades_failed_total", "Graded answers that did not parse (parse_success 0).",
          static_cast<double>(engine.failed));
  counter(text, "weightspace_cache_hits_total", "Grades whose rollout was reused from identical weights.",
          static_cast<double>(engine.cached));
  counter(text, "weightspace_steps_total", "Environment steps played.", static_cast<double>(engine.steps));
  counter(text, "weightspace_dropped_total", "Records of cancelled requests that were never graded.",
          static_cast<double>(engine.dropped));
  gauge(text, "weightspace_queue_depth", "Records waiting for the engine.", static_cast<double>(engine.queued));
  gauge(text, "weightspace_in_flight", "Records being graded.", static_cast<double>(engine.in_flight));
  return text;
}

}  // namespace weightspace::serve
