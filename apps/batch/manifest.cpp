// SPDX-License-Identifier: GPL-3.0-or-later
// parse_manifest_line: one JSONL manifest line of `weightspace batch`, read as json.loads reads it.
#include <algorithm>
#include <charconv>

#include "apps/batch/batch_inputs.hpp"
#include "engine/python_json.hpp"
#include "parser/json_reader.hpp"

namespace weightspace::app {

namespace {

// The fields of one manifest object, from the reader's events: top-level keys only, plus the
// strings of a "game" list and the extent of a "trajectory" value.
class ManifestFields final : public JsonEvents {
 public:
  ManifestFields(std::string_view line, ManifestEntry& entry) : line_(line), entry_(entry) {}

  void begin_container(JsonType type, std::size_t offset) override {
    if (depth_ == 0 && type != JsonType::Object) fail("a manifest line must be a JSON object");
    if (depth_ == 1) {
      if (key_ == "trajectory") {
        set_content(ManifestEntry::Content::Trajectory);
        trajectory_start_ = offset;
      } else if (key_ == "game" && type == JsonType::Array) {
        entry_.games.emplace();
        in_games_ = true;
      } else {
        check_known(type);
      }
    }
    ++depth_;
  }

  void end_container(std::size_t closing) override {
    --depth_;
    if (depth_ == 1 && key_ == "trajectory") {
      entry_.content_value = std::string(line_.substr(trajectory_start_, closing + 1 - trajectory_start_));
    }
    if (depth_ == 1) in_games_ = false;
  }

  void key(std::string_view key) override {
    if (depth_ == 1) key_ = key;
  }

  void scalar(const JsonScalar& value) override {
    if (depth_ == 0) fail("a manifest line must be a JSON object");
    if (depth_ == 2 && in_games_) {
      if (value.type != JsonType::String) fail("\"game\" must be a string or a list of strings");
      entry_.games->emplace_back(value.text);
      return;
    }
    if (depth_ != 1) return;
    if (key_ == "id") {
      entry_.id_json = id_json(value);
    } else if (key_ == "answer" || key_ == "answer_path" || key_ == "trajectory_path") {
      if (value.type != JsonType::String) fail("\"" + key_ + "\" must be a string");
      set_content(key_ == "answer"        ? ManifestEntry::Content::Answer
                  : key_ == "answer_path" ? ManifestEntry::Content::AnswerPath
                                          : ManifestEntry::Content::TrajectoryPath);
      entry_.content_value = std::string(value.text);
    } else if (key_ == "trajectory") {
      // A scalar trajectory: assistant_answer raises on it just as the grader would.
      set_content(ManifestEntry::Content::Trajectory);
      entry_.content_value = std::string(line_.substr(value.offset, scalar_end(value)));
    } else if (key_ == "game") {
      if (value.type != JsonType::String) fail("\"game\" must be a string or a list of strings");
      entry_.games = std::vector<std::string>{std::string(value.text)};
    } else if (key_ == "source") {
      if (value.type != JsonType::String) fail("\"source\" must be a string");
      entry_.source = std::string(value.text);
    } else if (key_ == "episodes") {
      entry_.episodes = integer(value, "\"episodes\" must be an integer");
    } else {
      check_known(value.type);
    }
  }

 private:
  [[noreturn]] static void fail(const std::string& message) { throw EditError("ValueError", message); }

  static std::int64_t integer(const JsonScalar& value, const std::string& message) {
    std::int64_t result = 0;
    if (value.type != JsonType::Int) fail(message);
    const char* end = value.text.data() + value.text.size();
    const auto [stop, error] = std::from_chars(value.text.data(), end, result);
    if (error != std::errc() || stop != end) fail(message + " within 64 bits");
    return result;
  }

  static std::string id_json(const JsonScalar& value) {
    if (value.type == JsonType::String) return python_json_string(value.text);
    return std::to_string(integer(value, "\"id\" must be a string or an integer"));
  }

  // A scalar's literal ends where its text does (strings: at the closing quote).
  std::size_t scalar_end(const JsonScalar& value) const {
    if (value.type != JsonType::String) {
      const std::size_t stop = line_.find_first_of(",} \t\r\n", value.offset);
      return (stop == std::string_view::npos ? line_.size() : stop) - value.offset;
    }
    std::size_t index = value.offset + 1;
    while (index < line_.size() && line_[index] != '"') index += line_[index] == '\\' ? 2 : 1;
    return index + 1 - value.offset;
  }

  void set_content(ManifestEntry::Content content) {
    if (entry_.content != ManifestEntry::Content::None && entry_.content != content) {
      fail("a record has exactly one of \"answer\", \"answer_path\", \"trajectory\", \"trajectory_path\"");
    }
    entry_.content = content;
  }

  void check_known(JsonType type) {
    static constexpr std::string_view known[] = {"id", "answer", "answer_path", "trajectory", "trajectory_path",
                                                 "game", "source", "episodes"};
    if (std::find(std::begin(known), std::end(known), key_) != std::end(known)) {
      fail("\"" + key_ + "\" cannot be " + std::string(type == JsonType::Array ? "a list" : "an object"));
    }
    if (std::find(entry_.unknown_keys.begin(), entry_.unknown_keys.end(), key_) == entry_.unknown_keys.end()) {
      entry_.unknown_keys.push_back(key_);
    }
  }

  std::string_view line_;
  ManifestEntry& entry_;
  int depth_ = 0;
  std::string key_;
  std::size_t trajectory_start_ = 0;
  bool in_games_ = false;
};

}  // namespace

ManifestEntry parse_manifest_line(std::string_view line) {
  ManifestEntry entry;
  try {
    ManifestFields fields(line, entry);
    read_python_json(line, fields);
    if (entry.content == ManifestEntry::Content::None) {
      throw EditError("ValueError", "a record needs one of \"answer\", \"answer_path\", \"trajectory\", \"trajectory_path\"");
    }
    if (entry.games && entry.games->empty()) throw EditError("ValueError", "\"game\" must not be an empty list");
  } catch (const EditError& error) {
    entry.error = error;
    entry.games.reset();  // a broken line is reported once per default game
  }
  return entry;
}


}  // namespace weightspace::app
