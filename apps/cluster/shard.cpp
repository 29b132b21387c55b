// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cluster/shard.hpp"

#include <CLI/CLI.hpp>
#include <nettle/sha2.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "apps/cli/files.hpp"
#include "games/registry.hpp"

namespace weightspace::app {

void ShardFlags::add_options(CLI::App& command, const std::string& output) {
  auto* index_option = command
                            .add_option("--shard-index", index,
                                        "Grade only shard I of --shard-count (default: SLURM_ARRAY_TASK_ID or "
                                        "JOB_COMPLETION_INDEX); the output is " + output + " with .shard-I-of-N")
                            ->check(CLI::Range(std::int64_t{0}, kMaxShards - 1));
  auto* count_option = command
                            .add_option("--shard-count", count,
                                        "Shards the run is split into (default: WEIGHTSPACE_SHARD_COUNT, or the "
                                        "Slurm array's size)")
                            ->check(CLI::Range(std::int64_t{1}, kMaxShards));
  command.add_flag("--no-shard", none, "Grade every record, whatever a scheduler's environment says")
      ->excludes(index_option)
      ->excludes(count_option);
}

const char* process_environment(const char* name) { return std::getenv(name); }

namespace {

struct Variable {
  std::string name;
  std::optional<std::int64_t> value;

  std::string text() const { return name + "=" + std::to_string(*value); }
};

// A whole number from the environment: decimal digits only, as the schedulers write them.
Variable read_variable(const Environment& environment, const char* name) {
  Variable variable{name, std::nullopt};
  const char* text = environment(name);
  if (text == nullptr) return variable;
  const std::string_view value(text);
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || error != std::errc() || end != value.data() + value.size()) {
    throw UsageError(std::string(name) + "=\"" + std::string(value) + "\" is not a whole number of 0 or more" +
                     (error == std::errc::result_out_of_range ? " (too large)" : ""));
  }
  variable.value = number;
  return variable;
}

// The count of a Slurm array whose tasks are numbered 0, 1, ..., count - 1.
Variable slurm_array_count(const Environment& environment) {
  const Variable count = read_variable(environment, "SLURM_ARRAY_TASK_COUNT");
  const Variable min = read_variable(environment, "SLURM_ARRAY_TASK_MIN");
  const Variable max = read_variable(environment, "SLURM_ARRAY_TASK_MAX");
  const Variable step = read_variable(environment, "SLURM_ARRAY_TASK_STEP");
  const std::string explicit_count = "; give the shard count with --shard-count or WEIGHTSPACE_SHARD_COUNT";
  if (step.value && *step.value != 1) {
    throw UsageError("the Slurm array has a step (" + step.text() +
                     "): shards are numbered 0 to N-1, so submit --array=0-N-1" + explicit_count);
  }
  if (min.value && *min.value != 0) {
    throw UsageError("the Slurm array's tasks start at " + min.text() +
                     ", not 0 (a rerun of some tasks?): shards are numbered 0 to N-1" + explicit_count);
  }
  if (count.value && max.value && *count.value != *max.value + 1) {
    throw UsageError("the Slurm array runs tasks up to " + max.text() + " but has " + count.text() +
                     ": not every index from 0 (--array=0,2,5?)" + explicit_count);
  }
  if (count.value) return count;
  if (max.value) return {max.name + "+1", *max.value + 1};
  throw UsageError("SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX" +
                   explicit_count);
}

}  // namespace

std::optional<ShardSpec> resolve_shard(const ShardFlags& flags, const Environment& environment) {
  if (flags.none) return std::nullopt;
  const Variable slurm = read_variable(environment, "SLURM_ARRAY_TASK_ID");
  const Variable kubernetes = read_variable(environment, "JOB_COMPLETION_INDEX");
  const Variable count_variable = read_variable(environment, "WEIGHTSPACE_SHARD_COUNT");

  std::optional<Variable> index;
  if (flags.index) {
    index = Variable{"--shard-index", flags.index};
    for (const Variable* scheduler : {&slurm, &kubernetes}) {
      if (scheduler->value && *scheduler->value != *flags.index) {
        spdlog::warn("--shard-index {} overrides {}", *flags.index, scheduler->text());
      }
    }
  } else if (slurm.value && kubernetes.value) {
    throw UsageError("both " + slurm.text() + " and " + kubernetes.text() +
                     " are set: say which shard this is with --shard-index");
  } else if (slurm.value) {
    index = slurm;
  } else if (kubernetes.value) {
    index = kubernetes;
  }

  std::optional<Variable> count;
  if (flags.count) {
    count = Variable{"--shard-count", flags.count};
    if (count_variable.value && *count_variable.value != *flags.count) {
      spdlog::warn("--shard-count {} overrides {}", *flags.count, count_variable.text());
    }
  } else if (count_variable.value) {
    count = count_variable;
  } else if (index && index->name == slurm.name) {
    count = slurm_array_count(environment);
    if (*count->value == 1) {
      spdlog::warn("a Slurm array of one task is one shard of one; to rerun one shard of a larger run, set "
                   "WEIGHTSPACE_SHARD_COUNT to that run's count");
    }
  }

  if (!index && !count) return std::nullopt;
  if (!index) {
    throw UsageError("a shard count (" + count->text() +
                     ") but no shard index: give --shard-index, run in a Slurm job array or a Kubernetes Indexed "
                     "Job, or give --no-shard");
  }
  if (!count) {
    throw UsageError("a shard index (" + index->text() +
                     ") but no shard count: give --shard-count or set WEIGHTSPACE_SHARD_COUNT (for a Kubernetes "
                     "Indexed Job, to its completions)");
  }
  if (*count->value < 1 || *count->value > kMaxShards) {
    throw UsageError("the shard count (" + count->text() + ") must be from 1 to " + std::to_string(kMaxShards));
  }
  if (*index->value >= *count->value) {
    throw UsageError("the shard index (" + index->text() + ") must be below the shard count (" + count->text() + ")");
  }
  return ShardSpec{*index->value, *count->value, index->text() + ", " + count->text()};
}

std::string shard_file_name(const std::string& out, const ShardSpec& shard) {
  const std::filesystem::path path(out);
  const std::size_t width = std::to_string(shard.count - 1).size();
  std::string index = std::to_string(shard.index);
  index.insert(0, width - index.size(), '0');
  const std::string name = path.stem().string() + ".shard-" + index + "-of-" + std::to_string(shard.count) +
                           path.extension().string();
  return (path.parent_path() / name).string();
}

std::uint64_t record_work(const std::string& game, const std::string& source, std::int64_t episodes) {
  // Steps per episode: the game's registration (games/registry.hpp). A source other than
  // "synth" is weighed as the original game, as the deal always did, so shards stay as dealt.
  std::uint64_t steps = 0;
  with_game(source == "synth" ? "synth" : "original", game,
            [&](const auto& entry) { steps = entry.typical_episode_steps; });
  // A parse (84 us median) costs about as much as this many steps (100-500 ns each, by game);
  // so does a record that cannot be graded (an unknown game, no episodes).
  constexpr std::uint64_t kParse = 400;
  // Beyond 2^32 episodes no grade finishes anyway; the bound keeps sums of many records exact.
  const auto played = static_cast<std::uint64_t>(std::clamp<std::int64_t>(episodes, 0, std::int64_t{1} << 32));
  return kParse + played * steps;
}

ShardBalancer::ShardBalancer(std::int64_t count) : work_(static_cast<std::size_t>(count), 0) {
  for (std::int64_t shard = 0; shard < count; ++shard) heap_.emplace(0, shard);
}

std::int64_t ShardBalancer::assign(std::uint64_t work) {
  const auto [load, shard] = heap_.top();
  heap_.pop();
  const std::uint64_t total = load > std::numeric_limits<std::uint64_t>::max() - work
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : load + work;
  work_[static_cast<std::size_t>(shard)] = total;
  heap_.emplace(total, shard);
  return shard;
}

struct RecordsFingerprint::State {
  sha256_ctx context;
};

RecordsFingerprint::RecordsFingerprint() : state_(std::make_unique<State>()) { sha256_init(&state_->context); }

RecordsFingerprint::~RecordsFingerprint() = default;

void RecordsFingerprint::add(const BatchRecord& record) {
  // Each field with its length first, so that no two different records feed the same bytes.
  auto feed = [this](std::string_view field) {
    const std::string length = std::to_string(field.size()) + ":";
    sha256_update(&state_->context, length.size(), reinterpret_cast<const std::uint8_t*>(length.data()));
    sha256_update(&state_->context, field.size(), reinterpret_cast<const std::uint8_t*>(field.data()));
  };
  feed(record.id);
  feed(record.input);
  feed(record.request.game);
  feed(record.request.source);
  feed(std::to_string(record.request.episodes));
  feed(record.content == BatchRecord::Content::Trajectory ? "trajectory" : "answer");
  feed(record.text);
}

std::string RecordsFingerprint::hex() const {
  sha256_ctx copy = state_->context;  // digest() resets the context it finishes
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&copy, sizeof digest, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (const std::uint8_t byte : digest) {
    text += kHex[byte >> 4];
    text += kHex[byte & 15];
  }
  return text;
}

}  // namespace weightspace::app
