// SPDX-License-Identifier: GPL-3.0-or-later
// Observing only the inputs a policy reads (an InputMask) lists exactly those inputs of the
// game's painted cells that are in the mask, on every game, whatever channels it leaves out,
// also when only the raw channels feeding the mask are painted;
// and the channel boards (games/channel_boards.hpp) hold exactly the painted inputs, and
// spread back into ObservationBits (each way this build has) list them in input order.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#include "games/cells.hpp"
#include "games/channel_boards.hpp"
#include "games/environment.hpp"
#include "games/observe.hpp"
#include "games/registry.hpp"
#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// Every subset of the six output channels over all cells, then random scatterings of inputs.
std::vector<InputMask> masks() {
  std::vector<InputMask> result;
  for (unsigned channels = 0; channels < 64; ++channels) {
    InputMask mask;
    for (int input = 0; input < kInputs; ++input) {
      if ((channels >> (input % kObservationChannels)) & 1U) mask.set(input);
    }
    result.push_back(mask);
  }
  std::mt19937 generator(17);
  for (int k = 0; k < 16; ++k) {
    std::bernoulli_distribution keep(0.05 * (k + 1));
    InputMask mask;
    for (int input = 0; input < kInputs; ++input) {
      if (keep(generator)) mask.set(input);
    }
    result.push_back(mask);
  }
  return result;
}

// The observation straight from the game's cells, through nothing but the channel table.
template <Game G>
std::set<int> painted_inputs(const G& game) {
  std::set<int> inputs;
  game.paint([&](int y, int x, int channel) {
    for (int output = 0; output < kObservationChannels; ++output) {
      if ((G::observation_masks[channel] >> output) & 1U) {
        inputs.insert((wrap_axis(y) * kGridSize + wrap_axis(x)) * kObservationChannels + output);
      }
    }
  });
  return inputs;
}

// Random-action rollouts of G from the grader's environment seeds: whole episodes (up to
// `episode_steps` steps each) until `states` states have been visited, each passed to
// visit(game, episode, step); stops at the first fatal failure.
template <Game G, class Visit>
void visit_random_states(std::uint32_t action_seed, int states, int episode_steps, Visit&& visit) {
  RandomState actions(action_seed);
  Environment<G> env;
  int steps = 0;
  for (int episode = 0; steps < states; ++episode) {
    env.start_episode(static_cast<std::uint32_t>(1729 + episode));
    for (int step = 0; step < episode_steps; ++step, ++steps) {
      visit(env.game(), episode, step);
      if (::testing::Test::HasFatalFailure()) return;
      if (env.act(static_cast<int>(actions.randint(6))).terminal) break;
    }
  }
}

template <Game G>
void expect_masked_observations_filter_the_full_one() {
  const std::vector<InputMask> selections = masks();
  visit_random_states<G>(99, 2000, 400, [&](const G& game, int episode, int step) {
    const std::set<int> full = painted_inputs(game);
    for (std::size_t m = 0; m < selections.size(); ++m) {
      std::vector<int> want;
      std::ranges::copy_if(full, std::back_inserter(want), [&](int input) { return selections[m].test(input); });
      ActiveInputs masked;
      observe_painted(game, masked, selections[m]);
      ASSERT_EQ(listed(masked), want) << G::name << " episode " << episode << " step " << step << " mask " << m;
      // Painting only the raw channels that feed a read output channel (the memo's keys).
      ObservationBits bits;
      paint_bits(game, bits, raw_channels_read<G>(selections[m]));
      bits.extract(masked, selections[m]);
      ASSERT_EQ(listed(masked), want) << G::name << " episode " << episode << " step " << step << " mask " << m;
      // The same on channel boards (a board key: seaquest's when it has fewer words).
      ChannelBoards boards;
      boards.channel.fill(~ChannelBoards::Board{0});  // paint_channels must not keep what was there
      paint_channels(game, boards, raw_channels_read<G>(selections[m]));
      observe_channels(boards, masked, selections[m]);
      ASSERT_EQ(listed(masked), want) << "boards " << G::name << " episode " << episode << " step " << step << " mask " << m;
      if constexpr (!WritesObservation<G>) {  // the engine's way (a written list is unfiltered)
        observe(game, masked, selections[m], raw_channels_read<G>(selections[m]));
        ASSERT_EQ(listed(masked), want) << G::name << " episode " << episode << " step " << step << " mask " << m;
      }
    }
  });
}

// The inputs the boards hold: bit y * 10 + x of channel c is input (y * 10 + x) * 6 + c.
std::set<int> board_inputs(const ChannelBoards& boards) {
  std::set<int> inputs;
  for (int c = 0; c < kObservationChannels; ++c) {
    for (int cell = 0; cell < 128; ++cell) {
      if ((boards.channel[static_cast<std::size_t>(c)] >> cell) & 1U) inputs.insert(cell * kObservationChannels + c);
    }
  }
  return inputs;
}

// Each way of spreading boards into ObservationBits this build and CPU have, by name.
std::vector<std::pair<const char*, void (*)(const ChannelBoards&, ObservationBits&)>> spreads() {
  std::vector<std::pair<const char*, void (*)(const ChannelBoards&, ObservationBits&)>> ways{
      {"portable", spread_channels_portable}};
#if WEIGHTSPACE_COMPRESS_EXTRACT
  if (detail::cpu_has_compress()) ways.emplace_back("avx512", spread_channels_avx512);
#endif
  return ways;
}

// The boards spread into bits that held every input before (a spread replaces them).
std::vector<int> spread_inputs(const ChannelBoards& boards, void (*spread)(const ChannelBoards&, ObservationBits&)) {
  ObservationBits bits;
  for (int input = 0; input < kInputs; ++input) bits.set(input);
  spread(boards, bits);
  ActiveInputs out;
  bits.extract(out);
  return listed(out);
}

template <Game G>
void expect_boards_hold_the_painted_observation() {
  visit_random_states<G>(7, 20000, 2000, [](const G& game, int episode, int step) {
    ChannelBoards boards;
    boards.channel.fill(~ChannelBoards::Board{0});  // paint_channels must not keep what was there
    paint_channels(game, boards);
    const std::set<int> painted = painted_inputs(game);
    ASSERT_EQ(board_inputs(boards), painted) << G::name << " episode " << episode << " step " << step;
    for (const auto& [name, spread] : spreads()) {
      ASSERT_EQ(spread_inputs(boards, spread), std::vector<int>(painted.begin(), painted.end()))
          << name << " " << G::name << " episode " << episode << " step " << step;
    }
  });
}

// Boards no game paints: every cell and channel, each at random and all at once.
TEST(ChannelBoards, SpreadEveryCellOfEveryChannelInInputOrder) {
  std::mt19937_64 generator(5);
  for (int trial = 0; trial < 2000; ++trial) {
    ChannelBoards boards;
    for (auto& board : boards.channel) {
      const ChannelBoards::Board all_cells = (ChannelBoards::Board{1} << (kGridSize * kGridSize)) - 1;
      board = trial == 0 ? all_cells : ((ChannelBoards::Board{generator()} << 64 | generator()) & all_cells);
      if (trial % 7 == 1) board &= ChannelBoards::Board{generator()};  // sparse boards too
    }
    const std::set<int> want = board_inputs(boards);
    for (const auto& [name, spread] : spreads()) {
      ASSERT_EQ(spread_inputs(boards, spread), std::vector<int>(want.begin(), want.end())) << name << " trial " << trial;
    }
  }
}

TEST(ChannelBoards, HoldThePaintedObservationOnEveryGame) {
  std::apply([](const auto&... entry) {
    (expect_boards_hold_the_painted_observation<typename std::remove_cvref_t<decltype(entry)>::type>(), ...);
  }, kRegisteredGames);
}

TEST(ObservePainted, MaskedEqualsTheFullObservationFiltered) {
  std::apply([](const auto&... entry) {
    (expect_masked_observations_filter_the_full_one<typename std::remove_cvref_t<decltype(entry)>::type>(), ...);
  }, kRegisteredGames);
}

}  // namespace
}  // namespace weightspace
