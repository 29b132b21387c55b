// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <memory_resource>

namespace weightspace {

// Memory for one thread's lockstep buffers and policy memo: one 2 MB-aligned block that the
// kernel may back with a transparent huge page (MADV_HUGEPAGE), handed out front to back;
// what does not fit comes from operator new. A fresh process otherwise took a page fault for
// every 4 KB those buffers touched, about a hundred for a short seaquest grade, and a fault
// cost 10-20 us on the VM this was measured on (docs/performance.md, "Round three: process
// start and records"). Nothing is freed before the block itself: its users size their
// buffers once. Without transparent huge pages the block is ordinary memory.
class HugePageBlock final : public std::pmr::memory_resource {
 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageBlock();
  ~HugePageBlock() override;
  HugePageBlock(const HugePageBlock&) = delete;
  HugePageBlock& operator=(const HugePageBlock&) = delete;

  // The bytes taken from the block so far (the rest of its users' memory is the upstream's).
  std::size_t used() const { return used_; }

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  std::byte* block_ = nullptr;  // nullptr: the allocation failed, everything is the upstream's
  std::size_t used_ = 0;
};

}  // namespace weightspace
