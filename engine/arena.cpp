// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/arena.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace weightspace {

tbb::task_arena& shared_arena(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  const std::lock_guard lock(mutex);
  auto& arena = arenas[threads];
  if (!arena) {
    const int automatic = tbb::task_arena::automatic;  // a copy: the constant has no definition
    arena = std::make_unique<tbb::task_arena>(threads > 0 ? threads : automatic);
    arena->initialize();
  }
  return *arena;
}

}  // namespace weightspace
