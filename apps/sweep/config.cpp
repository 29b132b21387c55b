// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/suggest.hpp"
#include "engine/episode.hpp"
#include "games/registry.hpp"

namespace weightspace::app {

namespace {

// A number as an error message writes it: 0.5, 60.
std::string toml_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

const char* type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

std::vector<std::string> registered_names(std::string_view source) {
  std::vector<std::string> names;
  for (const GameInfo& game : registered_games()) {
    if (game.source == source) names.emplace_back(game.name);
  }
  return names;
}

// Reads values out of the parsed document; every complaint carries the node's line and column.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const {
    throw UsageError(path_ + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) + ": " +
                     message);
  }

  std::string place(const toml::source_region& where) const {
    return path_ + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
  }

  void only_keys(const toml::table& table, const std::string& table_name, const std::vector<std::string>& keys) const {
    for (const auto& [key, value] : table) {
      const std::string name(key.str());
      if (std::find(keys.begin(), keys.end(), name) != keys.end()) continue;
      fail(key.source(), "unknown key \"" + name + "\"" + (table_name.empty() ? "" : " in " + table_name) +
                             did_you_mean(name, keys));
    }
  }

  std::string string(const toml::node& node, const std::string& key) const {
    if (!node.is_string()) fail(node.source(), key + " must be a string, not " + type_name(node));
    return std::string(*node.value<std::string_view>());
  }

  std::int64_t integer(const toml::node& node, const std::string& key, std::int64_t low, std::int64_t high) const {
    if (!node.is_integer()) fail(node.source(), key + " must be an integer, not " + type_name(node));
    const std::int64_t value = *node.value<std::int64_t>();
    if (value < low || value > high) {
      fail(node.source(), key + " must be from " + std::to_string(low) + " to " + std::to_string(high) + ", not " +
                              std::to_string(value));
    }
    return value;
  }

  bool boolean(const toml::node& node, const std::string& key) const {
    if (!node.is_boolean()) fail(node.source(), key + " must be true or false, not " + type_name(node));
    return *node.value<bool>();
  }

  // A number of seconds and the like: a float or an integer.
  double real(const toml::node& node, const std::string& key, double low, double high) const {
    if (!node.is_floating_point() && !node.is_integer()) {
      fail(node.source(), key + " must be a number, not " + type_name(node));
    }
    const double value = *node.value<double>();
    if (!(value >= low && value <= high)) {
      fail(node.source(), key + " must be from " + toml_number(low) + " to " + toml_number(high) + ", not " +
                              toml_number(value));
    }
    return value;
  }

  const toml::array& array(const toml::node& node, const std::string& key, const std::string& example) const {
    if (!node.is_array() || node.as_array()->empty()) {
      fail(node.source(), key + " must be a non-empty array, e.g. " + example + (node.is_array() ? "" : std::string(", not ") + type_name(node)));
    }
    return *node.as_array();
  }

  // A list without repeats (a repeat would grade the same thing twice).
  template <class T>
  void no_repeats(const toml::array& values, const std::vector<T>& read, const std::string& key) const {
    for (std::size_t i = 0; i < read.size(); ++i) {
      if (std::find(read.begin(), read.begin() + static_cast<std::ptrdiff_t>(i), read[i]) != read.begin() + static_cast<std::ptrdiff_t>(i)) {
        fail(values[i].source(), key + " lists the same value twice");
      }
    }
  }

  std::vector<std::string> strings(const toml::node& node, const std::string& key, const std::string& example) const {
    const toml::array& values = array(node, key, example);
    std::vector<std::string> read;
    for (const toml::node& value : values) read.push_back(string(value, key + "[" + std::to_string(read.size()) + "]"));
    no_repeats(values, read, key);
    return read;
  }

  std::vector<std::int64_t> integers(const toml::node& node, const std::string& key, const std::string& example,
                                     std::int64_t low, std::int64_t high) const {
    const toml::array& values = array(node, key, example);
    std::vector<std::int64_t> read;
    for (const toml::node& value : values) {
      read.push_back(integer(value, key + "[" + std::to_string(read.size()) + "]", low, high));
    }
    no_repeats(values, read, key);
    return read;
  }

  const toml::table& table(const toml::node& node, const std::string& key) const {
    if (!node.is_table()) fail(node.source(), key + " must be a table, not " + type_name(node));
    return *node.as_table();
  }

 private:
  std::string path_;
};

toml::table parse(const std::string& text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    const toml::source_region& where = error.source();
    throw UsageError(path + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) +
                     ": " + std::string(error.description()));
  }
}

Baseline read_baseline(const Reader& reader, const toml::node& node) {
  Baseline baseline;
  baseline.place = reader.place(node.source());
  if (node.is_integer()) {
    baseline.kind = Baseline::Kind::Run;
    baseline.run = reader.integer(node, "baseline", 1, std::numeric_limits<std::int64_t>::max());
    return baseline;
  }
  if (!node.is_string()) {
    reader.fail(node.source(), std::string("baseline must be \"pinned\", \"previous\" or a run id, not ") + type_name(node));
  }
  const std::string value = reader.string(node, "baseline");
  if (value == "pinned") return baseline;
  if (value == "previous") {
    baseline.kind = Baseline::Kind::Previous;
    return baseline;
  }
  reader.fail(node.source(), "baseline must be \"pinned\", \"previous\" or a run id, not \"" + value + "\"" +
                                 did_you_mean(value, {"pinned", "previous"}));
}

void read_grade(const Reader& reader, const toml::table& grade, SweepConfig& config) {
  reader.only_keys(grade, "[grade]", {"games", "sources", "episodes", "threads", "batch", "cache"});
  if (const toml::node* sources = grade.get("sources")) {
    config.sources = reader.strings(*sources, "grade.sources", "sources = [\"original\", \"synth\"]");
    for (std::size_t i = 0; i < config.sources.size(); ++i) {
      const std::string& source = config.sources[i];
      if (source != "original" && source != "synth") {
        reader.fail((*sources->as_array())[i].source(),
                    "unknown source \"" + source + "\": the sources are original and synth" +
                        did_you_mean(source, {"original", "synth"}));
      }
    }
  }
  if (const toml::node* games = grade.get("games")) {
    if (!(games->is_string() && *games->value<std::string_view>() == "all")) {
      config.games = reader.strings(*games, "grade.games", "games = [\"breakout\", \"seaquest\"] or games = \"all\"");
      for (std::size_t i = 0; i < config.games.size(); ++i) {
        for (const std::string& source : config.sources) {
          const std::vector<std::string> names = registered_names(source);
          if (std::find(names.begin(), names.end(), config.games[i]) != names.end()) continue;
          reader.fail((*games->as_array())[i].source(), "no game \"" + config.games[i] + "\" in source " + source +
                                                             did_you_mean(config.games[i], names));
        }
      }
    }
  }
  if (const toml::node* episodes = grade.get("episodes")) {
    config.episodes = reader.integers(*episodes, "grade.episodes", "episodes = [1000]", 0, kMaxEpisodes);
  }
  if (const toml::node* threads = grade.get("threads")) {
    config.threads = static_cast<int>(reader.integer(*threads, "grade.threads", 0, kMaxThreads));
  }
  if (const toml::node* batch = grade.get("batch")) {
    config.batch = static_cast<int>(reader.integer(*batch, "grade.batch", 1, 4096));
  }
  if (const toml::node* cache = grade.get("cache")) {
    config.cache = static_cast<std::size_t>(reader.integer(*cache, "grade.cache", 0, std::int64_t{1} << 20));
  }
}

void read_answers(const Reader& reader, const toml::node& node, SweepConfig& config, const PathExists& exists) {
  const toml::array& sets = reader.array(node, "answers", "[[answers]] tables with a name and paths");
  std::set<std::string> names;
  for (const toml::node& entry : sets) {
    const toml::table& set = reader.table(entry, "each [[answers]]");
    reader.only_keys(set, "[[answers]]", {"name", "paths"});
    AnswerSet answers;
    const toml::node* name = set.get("name");
    if (name == nullptr) reader.fail(set.source(), "an [[answers]] table needs a name, e.g. name = \"regression\"");
    answers.name = reader.string(*name, "answers.name");
    if (!names.insert(answers.name).second) reader.fail(name->source(), "two answer sets are named \"" + answers.name + "\"");
    const toml::node* paths = set.get("paths");
    if (paths == nullptr) {
      reader.fail(set.source(), "answer set \"" + answers.name + "\" needs paths, e.g. paths = [\"answers/\"]");
    }
    answers.paths = reader.strings(*paths, "answers.paths", "paths = [\"answers/\", \"extra.jsonl\"]");
    for (std::size_t i = 0; i < answers.paths.size(); ++i) {
      const std::string resolved = config.resolve(answers.paths[i]);
      if (!exists(resolved)) {
        reader.fail((*paths->as_array())[i].source(), "answer set \"" + answers.name + "\": " + resolved +
                                                          " does not exist");
      }
    }
    config.answers.push_back(std::move(answers));
  }
}

}  // namespace

std::vector<std::string> SweepConfig::games_for(const std::string& source) const {
  return games.empty() ? registered_names(source) : games;
}

std::string SweepConfig::resolve(const std::string& relative) const {
  if (folder.empty() || std::filesystem::path(relative).is_absolute()) return relative;
  return (std::filesystem::path(folder) / relative).string();
}

SweepConfig load_config(const std::string& path) {
  std::string text = read_input(path, kMaxConfigBytes);
  SweepConfig config = parse_config(path, std::move(text), [](const std::string& resolved) {
    std::error_code error;
    return std::filesystem::exists(resolved, error);
  });
  std::error_code error;
  config.absolute_path = std::filesystem::absolute(path, error).lexically_normal().string();
  return config;
}

SweepConfig parse_config(const std::string& path, std::string text, const PathExists& exists) {
  SweepConfig config;
  config.path = path;
  config.text = std::move(text);
  config.folder = std::filesystem::path(path).parent_path().string();
  config.name = std::filesystem::path(path).stem().string();
  const toml::table document = parse(config.text, path);
  const Reader reader(path);
  reader.only_keys(document, "", {"name", "baseline", "answers", "grade", "speed"});
  if (const toml::node* name = document.get("name")) {
    config.name = reader.string(*name, "name");
    if (config.name.empty()) reader.fail(name->source(), "name must not be empty");
  }
  if (const toml::node* baseline = document.get("baseline")) config.baseline = read_baseline(reader, *baseline);
  // [grade] before the answers: game names are checked against its sources.
  if (const toml::node* grade = document.get("grade")) read_grade(reader, reader.table(*grade, "[grade]"), config);
  const toml::node* answers = document.get("answers");
  if (answers == nullptr) {
    throw UsageError(path + ":1:1: no answer sets: add an [[answers]] table with a name and paths");
  }
  read_answers(reader, *answers, config, exists);
  if (const toml::node* speed = document.get("speed")) {
    const toml::table& table = reader.table(*speed, "[speed]");
    reader.only_keys(table, "[speed]", {"threads", "records", "repeat", "min_time", "instructions"});
    if (const toml::node* threads = table.get("threads")) {
      for (const std::int64_t count : reader.integers(*threads, "speed.threads", "threads = [1, 2]", 1, kMaxThreads)) {
        config.speed_threads.push_back(static_cast<int>(count));
      }
    } else {
      reader.fail(table.source(), "[speed] needs threads, e.g. threads = [1, 2]");
    }
    if (const toml::node* records = table.get("records")) {
      config.speed_records = reader.integer(*records, "speed.records", 1, std::int64_t{1} << 40);
    }
    if (const toml::node* repeat = table.get("repeat")) {
      config.speed_repeat = static_cast<int>(reader.integer(*repeat, "speed.repeat", 1, 100));
    }
    if (const toml::node* min_time = table.get("min_time")) {
      config.speed_min_time = reader.real(*min_time, "speed.min_time", 0.0, kMaxSpeedMinTime);
    }
    if (const toml::node* instructions = table.get("instructions")) {
      config.speed_instructions = reader.boolean(*instructions, "speed.instructions");
    }
  }
  return config;
}

Baseline stored_baseline(const std::string& text, const std::string& path) {
  const toml::table document = parse(text, path);
  const toml::node* baseline = document.get("baseline");
  return baseline != nullptr ? read_baseline(Reader(path), *baseline) : Baseline{};
}

}  // namespace weightspace::app
