// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/batch_output.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "apps/version.hpp"
#include "engine/python_json.hpp"
#include "parser/json_reader.hpp"

namespace weightspace::app {

namespace {

// Timings to the microsecond, in the JSON line and the CSV alike.
std::string seconds_text(double seconds) {
  // Room for any finite double in %.6f (309 digits before the point): a line read back may
  // hold any number of seconds, and a truncated one would be another number.
  char text[352];
  std::snprintf(text, sizeof text, "%.6f", seconds);
  return text;
}

// Reads a batch line's members: top-level scalars, and the reward object's members and extent.
class LineFields final : public JsonEvents {
 public:
  LineFields(std::string_view line, BatchResult& result, std::string* version)
      : line_(line), result_(result), version_(version) {}

  bool has_reward = false;
  std::string_view reward_text;
  bool timings = false;

  void begin_container(JsonType type, std::size_t offset) override {
    if (depth_ == 0 && type != JsonType::Object) fail("not a JSON object");
    if (depth_ == 1) {
      if (key_ != "reward" || type != JsonType::Object) fail("\"" + key_ + "\" is not a batch field");
      reward_start_ = offset;
    }
    if (depth_ >= 2) fail("the reward holds a container");
    ++depth_;
  }
  void end_container(std::size_t closing) override {
    if (--depth_ == 1) {
      reward_text = line_.substr(reward_start_, closing + 1 - reward_start_);
      has_reward = true;
    }
  }
  void key(std::string_view key) override { (depth_ == 1 ? key_ : reward_key_) = key; }

  void scalar(const JsonScalar& value) override {
    if (depth_ == 2) return reward_member(value);
    if (depth_ != 1) fail("not a JSON object");
    BatchRecord& record = result_.record;
    if (key_ == "id") {
      if (value.type != JsonType::String && value.type != JsonType::Int) fail("bad id");
      record.id = value.type == JsonType::String ? python_json_string(value.text) : std::string(value.text);
    } else if (key_ == "input") {
      record.input = string(value);
    } else if (key_ == "game") {
      record.request.game = string(value);
    } else if (key_ == "source") {
      record.request.source = string(value);
    } else if (key_ == "episodes") {
      record.request.episodes = integer(value);
    } else if (key_ == "weights_sha256") {
      if (value.type != JsonType::Null) result_.weights_sha256 = string(value);
    } else if (key_ == "error_kind") {
      if (value.type != JsonType::Null) error().kind = string(value);
    } else if (key_ == "error_line") {
      if (value.type != JsonType::Null) error().line = static_cast<int>(integer(value));
    } else if (key_ == "error_column") {
      if (value.type != JsonType::Null) error().column = static_cast<int>(integer(value));
    } else if (key_ == "refused") {
      if (value.type != JsonType::Bool || !value.truthy) fail("\"refused\" is not true");
      result_.refused = true;
    } else if (key_ == "cached") {
      if (value.type != JsonType::Bool) fail("\"cached\" is not a boolean");
      result_.cached = value.truthy;
    } else if (key_ == "weightspace_version") {
      if (version_ != nullptr) {
        *version_ = string(value);
      } else if (string(value) != kVersion) {
        fail("it was written by weightspace " + string(value) + ", this is " + kVersion);
      }
    } else if (key_ == "seconds") {
      // As batch_line writes them: never negative, never NaN or infinite ("nan" is not JSON).
      result_.seconds = number(value);
      if (!std::isfinite(result_.seconds) || result_.seconds < 0) fail("\"seconds\" is not a number of seconds");
      timings = true;
    } else if (key_ == "steps") {
      result_.steps = integer(value);
    } else {
      fail("\"" + key_ + "\" is not a batch field");
    }
  }

 private:
  [[noreturn]] static void fail(const std::string& message) { throw EditError("ValueError", message); }

  static std::string string(const JsonScalar& value) {
    if (value.type != JsonType::String) fail("a string was expected");
    return std::string(value.text);
  }
  // The failed reward's error, read from "error" in the reward and the keys beside it.
  PythonError& error() {
    if (!result_.reward.error) result_.reward.error.emplace();
    return *result_.reward.error;
  }

  static std::int64_t integer(const JsonScalar& value) {
    if (value.type != JsonType::Int) fail("an integer was expected");
    return std::strtoll(std::string(value.text).c_str(), nullptr, 10);
  }
  static double number(const JsonScalar& value) {
    if (value.type != JsonType::Float && value.type != JsonType::Int) fail("a number was expected");
    return std::strtod(std::string(value.text).c_str(), nullptr);
  }

  void reward_member(const JsonScalar& value) {
    Reward& reward = result_.reward;
    const std::string& key = reward_key_;
    if (key == "normalized_score") reward.normalized_score = number(value);
    else if (key == "game") reward.game = string(value);
    else if (key == "source") reward.source = string(value);
    else if (key == "episodes") reward.episodes = BigInt(integer(value));
    else if (key == "parse_success") reward.parse_success = number(value) == 1.0;
    else if (key == "raw_score") reward.raw_score = number(value);
    else if (key == "score_cap") reward.score_cap = number(value);
    else if (key == "mean_episode_length") reward.mean_episode_length = number(value);
    else if (key == "edit_count") reward.edit_count = integer(value);
    else if (key == "nonzero_weights") reward.nonzero_weights = integer(value);
    else if (key == "error") error().message = string(value);
    else fail("the reward has an unknown key \"" + key + "\"");
  }

  std::string_view line_;
  BatchResult& result_;
  std::string* version_;
  int depth_ = 0;
  std::string key_;
  std::string reward_key_;
  std::size_t reward_start_ = 0;
};

void csv_field(std::string& row, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    row += text;
  } else {
    row += '"';
    for (const char c : text) {
      if (c == '"') row += '"';
      row += c;
    }
    row += '"';
  }
}

}  // namespace

std::string batch_line(const BatchResult& result, bool timings) {
  const BatchRecord& record = result.record;
  std::string line = "{\"id\": " + record.id;
  line += ", \"input\": " + python_json_string(record.input);
  line += ", \"game\": " + python_json_string(record.request.game);
  line += ", \"source\": " + python_json_string(record.request.source);
  line += ", \"episodes\": " + std::to_string(record.request.episodes);
  line += ", \"reward\": " + reward_json(result.reward);
  line += ", \"weights_sha256\": " + python_json_string_or_null(result.weights_sha256);
  // The error's class and place beside the reward (which holds only the grader's message).
  line += ", " + error_place_json(result.reward);
  // Not graded for a limit of this machine (not the answer's fault): marked for programs, and
  // only there, so that every other line stays as it was.
  if (result.refused) line += ", \"refused\": true";
  line += ", \"cached\": ";
  line += result.cached ? "true" : "false";
  line += ", \"weightspace_version\": " + python_json_string(kVersion);
  if (timings) {
    line += ", \"seconds\": " + seconds_text(result.seconds);
    line += ", \"steps\": " + std::to_string(result.steps);
  }
  return line + "}";
}

BatchResult parse_batch_line(std::string_view line, bool& timings, std::string* version) {
  BatchResult result;
  LineFields fields(line, result, version);
  read_python_json(line, fields);
  timings = fields.timings;
  if (!fields.has_reward || result.record.id.empty()) throw EditError("ValueError", "not a batch record");
  if (reward_json(result.reward) != fields.reward_text) {
    throw EditError("ValueError", "its reward is not as this weightspace writes it");
  }
  return result;
}

bool same_record(const BatchResult& written, const BatchRecord& record) {
  const BatchRecord& old = written.record;
  return old.id == record.id && old.input == record.input && old.request.game == record.request.game &&
         old.request.source == record.request.source && old.request.episodes == record.request.episodes;
}

std::string id_text(std::string_view id_json) {
  if (!id_json.starts_with('"')) return std::string(id_json);
  struct Text final : JsonEvents {
    std::string value;
    void begin_container(JsonType, std::size_t) override {}
    void end_container(std::size_t) override {}
    void key(std::string_view) override {}
    void scalar(const JsonScalar& scalar) override { value = scalar.text; }
  } text;
  read_python_json(id_json, text);
  return text.value;
}

std::string csv_header(bool timings) {
  std::string header =
      "id,input,game,source,episodes,normalized_score,parse_success,raw_score,score_cap,mean_episode_length,"
      "edit_count,nonzero_weights,error_kind,error_line,error_column,error,weights_sha256,cached";
  return header + (timings ? ",seconds,steps\n" : "\n");
}

std::string csv_row(const BatchResult& result, bool timings) {
  const Reward& reward = result.reward;
  const bool ok = reward.parse_success;
  // The place as the JSON line has it: empty (null there) on success and when there is none.
  const bool placed = !ok && reward.error && reward.error->has_place();
  std::vector<std::string> fields = {
      id_text(result.record.id),
      result.record.input,
      result.record.request.game,
      result.record.request.source,
      std::to_string(result.record.request.episodes),
      python_float_repr(reward.normalized_score),
      ok ? "1.0" : "0.0",
      ok ? python_float_repr(reward.raw_score) : "",
      ok ? python_float_repr(reward.score_cap) : "",
      ok ? python_float_repr(reward.mean_episode_length) : "",
      ok ? std::to_string(reward.edit_count) : "",
      ok ? std::to_string(reward.nonzero_weights) : "",
      ok || !reward.error ? "" : reward.error->kind,
      placed ? std::to_string(reward.error->line) : "",
      placed ? std::to_string(reward.error->column) : "",
      ok || !reward.error ? "" : reward.error->message,
      result.weights_sha256.value_or(""),
      result.cached ? "true" : "false",
  };
  if (timings) {
    fields.push_back(seconds_text(result.seconds));
    fields.push_back(std::to_string(result.steps));
  }
  std::string row;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) row += ',';
    csv_field(row, fields[i]);
  }
  return row + "\n";
}

std::string reward_file_name(std::uint64_t line, const BatchResult& result) {
  char number[24];
  std::snprintf(number, sizeof number, "%06llu", static_cast<unsigned long long>(line));
  std::string name = number;
  const BatchRecord& record = result.record;
  for (const std::string& part : {id_text(record.id), record.request.game, record.request.source,
                                  std::to_string(record.request.episodes)}) {
    name += '-';
    for (const char c : part.substr(0, 80)) {
      const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                         c == '_' || c == '-';
      name += plain ? c : '_';
    }
  }
  return name + ".json";
}

}  // namespace weightspace::app
