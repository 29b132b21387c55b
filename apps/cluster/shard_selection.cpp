// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cluster/shard_selection.hpp"

#include <algorithm>

#include "apps/cli/files.hpp"
#include "engine/python_json.hpp"

namespace weightspace::app {

ShardSelection::ShardSelection(std::optional<ShardSpec> shard)
    : shard_(std::move(shard)), balancer_(shard_ ? shard_->count : 1) {}

bool ShardSelection::keep(const BatchRecord& record) {
  last_work_ = record_work(record.request);
  total_work_ += last_work_;
  ++total_records_;
  fingerprint_.add(record);
  const bool mine = balancer_.assign(last_work_) == (shard_ ? shard_->index : 0);
  records_ += mine ? 1 : 0;
  return mine;
}

std::uint64_t ShardSelection::work() const { return balancer_.work_of(shard_ ? shard_->index : 0); }

std::uint64_t ShardSelection::max_shard_work() const {
  std::uint64_t most = 0;
  for (std::int64_t shard = 0; shard < balancer_.count(); ++shard) most = std::max(most, balancer_.work_of(shard));
  return most;
}

void print_dry_run(const std::function<std::optional<BatchRecord>()>& next, ShardSelection& selection,
                   const std::string& out) {
  OutputFile stdout_file("-", OutputFile::Mode::Append);
  const std::optional<ShardSpec>& shard = selection.shard();
  std::string header = "{\"shard\": ";
  if (shard) {
    header += "{\"index\": " + std::to_string(shard->index) + ", \"count\": " + std::to_string(shard->count) +
              ", \"from\": " + python_json_string(shard->from) + "}";
  } else {
    header += "null";
  }
  header += ", \"out\": " + (out.empty() ? std::string("null") : python_json_string(out)) + "}\n";
  stdout_file.write(header);
  while (const std::optional<BatchRecord> record = next()) {
    const GradeRequest& request = record->request;
    stdout_file.write("{\"position\": " + std::to_string(selection.total_records() - 1) + ", \"id\": " + record->id +
                      ", \"input\": " + python_json_string(record->input) + ", \"game\": " +
                      python_json_string(request.game) + ", \"source\": " + python_json_string(request.source) +
                      ", \"episodes\": " + std::to_string(request.episodes) +
                      ", \"work\": " + std::to_string(selection.last_work()) + "}\n");
  }
  stdout_file.write("{\"summary\": {\"records\": " + std::to_string(selection.records()) +
                    ", \"total_records\": " + std::to_string(selection.total_records()) +
                    ", \"work\": " + std::to_string(selection.work()) +
                    ", \"total_work\": " + std::to_string(selection.total_work()) +
                    ", \"max_shard_work\": " + std::to_string(selection.max_shard_work()) + "}}\n");
}

}  // namespace weightspace::app
