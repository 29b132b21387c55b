// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/board_inputs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "games/observe.hpp"
#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// Random boards from empty to full (cells 100..127 clear, as painting leaves them) read through
// masks of every size up to kMaxInputs, every way, against spreading and reading back.
TEST(BoardInputs, ListsWhatObserveChannelsListsForSmallMasks) {
  std::mt19937 generator(36);
  std::vector<int> order(kInputs);
  std::iota(order.begin(), order.end(), 0);
  for (int round = 0; round < 1500; ++round) {
    const double density = round % 50 == 0 ? 1.0 : std::uniform_real_distribution<double>(0, 1)(generator);
    ChannelBoards boards;
    for (int channel = 0; channel < kObservationChannels; ++channel) {
      for (int cell = 0; cell < kGridSize * kGridSize; ++cell) {
        if (std::bernoulli_distribution(density)(generator)) boards.channel[static_cast<std::size_t>(channel)] |= CellBoard{1} << cell;
      }
    }
    const int read = round % (BoardInputs::kMaxInputs + 1);  // 0 .. kMaxInputs, the chunk edges among them
    std::shuffle(order.begin(), order.end(), generator);
    InputMask mask;
    for (int i = 0; i < read; ++i) mask.set(order[static_cast<std::size_t>(i)]);
    const BoardInputs inputs(mask);
    ASSERT_TRUE(inputs.usable());
    ActiveInputs want, got;
    observe_channels(boards, want, mask);
    inputs.extract(boards, got);
    ASSERT_EQ(listed(got), listed(want)) << round;
    inputs.extract_portable(boards, got);
    ASSERT_EQ(listed(got), listed(want)) << round;
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) {
      inputs.extract_compressed(boards, got);
      ASSERT_EQ(listed(got), listed(want)) << round;
    }
#endif
  }
}

TEST(BoardInputs, LargerMasksAreNotUsable) {
  InputMask mask;
  for (int input = 0; input < BoardInputs::kMaxInputs; ++input) mask.set(5 * input);
  EXPECT_TRUE(BoardInputs(mask).usable());
  mask.set(1);
  EXPECT_FALSE(BoardInputs(mask).usable());
  EXPECT_FALSE(BoardInputs(kAllInputs).usable());
}

}  // namespace
}  // namespace weightspace
