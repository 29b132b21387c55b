// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/rollout_cache.hpp"

namespace weightspace {

std::string RolloutCache::key(const std::string& weights_sha256, const GradeRequest& request) {
  // NUL cannot occur in a hex digest; game and source may hold anything else.
  std::string key = weights_sha256;
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

std::pair<std::shared_ptr<RolloutCache::Entry>, bool> RolloutCache::find_or_insert(const std::string& key) {
  if (capacity_ == 0) return {std::make_shared<Entry>(), false};
  if (const auto found = index_.find(key); found != index_.end()) {
    order_.splice(order_.begin(), order_, found->second);
    return {found->second->second, true};
  }
  if (index_.size() >= capacity_) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  order_.emplace_front(key, std::make_shared<Entry>());
  index_.emplace(key, order_.begin());
  return {order_.front().second, false};
}

}  // namespace weightspace
