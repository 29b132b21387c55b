// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/huge_page_block.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <memory>

namespace weightspace {

HugePageBlock::HugePageBlock()
    : block_(static_cast<std::byte*>(std::aligned_alloc(kHugePage, kHugePage))) {
  // Advice only: a kernel without transparent huge pages keeps 4 KB pages.
  if (block_ != nullptr) ::madvise(block_, kHugePage, MADV_HUGEPAGE);
}

HugePageBlock::~HugePageBlock() { std::free(block_); }

void* HugePageBlock::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (block_ != nullptr) {
    void* start = block_ + used_;
    std::size_t space = kHugePage - used_;
    if (std::align(alignment, bytes, start, space) != nullptr) {
      used_ = static_cast<std::size_t>(static_cast<std::byte*>(start) - block_) + bytes;
      return start;
    }
  }
  return std::pmr::new_delete_resource()->allocate(bytes, alignment);
}

void HugePageBlock::do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) {
  const auto* byte = static_cast<std::byte*>(pointer);
  if (block_ != nullptr && byte >= block_ && byte < block_ + kHugePage) return;  // freed with the block
  std::pmr::new_delete_resource()->deallocate(pointer, bytes, alignment);
}

}  // namespace weightspace
