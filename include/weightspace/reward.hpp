// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <weightspace/big_int.hpp>

namespace weightspace {

// What verify.grade_answer returns: the normalized score and the metadata dict, in its key
// order. A failed parse carries the grader's exception class and our message.
struct Reward {
  double normalized_score = 0.0;
  std::string game;
  std::string source;
  BigInt episodes;  // as the caller gave it: verify.py's main() reads any int from the environment
  bool parse_success = false;
  // parse_success:
  double raw_score = 0.0;
  double score_cap = 0.0;
  double mean_episode_length = 0.0;
  std::int64_t edit_count = 0;
  std::int64_t nonzero_weights = 0;
  // !parse_success:
  std::string error;
  std::string error_kind;  // not in the reward JSON; for logs and diagnostics
};

// json.dumps({"normalized_score": s, **metadata}) exactly as the grader writes it.
std::string reward_json(const Reward& reward);

}  // namespace weightspace
