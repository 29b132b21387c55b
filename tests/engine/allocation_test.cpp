// SPDX-License-Identifier: GPL-3.0-or-later
// "Grading never allocates per step": the heap allocations of a grade do not grow with the
// number of episodes or steps. This binary replaces the global operator new to count them, so
// it holds no other test.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <tuple>
#include <type_traits>
#include <vector>

#include "engine/scheduler.hpp"
#include "games/registry.hpp"
#include "golden_weights.hpp"
#include "policy/policy.hpp"

namespace {

std::atomic<std::int64_t> allocations{0};

void* counted_allocation(std::size_t size, std::size_t alignment) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  void* pointer = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    pointer = std::malloc(size);
  } else {
    const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
    pointer = std::aligned_alloc(alignment, rounded);
  }
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

}  // namespace

// Every replaceable allocation form goes through the counter; the deallocations only free.
void* operator new(std::size_t size) { return counted_allocation(size, 0); }
void* operator new[](std::size_t size) { return counted_allocation(size, 0); }
void* operator new(std::size_t size, std::align_val_t alignment) {
  return counted_allocation(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return counted_allocation(size, static_cast<std::size_t>(alignment));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_allocation(size, 0);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }

namespace weightspace {
namespace {

struct Count {
  std::int64_t allocations = 0;
  std::int64_t steps = 0;
};

// The allocations made while grading `episodes` episodes (the results vector is the caller's).
template <Game G>
Count count_grade(const Weights& weights, int episodes, const RunOptions& options) {
  std::vector<EpisodeResult> results(static_cast<std::size_t>(episodes));
  const std::int64_t before = allocations.load();
  run_episodes<G>(weights, results, options);
  Count count{allocations.load() - before, 0};
  for (const EpisodeResult& result : results) count.steps += result.length;
  return count;
}

TEST(Allocation, CounterSeesAllocations) {
  const std::int64_t before = allocations.load();
  auto* vector = new std::vector<int>(100);
  delete vector;
  EXPECT_EQ(allocations.load() - before, 2);  // the vector and its buffer
}

// A grade allocates the same whether it plays 32 episodes or 96 (thousands of steps more): the
// Policy and, when a thread's slot count changes, its Batch; nothing per episode or per step. One
// thread, so that oneTBB's own bookkeeping stays out of the count; the per-thread work of a
// multi-threaded grade is the same Batch::run.
TEST(Allocation, GradingDoesNotAllocatePerStepOrEpisode) {
  // Dense (set 0), sparse (set 12), all-zero (-1: constant logits, no forward pass).
  for (const int set : {0, 12, -1}) {
    const Weights weights = set == -1 ? Weights{} : testing::golden_weight_set(set);
    for (const int batch : {1, 7, 32}) {
      for (const bool margins : {false, true}) {
        const RunOptions options{1, batch, margins};
        std::apply([&](const auto&... entry) {
          ([&] {
            using G = typename std::remove_cvref_t<decltype(entry)>::type;
            // Both grades use `batch` slots (at most one per episode); the first builds them.
            count_grade<G>(weights, 32, options);
            const Count few = count_grade<G>(weights, 32, options);
            const Count many = count_grade<G>(weights, 96, options);
            EXPECT_GT(many.steps, few.steps);
            EXPECT_EQ(many.allocations, few.allocations)
                << G::name << " set " << set << " batch " << batch << " margins " << margins << ": "
                << few.allocations << " allocations for " << few.steps << " steps, " << many.allocations << " for "
                << many.steps;
          }(), ...);
        }, kRegisteredGames);
      }
    }
  }
}

}  // namespace
}  // namespace weightspace
