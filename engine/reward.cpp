// SPDX-License-Identifier: GPL-3.0-or-later
#include <weightspace/reward.hpp>

#include "engine/python_json.hpp"

namespace weightspace {

std::string reward_json(const Reward& reward) {
  std::string out = "{\"normalized_score\": " + python_json_float(reward.normalized_score);
  out += ", \"game\": " + python_json_string(reward.game);
  out += ", \"source\": " + python_json_string(reward.source);
  out += ", \"episodes\": " + reward.episodes.to_decimal();
  out += ", \"parse_success\": " + python_json_float(reward.parse_success ? 1.0 : 0.0);
  if (reward.parse_success) {
    out += ", \"raw_score\": " + python_json_float(reward.raw_score);
    out += ", \"score_cap\": " + python_json_float(reward.score_cap);
    out += ", \"mean_episode_length\": " + python_json_float(reward.mean_episode_length);
    out += ", \"edit_count\": " + std::to_string(reward.edit_count);
    out += ", \"nonzero_weights\": " + std::to_string(reward.nonzero_weights);
  } else {
    out += ", \"error\": " + python_json_string(reward.error ? reward.error->message : std::string());
  }
  return out + "}";
}

std::string error_place_json(const Reward& reward) {
  const PythonError* error = !reward.parse_success && reward.error ? &*reward.error : nullptr;
  const bool placed = error != nullptr && error->has_place();
  std::string out = "\"error_kind\": " + (error ? python_json_string(error->kind) : std::string("null"));
  out += ", \"error_line\": " + (placed ? std::to_string(error->line) : std::string("null"));
  return out + ", \"error_column\": " + (placed ? std::to_string(error->column) : std::string("null"));
}

}  // namespace weightspace
