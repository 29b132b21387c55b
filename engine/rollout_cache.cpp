// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/rollout_cache.hpp"

namespace weightspace {

RolloutCache::Key RolloutCache::key(const std::string& weights_sha256, const GradeRequest& request) {
  // NUL cannot occur in a hex digest; game and source may hold anything else.
  Key key(weights_sha256, &pool_);
  for (const std::string* part : {&request.game, &request.source}) {
    key += '\0';
    key += std::to_string(part->size());
    key += ':';
    key += *part;
  }
  key += '\0';
  key += std::to_string(request.episodes);
  return key;
}

std::pair<std::shared_ptr<RolloutCache::Entry>, bool> RolloutCache::find_or_insert(const Key& key) {
  const std::pmr::polymorphic_allocator<Entry> allocator(&pool_);
  if (capacity_ == 0) return {std::allocate_shared<Entry>(allocator), false};
  if (const auto found = index_.find(key); found != index_.end()) {
    order_.splice(order_.begin(), order_, found->second);
    return {found->second->second, true};
  }
  if (index_.size() >= capacity_) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  order_.emplace_front(key, std::allocate_shared<Entry>(allocator));
  index_.emplace(key, order_.begin());
  return {order_.front().second, false};
}

}  // namespace weightspace
