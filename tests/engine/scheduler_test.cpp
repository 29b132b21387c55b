// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduler's promise: the same per-episode results for every thread count and batch size,
// equal to playing each episode alone with run_episode.
#include "engine/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>

#include "games/board_inputs.hpp"
#include "games/registry.hpp"
#include "golden_weights.hpp"
#include "policy/policy.hpp"

namespace weightspace {
namespace {

// Every thread count and batch size as a grade runs them, and some with the policy memo always
// and never used.
template <Game G>
void expect_schedule_independent(const Weights& weights, int episodes) {
  std::vector<EpisodeResult> reference;
  for (int i = 0; i < episodes; ++i) reference.push_back(run_episode<G>(weights, i));
  for (const PolicyMemoUse memo : {PolicyMemoUse::automatic, PolicyMemoUse::always, PolicyMemoUse::never}) {
    for (const int threads : {1, 2, 3, 8}) {
      for (const int batch : {1, 7, 64}) {
        if (memo != PolicyMemoUse::automatic && (threads == 3 || batch == 1)) continue;
        std::vector<EpisodeResult> results(static_cast<std::size_t>(episodes));
        RunOptions options{threads, batch, false};
        options.memo = memo;
        run_episodes<G>(weights, results, options);
        for (int i = 0; i < episodes; ++i) {
          ASSERT_EQ(results[static_cast<std::size_t>(i)].score, reference[static_cast<std::size_t>(i)].score)
              << G::name << " threads " << threads << " batch " << batch << " memo " << static_cast<int>(memo)
              << " episode " << i;
          ASSERT_EQ(results[static_cast<std::size_t>(i)].length, reference[static_cast<std::size_t>(i)].length)
              << G::name << " threads " << threads << " batch " << batch << " memo " << static_cast<int>(memo)
              << " episode " << i;
        }
      }
    }
  }
}

// An answer that sets only biases: constant logits that are far from uniform, through both
// hidden layers (tanh(b1) @ W2 + b2, then W3) and b3.
Weights biases_only() {
  Weights weights;
  auto b1 = weights.tensor(Tensor::b1);
  auto w2 = weights.tensor(Tensor::W2);
  auto w3 = weights.tensor(Tensor::W3);
  auto b3 = weights.tensor(Tensor::b3);
  b1[3] = 0.7f;
  w2[3 * 32 + 5] = -1.3f;
  w3[5 * 6 + 2] = 2.5f;
  b3[0] = 0.25f;
  b3[4] = -1.5f;
  return weights;
}

TEST(Scheduler, ResultsDoNotDependOnThreadsOrBatchSize) {
  // Dense random weights (set 0) and a sparse chain (set 12) give varied episode lengths; the
  // engine runs them through a full and a packed Policy. All-zero weights (-1) and biases
  // alone (-2) give constant logits, uniform and not: no observation and no forward pass.
  for (const int set : {0, 12, -1, -2}) {
    const Weights weights = set == -1 ? Weights{} : set == -2 ? biases_only() : testing::golden_weight_set(set);
    ASSERT_EQ(Policy(weights).constant_logits().has_value(), set < 0) << "set " << set;
    std::apply([&](const auto&... entry) {
      (expect_schedule_independent<typename std::remove_cvref_t<decltype(entry)>::type>(weights, 40), ...);
    }, kRegisteredGames);
  }
}

// With constant logits the engine skips observing every game but these two, whose observation
// raises in rare states (freeway's speed-0 car, seaquest's entity at column 10): there the
// grader crashes, and so must the grade.
static_assert(observation_may_raise<Freeway> && observation_may_raise<Seaquest>);
static_assert(!observation_may_raise<Breakout> && !observation_may_raise<SynthSeaquest>);

// A grade whose memo stops paying goes on without it, part-way through its episodes, with the
// same results. These dense weights on asterix hit just under half of their lookups, so the
// rule on hits leaves the memo after its first window of lookups. (An automatic grade decides
// by time, which differs between builds: a scalar forward pass makes the memo pay.)
TEST(Scheduler, MemoLeftPartWayGivesTheSameResults) {
  const Weights weights = testing::golden_weight_set(0);
  std::vector<EpisodeResult> without(300), by_hits(300);
  RunOptions options{1, 32, false};
  options.memo = PolicyMemoUse::never;
  run_episodes<Asterix>(weights, without, options);
  PolicyMemoStats stats;
  options.memo = PolicyMemoUse::hit_rate;
  options.memo_stats = &stats;
  run_episodes<Asterix>(weights, by_hits, options);
  EXPECT_EQ(stats.runs_without, 1);
  EXPECT_GE(stats.lookups, MemoChoice::kHitRateWindow);
  EXPECT_LT(stats.lookups, std::accumulate(by_hits.begin(), by_hits.end(), std::int64_t{0},
                                           [](std::int64_t sum, const EpisodeResult& r) { return sum + r.length; }));
  for (std::size_t i = 0; i < without.size(); ++i) {
    ASSERT_EQ(by_hits[i].score, without[i].score) << "episode " << i;
    ASSERT_EQ(by_hits[i].length, without[i].length) << "episode " << i;
  }
}

// A clock whose readings advance by 3, 0.05 and 0.05 in turn, so that the stretches an
// automatic memo's choice times (windows, the first quarter of a trial) come out fast and slow
// in an order that keeps switching the memo off and on.
int seesaw_reads = 0;
double seesaw_clock() {
  static double now = 0.0;
  now += ++seesaw_reads % 3 == 0 ? 3.0 : 0.05;
  return now;
}

// A policy that reads channel 0 alone (the player's cell): its observations repeat, so its memo
// hits and is kept, and every step still runs the forward pass's three layers on a miss.
Weights player_weights() {
  Weights weights;
  const std::span<float> w1 = weights.tensor(Tensor::W1);
  for (int cell = 0; cell < 100; ++cell) w1[static_cast<std::size_t>(cell * 6 * kHiddenCount)] = 0.01f * cell - 0.5f;
  weights.tensor(Tensor::W2)[0] = 1.5f;
  const std::span<float> w3 = weights.tensor(Tensor::W3);
  for (int a = 0; a < kActionCount; ++a) w3[static_cast<std::size_t>(a)] = 0.4f * a - 1.0f;
  return weights;
}

// Every way a game keys its memo: boards (breakout), its own written list (freeway), cells or
// boards by the shorter key (seaquest).
template <Game G>
void expect_switching_changes_nothing(int episodes) {
  const Weights weights = player_weights();
  const Policy policy(weights);
  std::vector<EpisodeResult> results(static_cast<std::size_t>(episodes));
  EpisodeQueue queue(episodes, 1);
  Lockstep<G> lockstep(32);
  seesaw_reads = 0;
  const PolicyMemoStats stats = lockstep.run(policy, queue, results, false, PolicyMemoUse::automatic, seesaw_clock);
  std::int64_t steps = 0;
  for (const EpisodeResult& result : results) steps += result.length;
  ASSERT_GT(steps, 40 * MemoChoice::kWindowSteps) << G::name;  // windows enough for many trials
  EXPECT_GT(stats.lookups, (MemoChoice::kFirstTrial - 1) * MemoChoice::kWindowSteps) << G::name;
  EXPECT_LT(stats.lookups, steps * 3 / 4) << G::name;  // a good part of the run went without it
  for (std::size_t i = 0; i < results.size(); ++i) {
    const EpisodeResult alone = run_episode<G>(weights, static_cast<std::int64_t>(i));
    ASSERT_EQ(results[i].score, alone.score) << G::name << " episode " << i;
    ASSERT_EQ(results[i].length, alone.length) << G::name << " episode " << i;
  }
}

TEST(Scheduler, TheMemoSwitchedOnAndOffPartWayGivesTheSameResults) {
  expect_switching_changes_nothing<Breakout>(8000);
  expect_switching_changes_nothing<Freeway>(64);
  expect_switching_changes_nothing<Seaquest>(4000);
  expect_switching_changes_nothing<Asterix>(2000);
}

// A policy reading at most BoardInputs::kMaxInputs inputs has them looked up on the boards of a
// game observed on boards (space_invaders), and of a memo miss keyed on boards (seaquest's,
// the shorter key here); a policy reading more has its boards spread. Both with and without
// the memo, at every width.
TEST(Scheduler, ReadInputsLookedUpOnBoardsGiveTheSameResults) {
  // The player's channel in 99 cells, and channel 1 (aliens, sharks) in the first 28: 127
  // inputs, several of them active at once; then 40 more of channel 2.
  Weights few = player_weights();
  const std::span<float> few_w1 = few.tensor(Tensor::W1);
  for (int cell = 0; cell < 28; ++cell) few_w1[static_cast<std::size_t>((cell * 6 + 1) * kHiddenCount)] = 0.05f * (cell % 5) - 0.1f + 0.01f;
  Weights more = few;
  const std::span<float> more_w1 = more.tensor(Tensor::W1);
  for (int cell = 0; cell < 40; ++cell) more_w1[static_cast<std::size_t>((cell * 6 + 2) * kHiddenCount)] = 0.3f;
  ASSERT_EQ(Policy(few).inputs().count(), BoardInputs::kMaxInputs - 1);
  ASSERT_TRUE(BoardInputs(Policy(few).inputs()).usable());
  ASSERT_FALSE(BoardInputs(Policy(more).inputs()).usable());
  for (const Weights* weights : std::initializer_list<const Weights*>{&few, &more}) {
    expect_schedule_independent<SpaceInvaders>(*weights, 24);
    expect_schedule_independent<SynthSpaceInvaders>(*weights, 24);
    expect_schedule_independent<Seaquest>(*weights, 16);
  }
}

// A game that writes its observation lists inputs the policy may not read; for a policy that
// reads the player's cell alone (1 or 2 of freeway's 17 inputs a step) the Lockstep leaves the
// others out (FilterChoice), with and without the memo, at every width.
TEST(Scheduler, WrittenObservationsFilteredGiveTheSameResults) {
  const Weights weights = player_weights();
  expect_schedule_independent<Freeway>(weights, 24);
  expect_schedule_independent<Asterix>(weights, 40);
  expect_schedule_independent<SynthFreeway>(weights, 12);
  expect_schedule_independent<SynthAsterix>(weights, 24);
}

// A memo that pays stays on for the whole grade; one that has no entries is never consulted.
TEST(Scheduler, MemoStatsCountEveryStepOfAGradeThatKeepsIt) {
  const Weights weights = testing::golden_weight_set(12);
  std::vector<EpisodeResult> results(200);
  RunOptions options{2, 16, false};
  options.memo = PolicyMemoUse::always;
  PolicyMemoStats stats;
  options.memo_stats = &stats;
  run_episodes<Breakout>(weights, results, options);
  std::int64_t steps = 0;
  for (const EpisodeResult& result : results) steps += result.length;
  EXPECT_EQ(stats.lookups, steps);
  EXPECT_GT(stats.hits, 0);
  EXPECT_LE(stats.hits, stats.lookups - stats.entries);  // each entry was a miss first
  EXPECT_EQ(stats.runs_without, 0);

  PolicyMemoStats constant;
  options.memo_stats = &constant;
  run_episodes<Breakout>(Weights{}, results, options);
  EXPECT_EQ(constant.lookups, 0);
  EXPECT_EQ(constant.runs_without, 2);  // both threads' runs
}

TEST(Scheduler, MarginTrackingDoesNotChangeResults) {
  const Weights weights = testing::golden_weight_set(0);
  std::vector<EpisodeResult> plain(50), tracked(50);
  run_episodes<Breakout>(weights, plain, RunOptions{2, 8, false});
  run_episodes<Breakout>(weights, tracked, RunOptions{2, 8, true});
  for (std::size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(plain[i].score, tracked[i].score);
    EXPECT_EQ(plain[i].length, tracked[i].length);
    EXPECT_LT(tracked[i].min_margin, 1.0);
  }
}

// A game whose episodes last 3 to 22 steps (drawn at reset), paying the action as reward, and
// which can be told to raise GameError on the second step of the episodes of one length, once
// a hundred episodes have started (so that others are part-way and waiting to start then).
struct Faulty {
  static constexpr std::string_view name = "faulty";
  static constexpr int channels = 1;
  static constexpr std::array<std::uint8_t, 1> observation_masks = {1};
  static inline std::int64_t failing_length = 0;  // 0: never raise
  static inline std::atomic<int> resets{0};

  explicit Faulty(bool) {}
  void reset(RandomState& random) {
    length_ = 3 + random.randint(20);
    step_ = 0;
    resets.fetch_add(1, std::memory_order_relaxed);
  }
  StepResult act(int action, RandomState&) {
    ++step_;
    if (length_ == failing_length && step_ == 2 && resets.load(std::memory_order_relaxed) > 100) {
      throw GameError("IndexError", "faulty: told to fail");
    }
    return {action, step_ >= length_};
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    cell(static_cast<int>(step_ % 10), static_cast<int>(length_ % 10), 0);
  }

 private:
  std::int64_t length_ = 0;
  std::int64_t step_ = 0;
};

// A grade that fails part-way (episodes started, others waiting to be seeded) leaves nothing
// behind in the threads' reusable batches: the next grade on the same threads is exact.
TEST(Scheduler, BatchesAreReusableAfterAGameError) {
  const Weights weights = testing::golden_weight_set(0);
  for (const int threads : {1, 2}) {
    std::vector<EpisodeResult> before(300), after(300);
    Faulty::failing_length = 0;
    run_episodes<Faulty>(weights, before, RunOptions{threads, 32, false});
    Faulty::failing_length = 17;
    Faulty::resets = 0;
    std::vector<EpisodeResult> failed(300);
    EXPECT_THROW(run_episodes<Faulty>(weights, failed, RunOptions{threads, 32, false}), GameError);
    Faulty::failing_length = 0;
    run_episodes<Faulty>(weights, after, RunOptions{threads, 32, false});
    for (std::size_t i = 0; i < before.size(); ++i) {
      ASSERT_EQ(after[i].score, before[i].score) << "threads " << threads << " episode " << i;
      ASSERT_EQ(after[i].length, before[i].length) << "threads " << threads << " episode " << i;
    }
  }
}

// A game of 50-step episodes whose 10th step of all raises the run's cancel flag, as Ctrl-C
// would: the point in the run is fixed, so the test does not depend on timing.
struct Cancelling {
  static constexpr std::string_view name = "cancelling";
  static constexpr int channels = 1;
  static constexpr std::array<std::uint8_t, 1> observation_masks = {1};
  static inline std::atomic<bool> cancel{false};
  static inline std::atomic<std::int64_t> steps{0};

  explicit Cancelling(bool) {}
  void reset(RandomState&) { step_ = 0; }
  StepResult act(int, RandomState&) {
    if (steps.fetch_add(1, std::memory_order_relaxed) + 1 == 10) cancel.store(true);
    return {1, ++step_ >= 50};
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    cell(static_cast<int>(step_ % 10), 0, 0);
  }

 private:
  std::int64_t step_ = 0;
};

// A cancel stops the run within a step, although the guided schedule handed the thread half
// of the episodes (50,000) at once: none of the episodes playing then finishes, none starts.
TEST(Scheduler, CancelStopsWithinAStepOfTheThreadsRun) {
  const Weights weights = testing::golden_weight_set(0);
  for (const int threads : {1, 2}) {
    Cancelling::cancel = false;
    Cancelling::steps = 0;
    std::vector<EpisodeResult> results(100'000);
    RunOptions options{threads, 32, false};
    options.cancel = &Cancelling::cancel;
    run_episodes<Cancelling>(weights, results, options);
    const auto finished = std::count_if(results.begin(), results.end(), [](const EpisodeResult& r) { return r.length > 0; });
    EXPECT_EQ(finished, 0) << "threads " << threads;
    // Each thread notices at its next step: at most one step of each of its 32 slots more.
    EXPECT_LE(Cancelling::steps.load(), 10 + 2 * 32 * threads) << "threads " << threads;
  }
}

TEST(Scheduler, RejectsInvalidOptions) {
  const Weights weights;
  std::vector<EpisodeResult> results(3);
  EXPECT_THROW(run_episodes<Asterix>(weights, results, RunOptions{1, 0, false}), std::invalid_argument);
  EXPECT_THROW(run_episodes<Asterix>(weights, results, RunOptions{-1, 4, false}), std::invalid_argument);
}

}  // namespace
}  // namespace weightspace
