// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/grade.hpp"

namespace weightspace {

// The rollouts of the last `capacity` distinct (weights SHA-256, game, source, episodes) keys,
// least recently used first out. A rollout depends on nothing else, so a hit is the grade
// itself. Entries are shared: one that is evicted while a record still waits on it stays alive
// for that record. Not thread-safe: the batch grader consults it from one serial stage.
// Its nodes, keys and entries live in a pool of their own: interleaved with a parse's
// short-lived large buffers on the main heap, thousands of small long-lived allocations held
// a freed buffer each and grew a 20,000-answer batch to 600 MB.
class RolloutCache {
 public:
  struct Entry {
    Rollout rollout;  // written once, by the record that inserted the entry
  };

  explicit RolloutCache(std::size_t capacity) : capacity_(capacity) {}

  using Key = std::pmr::string;
  Key key(const std::string& weights_sha256, const GradeRequest& request);

  // The entry for `key` and true when it was there already (a hit, now the most recently
  // used); on a miss, a new empty entry for the caller to fill, and false.
  std::pair<std::shared_ptr<Entry>, bool> find_or_insert(const Key& key);

  std::size_t size() const { return index_.size(); }
  // Forgets every entry (a cancelled run may have left entries no rollout was written to).
  void clear() {
    index_.clear();
    order_.clear();
  }

 private:
  // Synchronized: an entry's last owner may let go of it from another pipeline stage.
  std::pmr::synchronized_pool_resource pool_;
  std::size_t capacity_;
  using Order = std::pmr::list<std::pair<Key, std::shared_ptr<Entry>>>;
  Order order_{&pool_};  // most recently used first
  std::pmr::unordered_map<Key, Order::iterator> index_{&pool_};
};

}  // namespace weightspace
