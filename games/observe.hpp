// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "games/cells.hpp"
#include "games/channel_boards.hpp"

namespace weightspace {

// The boards' observation as ascending active inputs, those in `inputs`.
inline void observe_channels(const ChannelBoards& boards, ActiveInputs& out, const InputMask& inputs = kAllInputs) {
  ObservationBits bits;
  spread_channels(boards, bits);
  bits.extract(out, inputs);
}

// verify.observation(game, "original", env.state()) as ascending active inputs: every active
// input in `inputs`, and perhaps others (a game that writes its own observation lists a few
// dozen inputs, which costs less than filtering them). The fastest way the game offers: its
// own list, its boards spread at once, or its cells and rows painted.
// `raw_channels`: those that feed an output channel `inputs` reads (raw_channels_read), or all.
template <Game G>
void observe(const G& game, ActiveInputs& out, const InputMask& inputs = kAllInputs, unsigned raw_channels = ~0U) {
  if constexpr (WritesObservation<G>) {
    game.write_observation(out);
  } else if constexpr (observes_on_boards<G>) {
    ChannelBoards boards;
    paint_channels(game, boards);
    observe_channels(boards, out, inputs);
  } else {
    observe_painted(game, out, inputs, raw_channels);
  }
}

}  // namespace weightspace
