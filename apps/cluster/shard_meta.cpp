// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cluster/shard_meta.hpp"

#include <filesystem>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "apps/cli/files.hpp"
#include "apps/cluster/shard.hpp"

namespace weightspace::app {

namespace {

constexpr const char* kFormat = "weightspace-shard";
constexpr int kFormatVersion = 1;

// What the merges read of a shard's options, checked once here so that they can rely on it.
std::string options_problem(const nlohmann::ordered_json& options) {
  if (!options.is_object()) return "its options are not an object";
  if (options.contains("sweep") && !options.at("sweep").is_string()) return "its options' sweep is not a string";
  if (!options.contains("cache") || !options.at("cache").is_number_unsigned()) {
    return "its options' cache is not a whole number";
  }
  if (!options.contains("sweep") && (!options.contains("timings") || !options.at("timings").is_boolean())) {
    return "its options' timings is not true or false";
  }
  return "";
}

// A whole number of the description. nlohmann's get<> converts a float (2e20, or a number too
// large for 64 bits, which it reads as one) by a cast that is undefined out of range.
template <class Integer>
Integer whole(const nlohmann::ordered_json& json, const char* key) {
  const nlohmann::ordered_json& value = json.at(key);
  constexpr auto kLargest = static_cast<std::uint64_t>(std::numeric_limits<Integer>::max());
  const bool fits = value.is_number_unsigned() ? value.get<std::uint64_t>() <= kLargest
                                               : std::is_signed_v<Integer> && value.is_number_integer();
  if (!fits) {
    throw std::invalid_argument(std::string(key) + " is not a whole number" +
                                (std::is_signed_v<Integer> ? "" : " from 0") + " within 64 bits");
  }
  return value.get<Integer>();
}

}  // namespace

bool is_sweep_shard(const ShardMeta& meta) { return meta.options.contains("sweep"); }
bool shard_timings(const ShardMeta& meta, const std::string& shard_output) {
  if (is_sweep_shard(meta)) {
    throw CommandError(shard_output + " is not a batch shard's output: its description is that of a shard of sweep \"" +
                       meta.options.at("sweep").get<std::string>() + "\"");
  }
  return meta.options.at("timings").get<bool>();
}
std::size_t shard_cache(const ShardMeta& meta) { return meta.options.at("cache").get<std::size_t>(); }

std::string shard_meta_path(const std::string& shard_output) { return shard_output + ".shard.json"; }

void write_shard_meta(const std::string& shard_output, const ShardMeta& meta) {
  nlohmann::ordered_json json;
  json["format"] = kFormat;
  json["format_version"] = kFormatVersion;
  json["weightspace_version"] = meta.weightspace_version;
  json["shard_index"] = meta.index;
  json["shard_count"] = meta.count;
  json["out"] = meta.out;
  json["options"] = meta.options;
  json["complete"] = meta.complete;
  if (meta.complete) {
    json["inputs_sha256"] = meta.inputs_sha256;
    json["records"] = meta.records;
    json["total_records"] = meta.total_records;
    json["work"] = meta.work;
    json["total_work"] = meta.total_work;
  }
  write_file(shard_meta_path(shard_output), json.dump(2) + "\n");
}

ShardMeta read_shard_meta(const std::string& shard_output) {
  const std::string path = shard_meta_path(shard_output);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    throw CommandError(shard_output + " has no " + path +
                       ": it is not the output of a shard (weightspace batch with --shard-index/--shard-count, or "
                       "in a Slurm array or Kubernetes Indexed Job)");
  }
  return parse_shard_meta(read_input(path), path);
}

ShardMeta parse_shard_meta(std::string_view text, const std::string& path) {
  ShardMeta meta;
  try {
    const nlohmann::ordered_json json = nlohmann::ordered_json::parse(text);
    const auto version = json.find("format_version");
    if (json.value("format", "") != kFormat || version == json.end() || !version->is_number_integer() ||
        *version != kFormatVersion) {
      throw CommandError(path + " is not a weightspace shard description (format " + kFormat + " " +
                         std::to_string(kFormatVersion) + ")");
    }
    meta.weightspace_version = json.at("weightspace_version").get<std::string>();
    meta.index = whole<std::int64_t>(json, "shard_index");
    meta.count = whole<std::int64_t>(json, "shard_count");
    meta.out = json.at("out").get<std::string>();
    meta.options = json.at("options");
    meta.complete = json.at("complete").get<bool>();
    if (meta.complete) {
      meta.inputs_sha256 = json.at("inputs_sha256").get<std::string>();
      meta.records = whole<std::uint64_t>(json, "records");
      meta.total_records = whole<std::uint64_t>(json, "total_records");
      meta.work = whole<std::uint64_t>(json, "work");
      meta.total_work = whole<std::uint64_t>(json, "total_work");
    }
  } catch (const nlohmann::json::exception& failure) {
    throw CommandError(path + " is not a weightspace shard description: " + failure.what());
  } catch (const std::invalid_argument& failure) {
    throw CommandError(path + " is not a weightspace shard description: " + failure.what());
  }
  if (const std::string problem = options_problem(meta.options); !problem.empty()) {
    throw CommandError(path + " is not a weightspace shard description: " + problem);
  }
  if (meta.count < 1 || meta.count > kMaxShards || meta.index < 0 || meta.index >= meta.count) {
    throw CommandError(path + ": shard " + std::to_string(meta.index) + " of " + std::to_string(meta.count) +
                       " is not a shard");
  }
  return meta;
}

}  // namespace weightspace::app
