// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/speed_workload.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "parser/numpy/apply_edits.hpp"

namespace weightspace::app {

namespace {

// A record that can be timed: it parsed (a failed parse plays no episode and has no weights).
std::optional<WorkloadItem> item_of(const StoredRecord& record) {
  if (!record.weights_sha256 || record.error_kind) return std::nullopt;
  return WorkloadItem{*record.weights_sha256, record.game, record.source, record.episodes};
}

}  // namespace

std::vector<WorkloadItem> choose_workload(const std::vector<StoredRecord>& records, std::int64_t size,
                                          const std::optional<std::vector<WorkloadItem>>& inherited) {
  std::set<WorkloadItem> available;
  for (const StoredRecord& record : records) {
    if (std::optional<WorkloadItem> item = item_of(record)) available.insert(std::move(*item));
  }
  if (inherited && !inherited->empty() &&
      std::all_of(inherited->begin(), inherited->end(), [&](const WorkloadItem& item) { return available.contains(item); })) {
    return *inherited;
  }
  std::vector<WorkloadItem> chosen;
  for (const WorkloadItem& item : available) {  // std::set: in SHA-256, game, source, episodes order
    if (static_cast<std::int64_t>(chosen.size()) == size) break;
    chosen.push_back(item);
  }
  return chosen;
}

std::vector<std::int64_t> workload_records(const std::vector<StoredRecord>& records,
                                           const std::vector<WorkloadItem>& workload) {
  std::map<WorkloadItem, std::int64_t> first;
  for (const StoredRecord& record : records) {
    if (std::optional<WorkloadItem> item = item_of(record)) first.try_emplace(std::move(*item), record.seq);
  }
  std::vector<std::int64_t> seqs;
  for (const WorkloadItem& item : workload) seqs.push_back(first.at(item));
  return seqs;
}

std::string workload_text(const std::vector<WorkloadItem>& workload) {
  nlohmann::json items = nlohmann::json::array();
  for (const WorkloadItem& item : workload) {
    items.push_back({{"weights_sha256", item.weights_sha256},
                     {"game", item.game},
                     {"source", item.source},
                     {"episodes", item.episodes}});
  }
  return items.dump();
}

std::optional<std::vector<WorkloadItem>> parse_workload(const std::string& text) {
  const nlohmann::json items = nlohmann::json::parse(text, nullptr, false);
  if (!items.is_array()) return std::nullopt;
  std::vector<WorkloadItem> workload;
  for (const nlohmann::json& item : items) {
    if (!item.is_object() || !item.value("weights_sha256", nlohmann::json()).is_string() ||
        !item.value("game", nlohmann::json()).is_string() || !item.value("source", nlohmann::json()).is_string() ||
        !item.value("episodes", nlohmann::json()).is_number_integer()) {
      return std::nullopt;
    }
    workload.push_back({item["weights_sha256"], item["game"], item["source"], item["episodes"]});
  }
  return workload;
}

std::string workload_label(const std::string& text) {
  const std::optional<std::vector<WorkloadItem>> workload = parse_workload(text);
  const std::string size = workload ? std::to_string(workload->size()) + " records" : "unreadable";
  return size + ", " + sha256_hex(text).substr(0, 12);
}

}  // namespace weightspace::app
