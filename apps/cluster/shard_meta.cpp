// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cluster/shard_meta.hpp"

#include <filesystem>

#include "apps/cli/files.hpp"

namespace weightspace::app {

namespace {

constexpr const char* kFormat = "weightspace-shard";
constexpr int kFormatVersion = 1;

}  // namespace

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
  ShardMeta meta;
  try {
    const nlohmann::ordered_json json = nlohmann::ordered_json::parse(read_input(path));
    if (json.value("format", "") != kFormat || json.value("format_version", 0) != kFormatVersion) {
      throw CommandError(path + " is not a weightspace shard description (format " + kFormat + " " +
                         std::to_string(kFormatVersion) + ")");
    }
    meta.weightspace_version = json.at("weightspace_version").get<std::string>();
    meta.index = json.at("shard_index").get<std::int64_t>();
    meta.count = json.at("shard_count").get<std::int64_t>();
    meta.out = json.at("out").get<std::string>();
    meta.options = json.at("options");
    meta.complete = json.at("complete").get<bool>();
    if (meta.complete) {
      meta.inputs_sha256 = json.at("inputs_sha256").get<std::string>();
      meta.records = json.at("records").get<std::uint64_t>();
      meta.total_records = json.at("total_records").get<std::uint64_t>();
      meta.work = json.at("work").get<std::uint64_t>();
      meta.total_work = json.at("total_work").get<std::uint64_t>();
    }
  } catch (const nlohmann::json::exception& failure) {
    throw CommandError(path + " is not a weightspace shard description: " + failure.what());
  }
  if (meta.count < 1 || meta.index < 0 || meta.index >= meta.count) {
    throw CommandError(path + ": shard " + std::to_string(meta.index) + " of " + std::to_string(meta.count) +
                       " is not a shard");
  }
  return meta;
}

}  // namespace weightspace::app
