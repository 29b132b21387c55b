// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/serve_request.hpp"

#include <charconv>
#include <utility>

#include "engine/python_json.hpp"

namespace weightspace::serve {

namespace {

using nlohmann::json;

std::int64_t episodes_of(const json& value, const RecordDefaults& defaults) {
  if (!value.is_number_integer()) throw RequestError(400, "\"episodes\" must be an integer");
  // Unsigned first: a JSON integer above INT64_MAX must not wrap to a small count.
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(defaults.max_episodes)) {
    throw RequestError(400, "\"episodes\" must be from 0 to " + std::to_string(defaults.max_episodes));
  }
  const auto episodes = value.get<std::int64_t>();
  if (episodes < 0 || episodes > defaults.max_episodes) {
    throw RequestError(400, "\"episodes\" must be from 0 to " + std::to_string(defaults.max_episodes));
  }
  return episodes;
}

std::string string_field(const json& body, const char* key, const std::string& fallback) {
  const auto found = body.find(key);
  if (found == body.end() || found->is_null()) return fallback;
  if (!found->is_string()) throw RequestError(400, std::string("\"") + key + "\" must be a string");
  return found->get<std::string>();
}

GradeRequest checked(GradeRequest request) {
  if (request.game.empty()) throw RequestError(400, "no \"game\" given and the server has no default game");
  if (request.source != "original" && request.source != "synth") {
    throw RequestError(400, "\"source\" must be \"original\" or \"synth\", got \"" + request.source + "\"");
  }
  return request;
}

const json& records_of(const json& body, const RecordDefaults& defaults) {
  const json* records = &body;
  if (body.is_object() && body.contains("records")) records = &body.at("records");
  if (!records->is_array()) throw RequestError(400, "the body must be a list of records or {\"records\": [...]}");
  if (records->size() > defaults.max_records) {
    throw RequestError(413, std::to_string(records->size()) + " records in one request; the server takes at most " +
                                std::to_string(defaults.max_records));
  }
  return *records;
}

}  // namespace

json parse_body(std::string_view body) {
  try {
    return json::parse(body);
  } catch (const json::parse_error& error) {
    throw RequestError(400, std::string("malformed JSON: ") + error.what());
  }
}

BatchRecord grade_record(const json& body, const RecordDefaults& defaults) {
  if (!body.is_object()) throw RequestError(400, "a record must be a JSON object");
  BatchRecord record;
  record.input = "request";
  const bool answer = body.contains("answer");
  const bool trajectory = body.contains("trajectory");
  if (answer == trajectory) throw RequestError(400, "a record needs exactly one of \"answer\" and \"trajectory\"");
  if (answer) {
    if (!body.at("answer").is_string()) throw RequestError(400, "\"answer\" must be a string");
    record.text = body.at("answer").get<std::string>();
  } else {
    // The trajectory's JSON document, as `grade --trajectory` reads it from a file; an object
    // is written back as JSON (assistant_answer reads only its messages' text).
    const json& value = body.at("trajectory");
    record.content = BatchRecord::Content::Trajectory;
    record.text = value.is_string() ? value.get<std::string>() : value.dump();
  }
  record.request.game = string_field(body, "game", defaults.game);
  record.request.source = string_field(body, "source", defaults.source);
  const auto episodes = body.find("episodes");
  record.request.episodes =
      episodes == body.end() || episodes->is_null() ? defaults.episodes : episodes_of(*episodes, defaults);
  record.request = checked(std::move(record.request));
  return record;
}

std::vector<BatchRecord> grade_many_records(const json& body, const RecordDefaults& defaults) {
  const json& records = records_of(body, defaults);
  std::vector<BatchRecord> result;
  result.reserve(records.size());
  for (std::size_t index = 0; index < records.size(); ++index) {
    try {
      result.push_back(grade_record(records[index], defaults));
    } catch (const RequestError& error) {
      throw RequestError(error.status(), "record " + std::to_string(index) + ": " + error.what());
    }
  }
  return result;
}

GradeRequest label_request(std::string_view label, const RecordDefaults& defaults) {
  GradeRequest request;
  request.source = defaults.source;
  request.episodes = defaults.episodes;
  if (const auto at = label.rfind('@'); at != std::string_view::npos) {
    const std::string_view digits = label.substr(at + 1);
    std::int64_t episodes = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), episodes);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || episodes < 0 ||
        episodes > defaults.max_episodes) {
      throw RequestError(400, "label \"" + std::string(label) + "\": the episodes after '@' must be from 0 to " +
                                  std::to_string(defaults.max_episodes));
    }
    request.episodes = episodes;
    label = label.substr(0, at);
  }
  if (const auto slash = label.find('/'); slash != std::string_view::npos) {
    request.source = std::string(label.substr(0, slash));
    label = label.substr(slash + 1);
  }
  request.game = label.empty() ? defaults.game : std::string(label);
  return checked(std::move(request));
}

std::vector<BatchRecord> reward_records(const json& body, const RecordDefaults& defaults) {
  if (!body.is_object() || !body.contains("query") || !body.at("query").is_array()) {
    throw RequestError(400, "the body must be {\"query\": [text, ...]}");
  }
  const json& queries = body.at("query");
  if (queries.size() > defaults.max_records) {
    throw RequestError(413, std::to_string(queries.size()) + " queries in one request; the server takes at most " +
                                std::to_string(defaults.max_records));
  }
  auto parallel_list = [&](const char* key) -> const json* {
    const auto found = body.find(key);
    if (found == body.end() || found->is_null()) return nullptr;
    if (!found->is_array() || found->size() != queries.size()) {
      throw RequestError(400, std::string("\"") + key + "\" must be a list as long as \"query\"");
    }
    return &*found;
  };
  const json* labels = parallel_list("labels");
  const json* prompts = parallel_list("prompts");
  std::vector<BatchRecord> records(queries.size());
  for (std::size_t index = 0; index < queries.size(); ++index) {
    const std::string where = "query " + std::to_string(index) + ": ";
    if (!queries[index].is_string()) throw RequestError(400, where + "must be a string");
    BatchRecord& record = records[index];
    record.input = "query";
    record.text = queries[index].get<std::string>();
    // OpenRLHF's query is the prompt followed by the response: grade the response alone, so an
    // edits block quoted in the prompt is never taken for the answer's.
    if (prompts != nullptr && (*prompts)[index].is_string()) {
      const auto& prompt = (*prompts)[index].get_ref<const std::string&>();
      if (record.text.starts_with(prompt)) record.text.erase(0, prompt.size());
    }
    const json* label = labels != nullptr && !(*labels)[index].is_null() ? &(*labels)[index] : nullptr;
    if (label != nullptr && !label->is_string()) throw RequestError(400, where + "its label must be a string");
    try {
      record.request = label != nullptr ? label_request(label->get<std::string>(), defaults)
                                        : checked(GradeRequest{defaults.game, defaults.source, defaults.episodes, {}});
    } catch (const RequestError& error) {
      throw RequestError(error.status(), where + error.what());
    }
  }
  return records;
}

std::string result_json(const BatchResult& result) {
  std::string text = "{\"reward\": " + reward_json(result.reward) + ", \"weights_sha256\": ";
  text += python_json_string_or_null(result.weights_sha256);
  text += ", " + error_place_json(result.reward);
  // Not graded for a limit of this machine (not the answer's fault), as on a batch line.
  if (result.refused) text += ", \"refused\": true";
  text += ", \"cached\": ";
  text += result.cached ? "true" : "false";
  text += ", \"seconds\": " + python_json_float(result.seconds);
  text += ", \"steps\": " + std::to_string(result.steps) + "}";
  return text;
}

std::string rewards_json(const std::vector<BatchResult>& results) {
  std::string text = "{\"rewards\": [";
  for (std::size_t index = 0; index < results.size(); ++index) {
    if (index > 0) text += ", ";
    text += python_json_float(results[index].reward.normalized_score);
  }
  return text + "]}";
}

std::string error_json(std::string_view message) { return "{\"error\": " + python_json_string(message) + "}"; }

bool same_token(std::string_view given, std::string_view expected) {
  // Every byte of `given` is compared (against the expected byte, or against itself past the
  // end), and the differences are OR-ed together, not returned at the first one.
  unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t index = 0; index < given.size(); ++index) {
    const char other = index < expected.size() ? expected[index] : given[index];
    difference |= static_cast<unsigned char>(given[index] ^ other);
  }
  return difference == 0;
}

}  // namespace weightspace::serve
