// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <weightspace/big_int.hpp>
#include <weightspace/error.hpp>

namespace weightspace {

// What verify.grade_answer returns: the normalized score and the metadata dict, in its key
// order. A failed one carries the exception the grader raised.
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
  // !parse_success: what the grader raised. Only error->message is in the reward JSON (as
  // "error"); its class and place are for the outputs beside it.
  std::optional<PythonError> error;
};

// json.dumps({"normalized_score": s, **metadata}) exactly as the grader writes it.
std::string reward_json(const Reward& reward);

// The error's class and place beside the reward, for the outputs that carry them (batch lines,
// `serve` results): `"error_kind": K, "error_line": L, "error_column": C`, K null on success,
// L and C null when the error has no single place.
std::string error_place_json(const Reward& reward);

}  // namespace weightspace
