// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cluster/shard_set.hpp"

#include <map>
#include <optional>
#include <string_view>

#include "apps/cli/files.hpp"
#include "apps/cluster/shard.hpp"
#include "apps/version.hpp"

namespace weightspace::app {

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

// At most ten problems, then how many more: a run of 1,024 shards may miss hundreds.
std::string listed(const std::vector<std::string>& problems) {
  constexpr std::size_t kShown = 10;
  if (problems.size() <= kShown) return join(problems, "; ");
  const std::vector<std::string> shown(problems.begin(), problems.begin() + kShown);
  return join(shown, "; ") + "; and " + std::to_string(problems.size() - kShown) + " more";
}

std::string name_of(const ShardOutput& shard) {
  return "shard " + std::to_string(shard.meta.index) + " of " + std::to_string(shard.meta.count) + " (" + shard.path +
         ")";
}

// The first option two descriptions disagree on, as "key: a vs b"; empty when they agree.
std::string option_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
  for (const auto& [key, value] : a.items()) {
    const auto other = b.find(key);
    if (other == b.end()) return key + ": " + value.dump() + " vs none";
    if (*other != value) return key + ": " + value.dump() + " vs " + other->dump();
  }
  for (const auto& [key, value] : b.items()) {
    if (!a.contains(key)) return key + ": none vs " + value.dump();
  }
  return "";
}

}  // namespace

std::vector<ShardOutput> read_shard_outputs(const std::vector<std::string>& paths, const std::string& out) {
  std::vector<ShardOutput> outputs;
  for (const std::string& path : paths) {
    if (same_file(path, out)) throw UsageError("--out names a shard output: " + path);
    // A glob such as grades.shard-* also matches the descriptions beside the outputs.
    if (path.ends_with(".shard.json")) {
      throw UsageError(path + " is a shard's description: give the shard's output, " +
                       path.substr(0, path.size() - std::string_view(".shard.json").size()));
    }
    outputs.push_back({path, read_shard_meta(path)});
  }
  return outputs;
}

std::vector<ShardOutput> check_shards(std::vector<ShardOutput> given) {
  const ShardOutput first = given.front();  // a copy: the shards move into place below
  std::vector<std::string> problems;
  for (const ShardOutput& shard : given) {
    if (shard.meta.weightspace_version != kVersion) {
      problems.push_back(name_of(shard) + " was written by weightspace " + shard.meta.weightspace_version +
                         ", this is " + kVersion);
    } else if (shard.meta.count != first.meta.count) {
      problems.push_back(name_of(shard) + " and " + name_of(first) + " split the run differently");
    } else if (const std::string difference = option_difference(first.meta.options, shard.meta.options);
               !difference.empty()) {
      problems.push_back(name_of(shard) + " and " + name_of(first) + " were run with other options (" + difference +
                         ")");
    }
  }
  if (!problems.empty()) throw CommandError("not shards of one run: " + listed(problems));

  const std::int64_t count = first.meta.count;
  std::vector<std::optional<ShardOutput>> by_index(static_cast<std::size_t>(count));
  for (ShardOutput& shard : given) {
    std::optional<ShardOutput>& slot = by_index[static_cast<std::size_t>(shard.meta.index)];
    if (slot) {
      problems.push_back(shard.path + " and " + slot->path + " are both shard " + std::to_string(shard.meta.index) +
                         " of " + std::to_string(count) + ": give each shard once");
    } else {
      slot = std::move(shard);
    }
  }
  std::map<std::string, std::vector<std::int64_t>> fingerprints;  // inputs_sha256 -> shards
  for (std::int64_t index = 0; index < count; ++index) {
    const std::optional<ShardOutput>& shard = by_index[static_cast<std::size_t>(index)];
    if (!shard) {
      problems.push_back("shard " + std::to_string(index) + " of " + std::to_string(count) + " is missing (" +
                         shard_file_name(first.meta.out, ShardSpec{index, count, ""}) + "): add it, or run it");
    } else if (!shard->meta.complete) {
      problems.push_back(name_of(*shard) + " did not finish: " + rerun_hint(index, count, shard->meta.options));
    } else {
      fingerprints[shard->meta.inputs_sha256].push_back(index);
    }
  }
  if (fingerprints.size() > 1) {
    std::string groups;
    for (const auto& [sha, indices] : fingerprints) {
      std::string list;
      for (const std::int64_t index : indices) list += (list.empty() ? "" : ", ") + std::to_string(index);
      groups += (groups.empty() ? "" : "; ") + ("shards " + list + ": inputs " + sha.substr(0, 12));
    }
    problems.push_back("the shards enumerated different records from their inputs (" + groups +
                       "): rerun the shards whose inputs were not the run's, with the run's inputs");
  }
  if (!problems.empty()) throw CommandError("cannot merge: " + listed(problems));

  std::vector<ShardOutput> shards;
  std::uint64_t records = 0;
  for (std::optional<ShardOutput>& shard : by_index) {
    records += shard->meta.records;
    shards.push_back(std::move(*shard));
  }
  if (records != first.meta.total_records) {
    throw CommandError("cannot merge: the shards hold " + std::to_string(records) + " records, their run has " +
                       std::to_string(first.meta.total_records));
  }
  return shards;
}


std::string rerun_hint(std::int64_t index, std::int64_t count, const nlohmann::ordered_json& options) {
  if (options.contains("sweep")) return sweep_rerun_hint(options.at("sweep").get<std::string>(), index, count);
  const std::string i = std::to_string(index);
  return "rerun it alone with --resume: the same weightspace batch command with --shard-index " + i +
         " --shard-count " + std::to_string(count) + " --resume (Slurm: sbatch --array=" + i +
         " --export=ALL,WEIGHTSPACE_SHARD_COUNT=" + std::to_string(count) + " ...)";
}

std::string sweep_rerun_hint(const std::string& name, std::int64_t index, std::int64_t count) {
  const std::string i = std::to_string(index);
  return "rerun it alone with --resume: weightspace sweep CONFIG (of sweep \"" + name + "\") --shard-index " + i +
         " --shard-count " + std::to_string(count) + " --resume (Slurm: sbatch --array=" + i +
         " --export=ALL,WEIGHTSPACE_SHARD_COUNT=" + std::to_string(count) + " ...)";
}

std::string rerun_hint(const ShardOutput& shard) {
  return rerun_hint(shard.meta.index, shard.meta.count, shard.meta.options);
}

}  // namespace weightspace::app
