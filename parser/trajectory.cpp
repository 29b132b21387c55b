// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/trajectory.hpp"

#include <utility>
#include <vector>

#include "parser/json_reader.hpp"
#include "parser/python/error.hpp"
#include "parser/utf8.hpp"

namespace weightspace {

namespace {

// verify.assistant_answer walks steps and messages backwards and stops at the first
// assistant message with str or list content. Reading forwards, the same result is the LAST
// value that decides something, so each list keeps only its latest decision and the whole
// trajectory never has to be held as a tree.

// Where a value sits in the shape assistant_answer reads.
enum class Role { Document, Steps, Step, Messages, Message, RoleName, Content, Item, Text, Ignored };

// What the search makes of a value: keep looking, return this answer, or raise.
struct Outcome {
  enum class Kind { Continue, Return, Raise };
  Kind kind = Kind::Continue;
  std::string answer;
  const char* error_kind = "";
  std::string error_message;  // Python's message, then the place
  std::size_t offset = 0;     // the offending value in the document
};

struct Frame {
  Role role = Role::Ignored;
  JsonType type = JsonType::Array;
  std::size_t offset = 0;
  Role next_role = Role::Ignored;  // role of the value being read inside this container
  std::size_t entries = 0;         // values completed so far (the index of the next one)
  Outcome outcome;                 // steps/messages/content value; for a content list, the join
  bool assistant = false;          // a message whose role is "assistant"
  std::size_t dict_items = 0;      // content list: position in the list join() sees
  JsonType text_type = JsonType::String;  // content item: its text, "" when absent
  std::string text;
  std::size_t text_offset = 0;
};

// A completed value: a scalar, or a container with its frame.
struct Value {
  JsonType type;
  bool truthy;
  std::string_view text;
  std::size_t offset;
  Frame* frame;
};

Role member_role(Role object_role, std::string_view key) {
  if (object_role == Role::Document && key == "steps") return Role::Steps;
  if (object_role == Role::Step && key == "messages") return Role::Messages;
  if (object_role == Role::Message && key == "role") return Role::RoleName;
  if (object_role == Role::Message && key == "content") return Role::Content;
  if (object_role == Role::Item && key == "text") return Role::Text;
  return Role::Ignored;
}

Role element_role(Role list_role) {
  switch (list_role) {
    case Role::Steps: return Role::Step;
    case Role::Messages: return Role::Message;
    case Role::Content: return Role::Item;
    default: return Role::Ignored;
  }
}

const char* key_name(Role role) {
  switch (role) {
    case Role::Steps: return "steps";
    case Role::Messages: return "messages";
    case Role::RoleName: return "role";
    case Role::Content: return "content";
    case Role::Text: return "text";
    default: return "?";
  }
}

class AnswerSearch final : public JsonEvents {
 public:
  explicit AnswerSearch(std::string_view document) : document_(document) {}

  std::string result() {
    if (result_.kind == Outcome::Kind::Raise) {
      const std::string_view before = document_.substr(0, result_.offset);
      const std::size_t line_start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
      int line = 1;
      for (const char c : before) line += c == '\n' ? 1 : 0;
      const auto column = static_cast<int>(utf8::count_code_points(before.substr(line_start)) + 1);
      throw EditError(result_.error_kind,
                      result_.error_message + ", line " + std::to_string(line) + " column " +
                          std::to_string(column) + " of the trajectory)",
                      line, column);
    }
    return std::move(result_.answer);  // empty for Continue: no assistant answer
  }

  void begin_container(JsonType type, std::size_t offset) override {
    Frame frame;
    frame.role = current_role();
    frame.type = type;
    frame.offset = offset;
    if (type == JsonType::Array) {
      frame.next_role = element_role(frame.role);
      // "\n".join([]) is "": an empty content list is an answer.
      if (frame.role == Role::Content) frame.outcome.kind = Outcome::Kind::Return;
    }
    frames_.push_back(std::move(frame));
  }

  void key(std::string_view key) override { frames_.back().next_role = member_role(frames_.back().role, key); }

  void end_container(std::size_t) override {
    Frame frame = std::move(frames_.back());
    frames_.pop_back();
    complete(frame.role, Value{frame.type, frame.entries > 0, {}, frame.offset, &frame});
  }

  void scalar(const JsonScalar& scalar) override {
    complete(current_role(), Value{scalar.type, scalar.truthy, scalar.text, scalar.offset, nullptr});
  }

 private:
  Role current_role() const { return frames_.empty() ? Role::Document : frames_.back().next_role; }

  // trajectory["steps"][3]["messages"][0]: the value being completed.
  std::string place() const {
    std::string path = "trajectory";
    for (const Frame& frame : frames_) {
      // Appended piece by piece: GCC 12 -O3 warns (-Wrestrict) on "[" + std::to_string(...).
      if (frame.type == JsonType::Array) {
        path.append("[").append(std::to_string(frame.entries)).append("]");
      } else {
        path.append("[\"").append(key_name(frame.next_role)).append("\"]");
      }
    }
    return path;
  }

  Outcome raise(const char* kind, const std::string& message, std::size_t offset, const std::string& where) const {
    Outcome outcome;
    outcome.kind = Outcome::Kind::Raise;
    outcome.error_kind = kind;
    outcome.error_message = message + " (assistant_answer, at " + where;
    outcome.offset = offset;
    return outcome;
  }

  // step.get(...) on something that is not a dict.
  Outcome no_get(const Value& value) const {
    return raise("AttributeError", std::string("'") + python_type_name(value.type) + "' object has no attribute 'get'",
                 value.offset, place());
  }

  // for x in reversed(value or []): x.get(...)
  Outcome iterate(Value& value) const {
    if (!value.truthy) return {};
    if (value.type == JsonType::Array) return std::move(value.frame->outcome);
    // reversed() of a dict gives its keys and of a str its characters: str has no .get.
    if (value.type == JsonType::Object || value.type == JsonType::String) {
      return raise("AttributeError", "'str' object has no attribute 'get'", value.offset, place());
    }
    return raise("TypeError", std::string("'") + python_type_name(value.type) + "' object is not reversible",
                 value.offset, place());
  }

  void complete(Role role, Value value) {
    Frame* parent = frames_.empty() ? nullptr : &frames_.back();
    switch (role) {
      case Role::Document:
        result_ = value.type == JsonType::Object ? std::move(value.frame->outcome) : no_get(value);
        break;
      case Role::Steps:
      case Role::Messages: parent->outcome = iterate(value); break;
      case Role::Step:
      case Role::Message: {
        Outcome outcome;
        if (value.type != JsonType::Object) {
          outcome = no_get(value);
        } else if (role == Role::Step || value.frame->assistant) {
          outcome = std::move(value.frame->outcome);
        }
        if (outcome.kind != Outcome::Kind::Continue) parent->outcome = std::move(outcome);
        break;
      }
      case Role::RoleName: parent->assistant = value.type == JsonType::String && value.text == "assistant"; break;
      case Role::Content:
        if (value.type == JsonType::String) {
          parent->outcome = {};
          parent->outcome.kind = Outcome::Kind::Return;
          parent->outcome.answer = value.text;
        } else if (value.type == JsonType::Array) {
          parent->outcome = std::move(value.frame->outcome);
        } else {
          parent->outcome = {};
        }
        break;
      case Role::Item:
        if (value.type == JsonType::Object) join_item(*parent, *value.frame);
        break;
      case Role::Text:
        parent->text_type = value.type;
        parent->text = value.type == JsonType::String ? std::string(value.text) : std::string();
        parent->text_offset = value.offset;
        break;
      case Role::Ignored: break;
    }
    if (parent != nullptr) ++parent->entries;
  }

  // texts = [item.get("text", "") for item in content if isinstance(item, dict)];
  // "\n".join(texts) raises at the first text that is not a str.
  void join_item(Frame& list, const Frame& item) {
    const std::size_t index = list.dict_items++;
    if (list.outcome.kind != Outcome::Kind::Return) return;
    if (item.text_type == JsonType::String) {
      if (index > 0) list.outcome.answer.push_back('\n');
      list.outcome.answer += item.text;
      return;
    }
    list.outcome = raise("TypeError",
                         "sequence item " + std::to_string(index) + ": expected str instance, " +
                             python_type_name(item.text_type) + " found",
                         item.text_offset, place() + "[\"text\"]");
  }

  std::string_view document_;
  std::vector<Frame> frames_;
  Outcome result_;
};

}  // namespace

std::string assistant_answer(std::string_view trajectory_json_text) {
  if (const auto problem = utf8::find_decode_problem(trajectory_json_text, utf8::Surrogates::Reject)) {
    throw EditError("UnicodeDecodeError", problem->message() + " (reading the trajectory file)");
  }
  // read_text() then translates newlines (\r\n and a lone \r become \n); json.loads counts
  // the lines, columns and characters of its errors in that text.
  std::string translated;
  if (trajectory_json_text.find('\r') != std::string_view::npos) {
    translated.reserve(trajectory_json_text.size());
    for (std::size_t index = 0; index < trajectory_json_text.size(); ++index) {
      const char character = trajectory_json_text[index];
      if (character != '\r') {
        translated.push_back(character);
        continue;
      }
      translated.push_back('\n');
      if (index + 1 < trajectory_json_text.size() && trajectory_json_text[index + 1] == '\n') ++index;
    }
    trajectory_json_text = translated;
  }
  AnswerSearch search(trajectory_json_text);
  read_python_json(trajectory_json_text, search);
  return search.result();
}

}  // namespace weightspace
