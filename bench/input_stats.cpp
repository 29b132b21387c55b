// SPDX-License-Identifier: GPL-3.0-or-later
// How many inputs layer 1 sums per step for each game's example answer, and how many of them
// start the same as on the previous step (the prefix whose partial sums a step could reuse
// bit for bit). Plays the grader's first episodes one at a time; prints a table.
//
// usage: input_stats [EPISODES]   (default 1000, as the grader)
#include <charconv>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/episode.hpp"
#include "example_answers.hpp"
#include "games/registry.hpp"
#include "policy/policy.hpp"

namespace {

using namespace weightspace;

template <Game G>
void report(int episodes) {
  const Policy policy(bench::example_weights<G>());
  if (policy.constant_logits()) {
    throw std::runtime_error("the example answer of " + std::string(G::name) + " ignores its observation");
  }

  std::int64_t steps = 0, listed = 0, read = 0, unchanged = 0;
  for (int index = 0; index < episodes; ++index) {
    EpisodeState<G> episode;
    episode.start(index);
    ActiveInputs previous, current;
    Logits logits;
    bool ended = false;
    while (!ended) {
      observe(episode.environment.game(), current, policy.inputs());
      int same = 0;
      if (episode.result.length > 0) {  // not on an episode's first step
        while (same < current.count && same < previous.count && current.index[same] == previous.index[same]) ++same;
      }
      for (const std::uint16_t input : current.view()) read += policy.inputs().test(input) ? 1 : 0;
      listed += current.count;
      unchanged += same;
      ++steps;
      policy.forward_batch({&current, 1}, {&logits, 1});
      previous = current;
      ended = episode.advance(logits, false);
    }
  }
  const auto per_step = [steps](std::int64_t total) { return static_cast<double>(total) / static_cast<double>(steps); };
  std::printf("%-16s %5d %6d %9lld %12.2f %10.2f %14.2f\n", std::string(G::name).c_str(), policy.hidden1_units(),
              policy.inputs().count(), static_cast<long long>(steps), per_step(listed), per_step(read),
              per_step(unchanged));
}

}  // namespace

int main(int argc, char** argv) {
  int episodes = 1000;
  if (argc > 1) {
    const std::string_view text = argv[1];
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), episodes);
    if (error != std::errc{} || end != text.data() + text.size()) episodes = 0;
  }
  if (argc > 2 || episodes <= 0) {
    std::fprintf(stderr, "usage: input_stats [EPISODES > 0]\n");
    return 2;
  }
  std::printf("%-16s %5s %6s %9s %12s %10s %14s\n", "example answer", "units", "reads", "steps", "summed/step",
              "read/step", "same prefix/step");
  try {
    report<Asterix>(episodes);
    report<Breakout>(episodes);
    report<Freeway>(episodes);
    report<Seaquest>(episodes);
    report<SpaceInvaders>(episodes);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "input_stats: %s\n", error.what());
    return 1;
  }
}
