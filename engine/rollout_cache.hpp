// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/grade.hpp"

namespace weightspace {

// The rollouts of the last `capacity` distinct (weights SHA-256, game, source, episodes) keys,
// least recently used first out. A rollout depends on nothing else, so a hit is the grade
// itself. Entries are shared: one that is evicted while a record still waits on it stays alive
// for that record. Not thread-safe: the batch grader consults it from one serial stage.
class RolloutCache {
 public:
  struct Entry {
    Rollout rollout;  // written once, by the record that inserted the entry
  };

  explicit RolloutCache(std::size_t capacity) : capacity_(capacity) {}

  static std::string key(const std::string& weights_sha256, const GradeRequest& request);

  // The entry for `key` and true when it was there already (a hit, now the most recently
  // used); on a miss, a new empty entry for the caller to fill, and false.
  std::pair<std::shared_ptr<Entry>, bool> find_or_insert(const std::string& key);

  std::size_t size() const { return index_.size(); }

 private:
  using Order = std::list<std::pair<std::string, std::shared_ptr<Entry>>>;
  std::size_t capacity_;
  Order order_;  // most recently used first
  std::unordered_map<std::string, Order::iterator> index_;
};

}  // namespace weightspace
