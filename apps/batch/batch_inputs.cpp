// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/batch_inputs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "apps/batch/answer_input.hpp"
#include "apps/cli/files.hpp"
#include "engine/python_json.hpp"
#include "parser/trajectory.hpp"

namespace weightspace::app {

namespace {

// A manifest line holds at most a trajectory or an answer of --max-input-bytes, with room for
// escapes and the other fields.
std::size_t max_manifest_line_bytes(const BatchDefaults& defaults) {
  return defaults.max_input_bytes > std::numeric_limits<std::size_t>::max() / 2 ? defaults.max_input_bytes
                                                                                : 2 * defaults.max_input_bytes;
}

}  // namespace

// Lines of a file or of standard input, read in chunks; a line longer than the bound is
// reported and skipped, never held whole.
class RecordStream::LineReader {
 public:
  LineReader(const std::string& path, std::size_t max_line_bytes)
      : max_line_bytes_(max_line_bytes), standard_input_(path == "-") {
    fd_ = standard_input_ ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw CommandError("cannot read " + path + ": " + std::strerror(errno));
  }
  ~LineReader() {
    if (!standard_input_) ::close(fd_);
  }

  // False at the end. `too_long`: the line was over the bound (`line` is then empty).
  bool next(std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    while (true) {
      const std::size_t newline = buffer_.find('\n', start_);
      if (newline != std::string::npos) {
        take(line, newline, too_long);
        start_ = newline + 1;
        return true;
      }
      if (!too_long && buffer_.size() - start_ + line.size() > max_line_bytes_) too_long = true;
      take(line, buffer_.size(), too_long);
      buffer_.clear();
      start_ = 0;
      if (at_end_) return !line.empty() || too_long;
      buffer_.resize(1 << 16);
      const ssize_t got = read_some();
      buffer_.resize(static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
      if (got == 0) at_end_ = true;
    }
  }

 private:
  void take(std::string& line, std::size_t end, bool too_long) {
    if (!too_long) line.append(buffer_, start_, end - start_);
    if (too_long) line.clear();
  }

  ssize_t read_some() {
    while (true) {
      const ssize_t got = ::read(fd_, buffer_.data(), buffer_.size());
      if (got >= 0) return got;
      if (errno != EINTR) throw CommandError(std::string("cannot read manifest: ") + std::strerror(errno));
    }
  }

  std::size_t max_line_bytes_;
  bool standard_input_;
  int fd_ = -1;
  std::string buffer_;
  std::size_t start_ = 0;
  bool at_end_ = false;
};

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

}  // namespace

namespace {

bool answer_name(std::string_view path) {
  return path.ends_with(".jsonl") || path.ends_with(".json") || path.ends_with(".md") || path.ends_with(".txt");
}

}  // namespace

RecordStream::Kind RecordStream::kind_of(std::string_view path) {
  if (path == "-" || path.ends_with(".jsonl")) return Kind::Manifest;
  return path.ends_with(".json") ? Kind::Trajectory : Kind::Answer;
}

// `above` holds the folders being walked, from the input down: a link back to one of them is
// a loop, walked no further.
void RecordStream::walk(const std::string& folder, std::vector<std::pair<std::uint64_t, std::uint64_t>>& above,
                        std::vector<Item>& found) {
  namespace fs = std::filesystem;
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) {
    found.push_back({Kind::Missing, folder, "cannot read folder " + folder + ": " + std::strerror(errno)});
    return;
  }
  const std::pair<std::uint64_t, std::uint64_t> identity{info.st_dev, info.st_ino};
  if (std::find(above.begin(), above.end(), identity) != above.end()) {
    loops_.push_back(folder);
    return;
  }
  std::error_code error;
  std::vector<fs::directory_entry> entries;
  for (auto it = fs::directory_iterator(folder, error); !error && it != fs::directory_iterator(); it.increment(error)) {
    entries.push_back(*it);
  }
  if (error) {
    found.push_back({Kind::Missing, folder, "cannot read folder " + folder + ": " + error.message()});
    return;
  }
  above.push_back(identity);
  for (const fs::directory_entry& entry : entries) {
    const std::string path = entry.path().string();
    if (entry.path().filename().string().starts_with('.')) continue;
    std::error_code status_error;
    const fs::file_status status = entry.status(status_error);  // through symbolic links
    if (fs::is_directory(status)) {
      walk(path, above, found);
    } else if (!answer_name(path)) {
      continue;
    } else if (fs::is_regular_file(status) || !fs::exists(status)) {
      // A link to nothing is read as given, and fails as it would given by name.
      found.push_back({kind_of(path), path, ""});
    } else {
      found.push_back({Kind::Missing, path, "cannot read " + path + ": not a regular file"});
    }
  }
  above.pop_back();
}

RecordStream::RecordStream(const std::vector<std::string>& inputs, BatchDefaults defaults)
    : defaults_(std::move(defaults)) {
  namespace fs = std::filesystem;
  for (const std::string& input : inputs) {
    std::error_code error;
    if (input != "-" && fs::is_directory(input, error)) {
      std::vector<Item> found;
      std::vector<std::pair<std::uint64_t, std::uint64_t>> above;
      walk(input, above, found);
      std::sort(found.begin(), found.end(), [](const Item& a, const Item& b) { return a.path < b.path; });
      for (Item& item : found) items_.push_back(std::move(item));
    } else {
      items_.push_back({kind_of(input), input, ""});
    }
  }
  for (const Item& item : items_) {
    if (item.kind != Kind::Manifest) {
      file_records_ += std::max<std::size_t>(defaults_.games.size(), 1);
    } else if (item.path != "-") {
      manifest_files_.push_back(item.path);
    }
  }
}

RecordStream::~RecordStream() = default;

std::vector<std::string> RecordStream::take_unknown_keys() { return std::exchange(unknown_keys_, {}); }

void RecordStream::push_each_game(const BatchRecord& record, const std::vector<std::string>& games, bool unread) {
  if (games.empty()) {
    BatchRecord copy = record;
    if (!copy.error) copy.error = PythonError{"ValueError", "no game to grade on: give --game or the record's \"game\""};
    pending_.push_back({std::move(copy), false});
    return;
  }
  for (const std::string& game : games) {
    BatchRecord copy = record;
    copy.request.game = game;
    pending_.push_back({std::move(copy), unread});
  }
}

namespace {

BatchRecord labelled(std::string id_json, std::string input, const BatchDefaults& defaults) {
  BatchRecord record;
  record.id = std::move(id_json);
  record.input = std::move(input);
  record.request.source = defaults.source;
  record.request.episodes = defaults.episodes;
  return record;
}

// The answer or trajectory file at `path`, read with the bound the parser would apply anyway.
void load_file(BatchRecord& record, const std::string& path, std::size_t limit) {
  try {
    record.text = read_answer_input(path, record.content == BatchRecord::Content::Trajectory, limit);
  } catch (const EditError& error) {
    record.error = error.error();
  } catch (const CommandError& error) {
    record.error = PythonError{"OSError", error.what()};
  }
}

}  // namespace

void RecordStream::expand_file(const Item& item) {
  BatchRecord record = labelled(python_json_string(item.path), item.path, defaults_);
  if (item.kind == Kind::Missing) {
    record.error = PythonError{"OSError", item.error};
  } else {
    record.content = item.kind == Kind::Trajectory ? BatchRecord::Content::Trajectory : BatchRecord::Content::Answer;
  }
  push_each_game(record, defaults_.games, item.kind != Kind::Missing);
}

void RecordStream::expand_line(std::string_view line, std::uint64_t number) {
  const std::string place = manifest_name_ + ":" + std::to_string(number);
  ManifestEntry entry = parse_manifest_line(line);
  for (std::string& key : entry.unknown_keys) {
    if (std::find(unknown_keys_.begin(), unknown_keys_.end(), key) == unknown_keys_.end()) unknown_keys_.push_back(key);
  }
  BatchRecord record = labelled(entry.id_json.value_or(python_json_string(place)), place, defaults_);
  if (entry.source) record.request.source = *entry.source;
  if (entry.episodes) record.request.episodes = *entry.episodes;
  const std::vector<std::string>& games = entry.games ? *entry.games : defaults_.games;
  if (entry.error) {
    record.error = PythonError{entry.error->kind(), place + ": " + entry.error->what()};
    push_each_game(record, games);
    return;
  }
  if (record.request.source != "original" && record.request.source != "synth") {
    record.error = PythonError{"ValueError", place + ": \"source\" must be \"original\" or \"synth\""};
  }
  using Content = ManifestEntry::Content;
  switch (entry.content) {
    case Content::Answer:
      record.text = std::move(entry.content_value);
      break;
    case Content::Trajectory:
      record.content = BatchRecord::Content::Trajectory;
      record.text = std::move(entry.content_value);
      break;
    case Content::AnswerPath:
    case Content::TrajectoryPath: {
      std::filesystem::path path(entry.content_value);
      if (path.is_relative() && !manifest_folder_.empty()) path = std::filesystem::path(manifest_folder_) / path;
      record.input = path.string();
      record.content = entry.content == Content::TrajectoryPath ? BatchRecord::Content::Trajectory
                                                                : BatchRecord::Content::Answer;
      push_each_game(record, games, !record.error);
      return;
    }
    case Content::None:
      break;
  }
  push_each_game(record, games);
}

void RecordStream::fill() {
  std::string line;
  while (pending_.empty()) {
    if (manifest_) {
      bool too_long = false;
      bool more = false;
      try {
        more = manifest_->next(line, too_long);
      } catch (const CommandError& error) {
        BatchRecord record = labelled(python_json_string(manifest_name_), manifest_name_, defaults_);
        record.error = PythonError{"OSError", manifest_name_ + ": " + error.what()};
        push_each_game(record, defaults_.games);
        manifest_.reset();
        continue;
      }
      if (!more) {
        manifest_.reset();
        continue;
      }
      ++manifest_line_;
      if (too_long) {
        const std::string place = manifest_name_ + ":" + std::to_string(manifest_line_);
        BatchRecord record = labelled(python_json_string(place), place, defaults_);
        record.error = PythonError{"ValueError", place + ": the line is longer than " +
                                                     std::to_string(max_manifest_line_bytes(defaults_)) + " bytes"};
        push_each_game(record, defaults_.games);
      } else if (!blank(line)) {
        expand_line(line, manifest_line_);
      }
      continue;
    }
    if (next_item_ == items_.size()) return;
    const Item& item = items_[next_item_++];
    if (item.kind != Kind::Manifest) {
      expand_file(item);
      continue;
    }
    manifest_name_ = item.path;
    manifest_folder_ = item.path == "-" ? "" : std::filesystem::path(item.path).parent_path().string();
    manifest_line_ = 0;
    try {
      manifest_ = std::make_unique<LineReader>(item.path, max_manifest_line_bytes(defaults_));
    } catch (const CommandError& error) {
      BatchRecord record = labelled(python_json_string(item.path), item.path, defaults_);
      record.error = PythonError{"OSError", error.what()};
      push_each_game(record, defaults_.games);
    }
  }
}

std::optional<BatchRecord> RecordStream::next(bool load, const std::function<bool(const BatchRecord&)>& keep) {
  while (true) {
    fill();
    if (pending_.empty()) return std::nullopt;
    Pending pending = std::move(pending_.front());
    pending_.pop_front();
    if (keep && !keep(pending.record)) continue;
    if (load && pending.unread) load_file(pending.record, pending.record.input, defaults_.max_input_bytes);
    return std::move(pending.record);
  }
}

std::uint64_t RecordStream::count_manifest(const std::string& path, const BatchDefaults& defaults,
                                           const std::atomic<bool>& stop) {
  std::uint64_t count = 0;
  try {
    LineReader reader(path, max_manifest_line_bytes(defaults));
    std::string line;
    bool too_long = false;
    while (!stop.load(std::memory_order_relaxed) && reader.next(line, too_long)) {
      if (!too_long && blank(line)) continue;
      const ManifestEntry entry = too_long ? ManifestEntry{} : parse_manifest_line(line);
      count += entry.games ? entry.games->size() : std::max<std::size_t>(defaults.games.size(), 1);
    }
  } catch (const CommandError&) {
    return std::max<std::size_t>(defaults.games.size(), 1);  // one record per game says it cannot be read
  }
  return count;
}

}  // namespace weightspace::app
