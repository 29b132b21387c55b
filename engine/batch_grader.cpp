// SPDX-License-Identifier: GPL-3.0-or-later
#include <weightspace/batch_grader.hpp>

#include <oneapi/tbb/parallel_pipeline.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/arena.hpp"
#include "engine/grade.hpp"
#include "engine/rollout_cache.hpp"
#include "parser/numpy/apply_edits.hpp"
#include "parser/trajectory.hpp"
#include "policy/policy.hpp"

namespace weightspace {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One input's parse, shared by its records: a matrix grades an input on several games,
// sources and episode counts, and a short grade cost less than parsing the answer and hashing
// its weights again for each, then building its Policy (docs/performance.md, "Many answers").
// Whichever of its records gets there first parses it, and whichever first plays builds the
// Policy (a record whose rollout is cached builds none); the text stays for the next record's
// comparison.
struct SharedParse {
  std::string input;
  BatchRecord::Content content = BatchRecord::Content::Answer;
  std::string text;
  std::optional<PythonError> error;  // the record could not be read
  std::once_flag once;
  ParsedAnswer parsed;
  std::optional<std::string> weights_sha256;
  std::once_flag policy_once;
  std::optional<Policy> policy;  // of parsed.weights, once a record plays them

  const Policy& policy_of_weights() {
    std::call_once(policy_once, [this] { policy.emplace(parsed.weights); });
    return *policy;
  }
};

// One record in flight. The jobs are a ring of `window` slots: records leave the pipeline in
// input order and at most `window` are in it, so sequence % window is never taken twice.
struct Job {
  BatchResult result;
  std::shared_ptr<SharedParse> parse;
  std::shared_ptr<RolloutCache::Entry> rollout;
  bool owner = false;  // this record plays the rollout; otherwise it was cached
  std::vector<EpisodeResult> episodes;
};

// A grade of millions of episodes should not pin its results' memory for the rest of a run.
constexpr std::size_t kKeptEpisodeCapacity = std::size_t{1} << 16;

void parse_input(SharedParse& input) {
  std::optional<EditError> error;
  if (input.error) error.emplace(*input.error);
  std::string trajectory_answer;
  std::string_view answer = input.text;
  if (!error && input.content == BatchRecord::Content::Trajectory) {
    try {
      trajectory_answer = assistant_answer(input.text);
      answer = trajectory_answer;
    } catch (const EditError& failure) {
      error = EditError(failure.kind(), input.input + ": " + failure.what(), failure.line(), failure.column());
    }
  }
  if (error) {
    input.parsed.success = false;
    input.parsed.error = std::move(error);
  } else {
    parse_answer(answer, input.parsed);
  }
  if (input.parsed.success) input.weights_sha256 = weights_sha256(input.parsed.weights);
}

void parse(Job& job) {
  const Clock::time_point start = Clock::now();
  SharedParse& input = *job.parse;
  std::call_once(input.once, [&input] { parse_input(input); });
  job.result.weights_sha256 = input.weights_sha256;
  job.result.seconds += seconds_since(start);
}

#ifdef WEIGHTSPACE_TEST_SLOWDOWN
// Only in a test build (cmake -DWEIGHTSPACE_TEST_SLOWDOWN=N): N iterations of throwaway work per
// step played, and nothing else, so that the engine is genuinely slower with the same results:
// the slowdown the speed gate must catch (bench/speed_gate_proof.py).
void test_slowdown(std::int64_t steps) {
  volatile std::uint64_t sink = 0;
  for (std::int64_t i = 0; i < steps * WEIGHTSPACE_TEST_SLOWDOWN; ++i) sink = sink + static_cast<std::uint64_t>(i);
}
#endif

Rollout rollout_of(const BatchResult& result) {
  Rollout rollout;
  const Reward& reward = result.reward;
  rollout.played = reward.parse_success;
  rollout.raw_score = reward.raw_score;
  rollout.mean_episode_length = reward.mean_episode_length;
  rollout.score_cap = reward.score_cap;
  rollout.steps = result.steps;
  rollout.refused = result.refused;  // a later duplicate is refused too, as in an uninterrupted run
  if (!rollout.played) rollout.error = reward.error;
  return rollout;
}

// The stages of BatchGrader::run on the arena's threads: records are taken, their parse
// shared and their cache consulted in input order, parsed and played in parallel, finished
// in input order.
template <typename Take, typename Consult, typename Play, typename Finish>
void run_pipeline(tbb::task_arena& arena, std::size_t window, Take take, Consult consult, Play play,
                  Finish finish) {
  arena.execute([&] {
    tbb::parallel_pipeline(
        window,
        tbb::make_filter<void, Job*>(tbb::filter_mode::serial_in_order, take) &
            tbb::make_filter<Job*, Job*>(tbb::filter_mode::parallel,
                                         [](Job* job) {
                                           parse(*job);
                                           return job;
                                         }) &
            tbb::make_filter<Job*, Job*>(tbb::filter_mode::serial_in_order, consult) &
            tbb::make_filter<Job*, Job*>(tbb::filter_mode::parallel, play) &
            tbb::make_filter<Job*, void>(tbb::filter_mode::serial_in_order, finish));
  });
}

}  // namespace

struct BatchGrader::State {
  BatchOptions options;
  RolloutCache cache;
  std::vector<Job> jobs;

  std::shared_ptr<SharedParse> last_input;  // the previous record's, unless it could not be read

  explicit State(BatchOptions chosen) : options(chosen), cache(chosen.cache_entries) {}

  // In input order: a record of the same input as the one before shares its parse; the text
  // is compared whole.
  void share_parse(Job& job) {
    BatchRecord& record = job.result.record;
    const SharedParse* last = last_input.get();
    if (!record.error && last != nullptr && last->input == record.input && last->content == record.content &&
        last->text == record.text) {
      job.parse = last_input;
      record.text = std::string();
      return;
    }
    job.parse = std::make_shared<SharedParse>();
    SharedParse& input = *job.parse;
    input.input = record.input;
    input.content = record.content;
    input.text = std::exchange(record.text, std::string());
    input.error = record.error;
    last_input = record.error ? nullptr : job.parse;
  }

  // Decided in input order: the first record of a key plays it, later ones reuse it.
  void consult_cache(Job& job) {
    if (!job.result.weights_sha256) return;
    auto [entry, hit] = cache.find_or_insert(cache.key(*job.result.weights_sha256, job.result.record.request));
    job.rollout = std::move(entry);
    job.owner = !hit;
    job.result.cached = hit;
  }
};

BatchGrader::BatchGrader(BatchOptions options) : state_(std::make_unique<State>(options)) {
  if (options.run.threads < 0) throw std::invalid_argument("thread count must not be negative");
  if (options.run.lockstep < 1) throw std::invalid_argument("lockstep width must be at least 1");
  if (options.window < 0) throw std::invalid_argument("window must not be negative");
}

BatchGrader::~BatchGrader() = default;

void BatchGrader::remember(const BatchResult& result) {
  if (!result.weights_sha256) return;
  auto [entry, hit] = state_->cache.find_or_insert(state_->cache.key(*result.weights_sha256, result.record.request));
  if (!hit) entry->rollout = rollout_of(result);
}

BatchSummary BatchGrader::run(const std::function<std::optional<BatchRecord>()>& next,
                              const std::function<void(BatchResult&&)>& sink, const std::atomic<bool>* cancel) {
  State& state = *state_;
  // One thread runs each record through the stages below before it takes the next, without
  // oneTBB: setting its scheduler up (its allocator library, /proc reads, a search for the RML
  // server) cost a one-thread batch process 71 of its 548 page faults and 160 system calls
  // (docs/performance.md, "Round three: process start and records").
  const bool serial = state.options.run.threads == 1;
  tbb::task_arena* arena = serial ? nullptr : &shared_arena(state.options.run.threads);
  const int threads = serial ? 1 : arena->max_concurrency();
  const auto window = static_cast<std::size_t>(state.options.window > 0 ? state.options.window
                                                                         : std::max(16, 8 * threads));
  state.jobs.resize(window);
  auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
  BatchSummary summary;
  std::uint64_t sequence = 0;
  RunOptions run = state.options.run;
  run.track_margins = false;
  run.cancel = cancel;  // a long grade in flight stops starting episodes too

  auto take = [&]() -> Job* {  // nullptr: no record left
    std::optional<BatchRecord> record;
    if (!cancelled()) record = next();
    if (!record) return nullptr;
    Job& job = state.jobs[sequence % window];
    job.result = BatchResult{};
    job.result.sequence = sequence++;
    job.result.record = std::move(*record);
    job.result.record.request.run = run;
    job.rollout.reset();
    job.owner = false;
    state.share_parse(job);
    return &job;
  };
  auto play_owned = [&](Job* job) {
    if (!job->owner || cancelled()) return job;
    const Clock::time_point start = Clock::now();
    job->rollout->rollout = play(job->parse->policy_of_weights(), job->result.record.request, job->episodes);
#ifdef WEIGHTSPACE_TEST_SLOWDOWN
    test_slowdown(job->rollout->rollout.steps);
#endif
    if (job->episodes.capacity() > kKeptEpisodeCapacity) job->episodes = std::vector<EpisodeResult>();
    job->result.seconds += seconds_since(start);
    return job;
  };
  auto finish = [&](Job* job) {
    if (cancelled()) return;
    BatchResult& result = job->result;
    const Rollout none;
    const Rollout& rollout = job->rollout ? job->rollout->rollout : none;
    result.reward = make_reward(result.record.request, job->parse->parsed, rollout);
    result.steps = rollout.steps;
    result.refused = rollout.refused;
    job->rollout.reset();
    job->parse.reset();
    ++summary.records;
    summary.failed += result.reward.parse_success ? 0 : 1;
    summary.cached += result.cached ? 1 : 0;
    summary.steps += result.cached ? 0 : result.steps;
    sink(std::move(result));
  };

  if (serial) {
    while (Job* job = take()) {
      parse(*job);
      state.consult_cache(*job);
      finish(play_owned(job));
    }
  } else {
    run_pipeline(*arena, window, [&](tbb::flow_control& control) {
      Job* job = take();
      if (job == nullptr) control.stop();
      return job;
    }, [&](Job* job) {
      state.consult_cache(*job);
      return job;
    }, play_owned, finish);
  }
  state.last_input.reset();
  for (Job& job : state.jobs) job.parse.reset();  // a cancelled run leaves jobs unfinished
  summary.cancelled = cancelled();
  if (summary.cancelled) state.cache.clear();
  return summary;
}

}  // namespace weightspace
