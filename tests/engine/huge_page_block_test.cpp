// SPDX-License-Identifier: GPL-3.0-or-later
// HugePageBlock: one 2 MB-aligned block, advised for a transparent huge page, handed out front
// to back with each allocation's alignment; what does not fit comes from operator new.
#include "engine/huge_page_block.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <memory_resource>
#include <sstream>
#include <string>

#include "engine/lockstep.hpp"
#include "engine/policy_memo.hpp"
#include "games/registry.hpp"

namespace weightspace {
namespace {

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// The VmFlags of the mapping that holds `pointer` (/proc/self/smaps), or "" if none does.
std::string vm_flags_at(const void* pointer) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> start >> dash >> end && dash == '-') {
      inside = start <= address(pointer) && address(pointer) < end;
    } else if (inside && line.starts_with("VmFlags:")) {
      return line;
    }
  }
  return "";
}

TEST(HugePageBlock, HandsOutOneAlignedBlockInOrderThenTheUpstreamsMemory) {
  HugePageBlock block;
  void* first = block.allocate(100, 8);
  EXPECT_EQ(address(first) % HugePageBlock::kHugePage, 0u);  // the block's start: a huge page can back it
  void* second = block.allocate(64, 64);
  EXPECT_EQ(address(second) % 64, 0u);
  EXPECT_EQ(address(second), address(first) + 128);  // next, aligned up
  EXPECT_EQ(block.used(), 192u);
  void* large = block.allocate(HugePageBlock::kHugePage, 8);  // does not fit: operator new's
  EXPECT_TRUE(address(large) < address(first) || address(large) >= address(first) + HugePageBlock::kHugePage);
  EXPECT_EQ(block.used(), 192u);
  void* last = block.allocate(HugePageBlock::kHugePage - 192, 1);  // the rest fits exactly
  EXPECT_EQ(address(last), address(first) + 192);
  EXPECT_EQ(block.used(), HugePageBlock::kHugePage);
  block.deallocate(large, HugePageBlock::kHugePage, 8);  // freed (ASan would see a leak or a bad free)
  block.deallocate(second, 64, 64);                      // kept until the block goes
}

TEST(HugePageBlock, IsAdvisedForHugePages) {
  HugePageBlock block;
  void* first = block.allocate(1, 1);
  const std::string flags = vm_flags_at(first);
  ASSERT_FALSE(flags.empty()) << "no mapping in /proc/self/smaps holds the block";
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!enabled) GTEST_SKIP() << "this kernel has no transparent huge pages";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

// The memo's table and entries come from the resource it is given (a lockstep's block).
TEST(HugePageBlock, HoldsAPolicyMemo) {
  HugePageBlock block;
  PolicyMemo memo(&block);
  EXPECT_GE(block.used(), PolicyMemo::kSlots * 2 + PolicyMemo::kMaxEntries * 176);
  EXPECT_LE(block.used(), HugePageBlock::kHugePage);
}

// A lockstep's buffers and memo share its block up to 2 MB (the grade's default 32 slots of
// seaquest fit), and wider locksteps take the rest from operator new.
TEST(HugePageBlock, HoldsALockstepsBuffersAndMemo) {
  const std::size_t memo_bytes = PolicyMemo::kSlots * 2 + PolicyMemo::kMaxEntries * 176;
  const Lockstep<Seaquest> lockstep(32);
  EXPECT_GE(lockstep.block_bytes(), memo_bytes + 32 * sizeof(EpisodeState<Seaquest>));
  const Lockstep<Seaquest> wide(1024);
  EXPECT_LE(wide.block_bytes(), HugePageBlock::kHugePage);
  EXPECT_GT(wide.block_bytes(), 0u);
}

}  // namespace
}  // namespace weightspace
