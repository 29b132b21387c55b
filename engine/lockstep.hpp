// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <vector>

#include <weightspace/run_options.hpp>

#include "engine/episode.hpp"
#include "engine/filter_choice.hpp"
#include "engine/huge_page_block.hpp"
#include "engine/memo_choice.hpp"
#include "engine/policy_memo.hpp"
#include "engine/seed_plan.hpp"
#include "games/board_inputs.hpp"
#include "games/input_filter.hpp"
#include "policy/policy.hpp"

namespace weightspace {

// The episode indices [0, count) handed out in runs of consecutive indices to `threads`
// threads, as OpenMP's guided schedule does: each run is a share of what is left (at least
// `minimum`), so runs shrink towards the end and the threads finish within a few episodes of
// each other, whatever the episodes' lengths. Large early runs keep the threads from contending
// for the counter and for the cache lines of neighbouring results (with runs of 8, dense
// breakout in engine_bench sped up 1.85-1.89x on two threads; with guided runs, 1.95-1.97x).
class EpisodeQueue {
 public:
  EpisodeQueue(std::int64_t count, int threads, const std::atomic<bool>* cancel = nullptr)
      : count_(count), divisor_(2 * std::int64_t{std::max(threads, 1)}), cancel_(cancel) {}

  struct Run {
    std::int64_t first = 0;
    std::int64_t end = 0;
    bool empty() const { return first >= end; }
  };

  // The next run of at least `minimum` indices (fewer at the very end); empty once all are
  // taken.
  Run take(std::int64_t minimum) {
    if (cancelled()) return {count_, count_};
    const std::int64_t left = count_ - next_.load(std::memory_order_relaxed);
    const std::int64_t size = std::max(minimum, left / divisor_);
    const std::int64_t first = next_.fetch_add(size, std::memory_order_relaxed);
    return {std::min(first, count_), std::min(first + size, count_)};
  }

  // Whether the run was cancelled. A run taken is not a promise to play it: a guided run can
  // be half of all episodes (50,000 of a 100,000-episode grade on one thread, 7.6 s of
  // freeway), so a Lockstep asks before each episode it starts and before each step.
  bool cancelled() const { return cancel_ != nullptr && cancel_->load(std::memory_order_relaxed); }

 private:
  std::atomic<std::int64_t> next_{0};
  std::int64_t count_;
  std::int64_t divisor_;
  const std::atomic<bool>* cancel_;
};

// B episodes of one game stepped in lockstep: one batched forward pass of the Policy over the
// running slots' observations, each slot's action draw, one batched sampling pass, then slot
// by slot: act, and observe the new state at once, while it is still in the cache (2-10% a
// step over a separate pass; a slot is also observed when its episode starts). When the
// logits are constant, neither observing nor the forward pass runs, and each draw is looked
// up in the one exact cdf. Otherwise, while MemoChoice finds it faster, each observation is
// looked up in the thread's PolicyMemo first: only the misses are read back and go through the
// forward pass and the batched sampler; a hit's action comes from its stored exact cdf. A slot
// whose episode ends takes the next episode of the queue. Every slot owns its episode's
// generators, so the results are those of run_episode() whatever B is and whatever the memo
// holds. All buffers are sized once, in the constructor, in one block of memory that may be a
// huge page (HugePageBlock).
template <Game G>
class Lockstep {
 public:
  // The step loop asks for the lines of the slot this many places ahead: a slot is ~5 KB
  // (a game and two generators), and 32 of them do not stay in L1 between steps.
  static constexpr std::size_t kPrefetchAhead = 2;
  // A game that paints whole boards is keyed on them: a hit then costs a few shifts, where
  // spreading its cells over ObservationBits cost 30% of a step (docs/performance.md).
  // A game that paints cells (seaquest) is keyed on boards in a grade whose board key has fewer
  // words than its cell key: a cell costs about the same painted either way, and each key word
  // costs its hash and compare (the seaquest example reads 2 of 6 channels: 4 words against 10;
  // dense weights read all: 12 against 10). A game that writes its observation keeps cell keys.
  static constexpr bool kMayKeyOnBoards = !PaintsBoards<G> && !WritesObservation<G>;
  // Whether a run may read observations off channel boards (BoardInputs): a game observed on
  // them (observes_on_boards implies PaintsBoards), or a memo miss keyed on them.
  static constexpr bool kReadsBoards = PaintsBoards<G> || kMayKeyOnBoards;

  explicit Lockstep(int size)
      : slots_(static_cast<std::size_t>(std::max(size, 1)), &memory_),
        observations_(slots_.size(), &memory_),
        logits_(slots_.size(), &memory_),
        uniforms_(slots_.size(), &memory_),
        actions_(slots_.size(), &memory_),
        running_(slots_.size(), &memory_),
        starting_(&memory_),
        starting_indices_(&memory_),
        starting_slots_(&memory_),
        memo_(&memory_),
        edges_(slots_.size(), &memory_),
        miss_keys_(slots_.size(), &memory_),
        miss_of_(slots_.size(), &memory_),
        miss_actions_(slots_.size(), &memory_),
        keys_(slots_.size(), &memory_),
        boards_(slots_.size(), &memory_),
        bits_(slots_.size(), &memory_) {
    starting_.reserve(slots_.size());
    starting_indices_.reserve(slots_.size());
    starting_slots_.reserve(slots_.size());
  }

  int size() const { return static_cast<int>(slots_.size()); }
  // The bytes of its buffers held in its HugePageBlock.
  std::size_t block_bytes() const { return memory_.used(); }

  // Plays episodes taken from `episodes` until it runs dry and writes episode i's result to
  // results[i]. Several Locksteps (threads) may share one EpisodeQueue. Once the queue is
  // cancelled it returns within a step, and results[] is incomplete. `clock` times an automatic
  // memo's choice (tests pass their own to make it switch).
  PolicyMemoStats run(const Policy& policy, EpisodeQueue& episodes, std::span<EpisodeResult> results,
                      bool track_margins, PolicyMemoUse memo_use = PolicyMemoUse::automatic,
                      MemoChoice::Clock clock = thread_cpu_seconds) {
    if constexpr (kMayKeyOnBoards) {
      if (PolicyMemo::key_words(policy.inputs(), PolicyMemo::Layout::channels) <
          PolicyMemo::key_words(policy.inputs(), PolicyMemo::Layout::cells)) {
        return play<true>(policy, episodes, results, track_margins, memo_use, clock);
      }
    }
    return play<PaintsBoards<G>>(policy, episodes, results, track_margins, memo_use, clock);
  }

 private:
  // run() with the memo keyed on ChannelBoards (kBoardKeys) or on ObservationBits. One loop
  // per layout: a run-time choice inside the loop made GCC call the game's act out of line
  // (seaquest example +4.8% instructions).
  template <bool kBoardKeys>
  PolicyMemoStats play(const Policy& policy, EpisodeQueue& episodes, std::span<EpisodeResult> results,
                       bool track_margins, PolicyMemoUse memo_use, MemoChoice::Clock clock) {
    // A run cut short by an exception (a GameError) may have left episodes waiting to start.
    clear_pending();
    std::size_t running = 0;
    // A slot whose episode ended waits until a full seeding group has gathered (or nothing
    // else runs, or the queue is empty), so that the generators of a group are seeded side by
    // side.
    const std::size_t group = std::min(EpisodeState<G>::kSeedGroup, slots_.size());
    bool drained = false;
    // A policy that ignores the observation needs none, but where building it can raise, the
    // error must come at the same step (games/cells.hpp).
    const bool constant = policy.constant_logits().has_value();
    // The memo gives exact cdfs; margins are tracked from the logits, without it.
    MemoChoice choice(memo_use, !constant && !track_margins, clock);
    const bool consulted = choice.memo();
    bool memo = consulted;  // choice.memo(), read in the step's inner loops
    PolicyMemoStats stats;
    std::int64_t played = 0;  // slot-steps of the last step
    if (memo) memo_.reset(policy.inputs(), kBoardKeys ? PolicyMemo::Layout::channels : PolicyMemo::Layout::cells);
    // A cell key or a painted observation needs only the channels the policy reads (the
    // seaquest example: 5 of 10).
    const unsigned raw_channels = raw_channels_read<G>(policy.inputs());
    if constexpr (kReadsBoards) board_inputs_.assign(policy.inputs());
    // A game that writes its observation leaves out the inputs the policy does not read, when
    // that pays (FilterChoice).
    const InputFilter filter(policy.inputs());
    FilterChoice filtering;
    auto write_observation = [&](const auto& game, ActiveInputs& out) {  // generic: only writers call it
      if (filtering.trying()) {
        game.write_observation(out);
        const int written = out.count;
        filter.keep(out);
        filtering.saw(written, out.count);
      } else if (filtering.filtering()) {
        game.write_observation(out, filter);
      } else {
        game.write_observation(out);
      }
    };
    // Slot running_[k]'s observation goes to observations_[k]; with the memo, its key goes to
    // keys_[k] (its painting to boards_[k] or bits_[k]) and its slot in the memo is asked for,
    // and look_up(k) follows once every running slot has its key: a hit's memo entry is then
    // in the cache, where looking it up at once waited for it slot after slot (a quarter of
    // synth breakout's step).
    auto observe_into = [&](std::size_t k) {
      const G& game = slots_[running_[k]].episode.environment.game();
      if (memo) {
        if constexpr (kBoardKeys) {
          paint_channels(game, boards_[k], raw_channels);
          memo_.make_key(boards_[k], keys_[k]);
        } else {
          bits_[k] = ObservationBits{};
          if constexpr (WritesObservation<G>) {
            write_observation(game, observations_[k]);
            bits_[k].set(observations_[k]);
          } else {
            paint_bits(game, bits_[k], raw_channels);
          }
          memo_.make_key(bits_[k], keys_[k]);
        }
        memo_.prefetch(keys_[k]);
      } else if (!constant) {
        if constexpr (WritesObservation<G>) {
          write_observation(game, observations_[k]);
        } else if constexpr (observes_on_boards<G>) {
          observe_read(game, observations_[k], policy.inputs(), raw_channels);
        } else {
          observe(game, observations_[k], policy.inputs(), raw_channels);
        }
      } else if constexpr (observation_may_raise<G>) {
        check_observation(game);
      }
    };
    // With the memo, observations_[0, misses) are the misses', and edges_[k] running slot k's
    // stored cdf or nullptr (a miss).
    std::size_t misses = 0;
    auto look_up = [&](std::size_t k) {
      ++stats.lookups;
      if (const ActionEdges* stored = memo_.find(keys_[k])) {
        ++stats.hits;
        edges_[k] = stored;
        return;
      }
      // A miss is observed as without the memo, from what its key was made of.
      if constexpr (kBoardKeys) {
        observe_boards(boards_[k], observations_[misses], policy.inputs());
      } else if constexpr (WritesObservation<G>) {
        // Still in observations_[k]: the misses so far went to places below k.
        if (misses != k) {
          const ActiveInputs& written = observations_[k];
          std::copy_n(written.index.begin(), written.count, observations_[misses].index.begin());
          observations_[misses].count = written.count;
        }
      } else {
        bits_[k].extract(observations_[misses], policy.inputs());
      }
      edges_[k] = nullptr;
      miss_keys_[misses] = keys_[k];
      miss_of_[misses++] = k;
    };
    auto look_up_all = [&] {
      if (!memo) return;
      misses = 0;
      for (std::size_t k = 0; k < running; ++k) look_up(k);
    };
    auto start_pending = [&] {
      EpisodeState<G>::start_many(starting_, starting_indices_, seed_plan_.words());
      for (const std::size_t slot : starting_slots_) {
        running_[running] = slot;
        observe_into(running++);
      }
      clear_pending();
    };
    // Takes the next episode for `slot`; false (and the slot retires) once the queue is empty.
    EpisodeQueue::Run taken;
    auto start_next = [&](std::size_t slot) {
      if (drained || episodes.cancelled()) {
        drained = true;
        return false;
      }
      if (taken.empty()) taken = episodes.take(static_cast<std::int64_t>(group));
      if (taken.empty()) {
        drained = true;
        return false;
      }
      const std::int64_t index = taken.first++;
      slots_[slot].index = index;
      starting_.push_back(&slots_[slot].episode);
      starting_indices_.push_back(index);
      starting_slots_.push_back(slot);
      return true;
    };
    for (std::size_t slot = 0; slot < slots_.size(); ++slot) {
      if (!start_next(slot)) break;
    }
    start_pending();
    look_up_all();
    // Constant logits give every step the same distribution: its exact cdf, computed once, is
    // what sample_action would search on each draw.
    const bool fixed = constant && !track_margins;
    const ActionDistribution fixed_distribution =
        fixed ? action_distribution(*policy.constant_logits()) : ActionDistribution{};
    while (running > 0) {
      // Cancelled: the episodes playing are abandoned (their results are not wanted), so a
      // cancel takes effect within one step of the slots, not after their episodes' ends.
      if (episodes.cancelled()) break;
      if (choice.step(played, stats)) {
        // Every running slot is observed again the other way: into observations_[k], or as
        // its key, looked up.
        memo = choice.memo();
        for (std::size_t k = 0; k < running; ++k) observe_into(k);
        look_up_all();
      }
      played = static_cast<std::int64_t>(running);
      if (fixed) {
        for (std::size_t k = 0; k < running; ++k) {
          const double uniform = slots_[running_[k]].episode.action_random.random_sample();
          actions_[k] = fixed_distribution.action(uniform);
        }
      } else if (memo) {
        actions_from_memo(policy, running, misses);
      } else {
        policy.forward_batch(std::span<const ActiveInputs>(observations_.data(), running),
                             std::span<Logits>(logits_.data(), running));
        if (!track_margins) {
          for (std::size_t k = 0; k < running; ++k) {
            uniforms_[k] = slots_[running_[k]].episode.action_random.random_sample();
          }
          actions_for_draws(std::span<const Logits>(logits_.data(), running),
                            std::span<const double>(uniforms_.data(), running),
                            std::span<int>(actions_.data(), running));
        }
      }
      std::size_t kept = 0;
      for (std::size_t k = 0; k < running; ++k) {
        if (k + kPrefetchAhead < running) {
          slots_[running_[k + kPrefetchAhead]].episode.prefetch();
        }
        const std::size_t slot = running_[k];
        Slot& current = slots_[slot];
        const bool ended =
            track_margins ? current.episode.advance(logits_[k], true) : current.episode.act(actions_[k]);
        if (ended) {
          results[static_cast<std::size_t>(current.index)] = current.episode.result;
          seed_plan_.record_episode(current.episode.environment.random(), current.episode.action_random);
          start_next(slot);
          continue;
        }
        running_[kept] = slot;
        observe_into(kept++);  // this step's actions have been drawn from observations_ already
      }
      running = kept;
      if (starting_slots_.size() >= group || running == 0 || drained) start_pending();
      look_up_all();
    }
    if (consulted) stats.entries = static_cast<std::int64_t>(memo_.entries());
    if (!memo) stats.runs_without = 1;
    return stats;
  }

  // With the memo: the forward pass of this step's misses, whose logits are stored and whose
  // actions the batched sampler draws as without the memo, then each hit's action from its
  // exact cdf; every slot with its own draw.
  void actions_from_memo(const Policy& policy, std::size_t running, std::size_t misses) {
    policy.forward_batch(std::span<const ActiveInputs>(observations_.data(), misses),
                         std::span<Logits>(logits_.data(), misses));
    for (std::size_t m = 0; m < misses; ++m) {
      memo_.insert(miss_keys_[m], logits_[m]);  // a full memo stores nothing more
      uniforms_[m] = slots_[running_[miss_of_[m]]].episode.action_random.random_sample();
    }
    actions_for_draws(std::span<const Logits>(logits_.data(), misses),
                      std::span<const double>(uniforms_.data(), misses),
                      std::span<int>(miss_actions_.data(), misses));
    for (std::size_t m = 0; m < misses; ++m) actions_[miss_of_[m]] = miss_actions_[m];
    for (std::size_t k = 0; k < running; ++k) {
      if (edges_[k] == nullptr) continue;  // a miss: drawn above
      actions_[k] = edges_[k]->action(slots_[running_[k]].episode.action_random.random_sample());
    }
  }

  // A game observed on its boards has the few inputs a policy reads looked up there
  // (BoardInputs); a policy reading more has them spread (observe). Out of line: inlined into
  // play, it slowed the steps the memo serves by 2-4%, which never run it (docs/performance.md).
  [[gnu::noinline]] void observe_read(const G& game, ActiveInputs& out, const InputMask& inputs,
                                      unsigned raw_channels) const {
    if (!board_inputs_.usable()) return observe(game, out, inputs, raw_channels);
    ChannelBoards boards;
    paint_channels(game, boards, raw_channels);
    board_inputs_.extract(boards, out);
  }

  // A miss's boards (board keys) as the inputs `inputs` reads: the same list either way.
  [[gnu::noinline]] void observe_boards(const ChannelBoards& boards, ActiveInputs& out, const InputMask& inputs) const {
    if (board_inputs_.usable()) return board_inputs_.extract(boards, out);
    observe_channels(boards, out, inputs);
  }

  void clear_pending() {
    starting_.clear();
    starting_indices_.clear();
    starting_slots_.clear();
  }

  struct Slot {
    EpisodeState<G> episode;
    std::int64_t index = 0;
  };
  HugePageBlock memory_;  // first: every buffer below comes from it
  std::pmr::vector<Slot> slots_;
  std::pmr::vector<ActiveInputs> observations_;
  std::pmr::vector<Logits> logits_;
  std::pmr::vector<double> uniforms_;
  std::pmr::vector<int> actions_;
  std::pmr::vector<std::size_t> running_;
  std::pmr::vector<EpisodeState<G>*> starting_;
  std::pmr::vector<std::int64_t> starting_indices_;
  std::pmr::vector<std::size_t> starting_slots_;
  PolicyMemo memo_;
  SeedPlan seed_plan_;  // kept across runs: a stale plan costs time only, never a draw
  std::pmr::vector<const ActionEdges*> edges_;  // running slot k's cdf (with the memo), or nullptr: a miss
  std::pmr::vector<PolicyMemo::Key> miss_keys_;  // miss m's key
  std::pmr::vector<std::size_t> miss_of_;        // miss m's running position k
  std::pmr::vector<int> miss_actions_;           // miss m's action
  std::pmr::vector<PolicyMemo::Key> keys_;       // running slot k's key (with the memo)
  std::pmr::vector<ChannelBoards> boards_;       // running slot k's painting (board keys)
  std::pmr::vector<ObservationBits> bits_;       // running slot k's painting (cell keys)
  BoardInputs board_inputs_;                     // the run's policy's inputs, if few
};

}  // namespace weightspace
