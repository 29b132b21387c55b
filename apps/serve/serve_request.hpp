// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weightspace serve`'s request bodies and response shapes: JSON in, batch records out, and
// the results back as JSON whose reward is reward_json's text byte for byte. No I/O.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <weightspace/batch_grader.hpp>

namespace weightspace::serve {

// A request the server refuses: its HTTP status (400, 413) and the message for the client.
class RequestError : public std::runtime_error {
 public:
  RequestError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// What a record leaves out, and the bounds every record must keep.
struct RecordDefaults {
  std::string game;  // empty: a record must name its game
  std::string source = "original";
  std::int64_t episodes = 1000;
  std::int64_t max_episodes = 100000;  // a record's episodes, 0..max_episodes
  std::size_t max_records = 1024;      // records in one request
};

// The body as JSON; RequestError(400) with nlohmann's message when it is not.
nlohmann::json parse_body(std::string_view body);

// POST /v1/grade: {"answer": TEXT | "trajectory": OBJECT-OR-TEXT, "game"?, "source"?, "episodes"?}.
BatchRecord grade_record(const nlohmann::json& body, const RecordDefaults& defaults);
// POST /v1/grade_many: a list of such records, or {"records": [...]}.
std::vector<BatchRecord> grade_many_records(const nlohmann::json& body, const RecordDefaults& defaults);
// POST /get_reward (OpenRLHF): {"query": [TEXT, ...], "prompts"?: [...], "labels"?: [...]}.
std::vector<BatchRecord> reward_records(const nlohmann::json& body, const RecordDefaults& defaults);

// A label of /get_reward: "GAME", "SOURCE/GAME", "GAME@EPISODES" or "SOURCE/GAME@EPISODES";
// what it leaves out comes from the defaults.
GradeRequest label_request(std::string_view label, const RecordDefaults& defaults);

// {"reward": <reward_json>, "weights_sha256": ..., "cached": ..., "seconds": ..., "steps": ...}
std::string result_json(const BatchResult& result);
// {"rewards": [normalized_score, ...]} with the scores as the grader's json.dumps writes them.
std::string rewards_json(const std::vector<BatchResult>& results);
// {"error": message}
std::string error_json(std::string_view message);

// Whether `given` equals `expected`, in a time that depends on neither's contents (only on
// the length of `given`): a bearer token's check must not tell how much of it was right.
bool same_token(std::string_view given, std::string_view expected);

}  // namespace weightspace::serve
