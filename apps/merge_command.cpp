// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace merge`: the outputs of the shards of one sharded batch, joined into the file a
// one-process run of the same inputs writes. The shards' lines are put back in input order by
// replaying the deal that split them (ShardBalancer over each line's game, source and
// episodes), and `cached` is decided again over the whole run, as one process decides it.
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include "apps/batch_output.hpp"
#include "apps/commands.hpp"
#include "apps/files.hpp"
#include "apps/shard.hpp"
#include "apps/shard_meta.hpp"
#include "apps/sweep/sweep_shard.hpp"
#include "apps/version.hpp"
#include <weightspace/reward.hpp>
#include "engine/rollout_cache.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::vector<std::string> shards;
  std::string out;
  std::string csv;
  std::string rewards_dir;
  bool no_timings = false;
  bool quiet = false;
};

struct Shard {
  std::string path;
  ShardMeta meta;
};

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

std::string name_of(const Shard& shard) {
  return "shard " + std::to_string(shard.meta.index) + " of " + std::to_string(shard.meta.count) + " (" + shard.path +
         ")";
}

std::string rerun_hint(std::int64_t index, std::int64_t count, const nlohmann::ordered_json& options) {
  if (options.contains("sweep")) return sweep_rerun_hint(options.at("sweep").get<std::string>(), index, count);
  const std::string i = std::to_string(index);
  return "rerun it alone with --resume: the same weightspace batch command with --shard-index " + i +
         " --shard-count " + std::to_string(count) + " --resume (Slurm: sbatch --array=" + i +
         " --export=ALL,WEIGHTSPACE_SHARD_COUNT=" + std::to_string(count) + " ...)";
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

// Every shard of one run, each once, finished, with the same options and records: otherwise
// a CommandError listing every problem and the shard to rerun or add.
std::vector<Shard> check_shards(std::vector<Shard> given) {
  const Shard first = given.front();  // a copy: the shards move into place below
  std::vector<std::string> problems;
  for (const Shard& shard : given) {
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
  std::vector<std::optional<Shard>> by_index(static_cast<std::size_t>(count));
  for (Shard& shard : given) {
    std::optional<Shard>& slot = by_index[static_cast<std::size_t>(shard.meta.index)];
    if (slot) {
      problems.push_back(shard.path + " and " + slot->path + " are both shard " + std::to_string(shard.meta.index) +
                         " of " + std::to_string(count) + ": give each shard once");
    } else {
      slot = std::move(shard);
    }
  }
  std::map<std::string, std::vector<std::int64_t>> fingerprints;  // inputs_sha256 -> shards
  for (std::int64_t index = 0; index < count; ++index) {
    const std::optional<Shard>& shard = by_index[static_cast<std::size_t>(index)];
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

  std::vector<Shard> shards;
  std::uint64_t records = 0;
  for (std::optional<Shard>& shard : by_index) {
    records += shard->meta.records;
    shards.push_back(std::move(*shard));
  }
  if (records != first.meta.total_records) {
    throw CommandError("cannot merge: the shards hold " + std::to_string(records) + " records, their run has " +
                       std::to_string(first.meta.total_records));
  }
  return shards;
}

// Output in large writes: a million lines are a million write(2)s otherwise.
class BufferedOutput {
 public:
  explicit BufferedOutput(const std::string& path) : file_(path, OutputFile::Mode::Truncate) {}
  void write(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= (1 << 20)) flush();
  }
  void flush() {
    file_.write(buffer_);
    buffer_.clear();
  }

 private:
  OutputFile file_;
  std::string buffer_;
};

// The merged file appears whole or not at all: written beside --out, then renamed over it.
class MergedFile {
 public:
  explicit MergedFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".merging") {
    output_.emplace(temporary_);
  }
  ~MergedFile() {
    if (!committed_) {
      output_.reset();
      std::error_code ignored;
      std::filesystem::remove(temporary_, ignored);
    }
  }
  BufferedOutput& output() { return *output_; }
  void commit() {
    output_->flush();
    output_.reset();
    std::error_code error;
    std::filesystem::rename(temporary_, path_, error);
    if (error) throw CommandError("cannot write " + path_ + ": " + error.message());
    committed_ = true;
  }

 private:
  std::string path_;
  std::string temporary_;
  std::optional<BufferedOutput> output_;
  bool committed_ = false;
};

void merge(const Options& options) {
  if (options.shards.empty()) throw UsageError("no shard outputs: give every shard's --out file");
  if (options.out == "-") throw UsageError("--out must name a file: the merge is written whole, then renamed into place");
  std::vector<Shard> given;
  for (const std::string& path : options.shards) {
    if (same_file(path, options.out)) throw UsageError("--out names a shard output: " + path);
    // A glob such as grades.shard-* also matches the descriptions beside the outputs.
    if (path.ends_with(".shard.json")) {
      throw UsageError(path + " is a shard's description: give the shard's output, " +
                       path.substr(0, path.size() - std::string_view(".shard.json").size()));
    }
    given.push_back({path, read_shard_meta(path)});
  }
  const bool sweep = is_sqlite_file(given.front().path);
  for (const Shard& shard : given) {
    if (is_sqlite_file(shard.path) != sweep) {
      throw UsageError("cannot merge " + given.front().path + " with " + shard.path +
                       ": one is a sweep shard's database, the other a batch shard's JSONL");
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Shard> shards = check_shards(std::move(given));
  if (sweep) {
    if (!options.csv.empty() || !options.rewards_dir.empty() || options.no_timings) {
      throw UsageError("--csv, --rewards-dir and --no-timings are for batch shards; a sweep's merged run is read "
                       "with weightspace report, compare and runs");
    }
    std::vector<std::pair<std::string, ShardMeta>> described;
    for (const Shard& shard : shards) described.emplace_back(shard.path, shard.meta);
    merge_sweep_shards(described, options.out, options.quiet);
    return;
  }
  const nlohmann::ordered_json& run = shards.front().meta.options;
  const bool shard_timings = run.at("timings").get<bool>();
  const bool timings = shard_timings && !options.no_timings;

  std::vector<std::ifstream> inputs;
  std::vector<std::uint64_t> lines_read(shards.size(), 0);
  for (const Shard& shard : shards) {
    inputs.emplace_back(shard.path, std::ios::binary);
    if (!inputs.back()) throw CommandError("cannot read " + shard.path);
  }
  MergedFile merged(options.out);
  std::optional<BufferedOutput> csv;
  if (!options.csv.empty()) {
    csv.emplace(options.csv);
    csv->write(csv_header(timings));
  }
  if (!options.rewards_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.rewards_dir, error);
    if (error) throw CommandError("cannot create " + options.rewards_dir + ": " + error.message());
  }

  ShardBalancer deal(static_cast<std::int64_t>(shards.size()));
  RolloutCache cache(run.at("cache").get<std::size_t>());
  const std::uint64_t total = shards.front().meta.total_records;
  std::string line;
  for (std::uint64_t position = 0; position < total; ++position) {
    const auto index = static_cast<std::size_t>(deal.next_shard());
    const Shard& shard = shards[index];
    const std::string place = shard.path + " line " + std::to_string(lines_read[index] + 1);
    if (!std::getline(inputs[index], line)) {
      throw CommandError(shard.path + " ends after " + std::to_string(lines_read[index]) +
                         " lines, but its description says " + std::to_string(shard.meta.records) + ": " +
                         rerun_hint(shard.meta.index, shard.meta.count, shard.meta.options));
    }
    ++lines_read[index];
    bool line_timings = false;
    BatchResult result;
    try {
      result = parse_batch_line(line, line_timings);
    } catch (const EditError& error) {
      throw CommandError(place + " is not a weightspace batch record (" + error.what() + "): " +
                         rerun_hint(shard.meta.index, shard.meta.count, shard.meta.options));
    }
    if (line_timings != shard_timings || batch_line(result, line_timings) != line) {
      throw CommandError(place + " is not as this shard wrote it (edited?): " +
                         rerun_hint(shard.meta.index, shard.meta.count, shard.meta.options));
    }
    const GradeRequest& request = result.record.request;
    deal.assign(record_work(request.game, request.source, request.episodes));
    // As one process decides it: the first record of a rollout key plays it, within the last
    // --cache distinct keys.
    result.cached = result.weights_sha256 && cache.find_or_insert(cache.key(*result.weights_sha256, request)).second;
    merged.output().write(batch_line(result, timings) + "\n");
    if (csv) csv->write(csv_row(result, timings));
    if (!options.rewards_dir.empty()) {
      write_file(std::filesystem::path(options.rewards_dir) / reward_file_name(position + 1, result),
                 reward_json(result.reward));
    }
  }
  for (std::size_t index = 0; index < shards.size(); ++index) {
    if (lines_read[index] != shards[index].meta.records || std::getline(inputs[index], line)) {
      throw CommandError(shards[index].path + " holds more lines than the " +
                         std::to_string(shards[index].meta.records) + " records its description says: " +
                         rerun_hint(shards[index].meta.index, shards[index].meta.count, shards[index].meta.options));
    }
  }
  if (csv) csv->flush();
  merged.commit();
  if (!options.quiet) {
    spdlog::info("merged {} shards, {} records, into {} in {:.2f} s", shards.size(), total, options.out,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "merge", "Join the outputs of a sharded batch into the file one process writes, or a sharded sweep's databases "
              "into one run of a results database (docs/cluster.md)");
  command->add_option("shards", options->shards,
                      "Every shard's output file (FILE.shard-I-of-N.jsonl, or a sweep's DB.shard-I-of-N.sqlite)")
      ->required();
  command->add_option("--out", options->out,
                      "The merged JSONL (written whole, then renamed into place), or the results database the "
                      "merged sweep run is added to")
      ->required();
  command->add_option("--csv", options->csv, "Also write the run's flat CSV table here");
  command->add_option("--rewards-dir", options->rewards_dir, "Also write each record's reward.json into this folder");
  command->add_flag("--no-timings", options->no_timings, "Leave out seconds and steps, as batch --no-timings does");
  command->add_flag("--quiet", options->quiet, "No summary on stderr");
  command->callback([options] { merge(*options); });
}

}  // namespace weightspace::app
