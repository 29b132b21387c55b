// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/batch/answer_input.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// What a record does not say for itself: --game (a list: each input is graded on each game),
// --source, --episodes.
struct BatchDefaults {
  std::vector<std::string> games;
  std::string source = "original";
  std::int64_t episodes = 1000;
  std::size_t max_input_bytes = default_max_input_bytes();  // per answer or trajectory
};

// A manifest line's fields (JSON, read as json.loads reads it). `error` is set when the line
// is not a record; the other fields are then partial.
struct ManifestEntry {
  std::optional<std::string> id_json;  // the id as JSON text: a string or an integer
  enum class Content { None, Answer, AnswerPath, Trajectory, TrajectoryPath };
  Content content = Content::None;
  std::string content_value;  // the answer, a path, or the trajectory's JSON text
  std::optional<std::vector<std::string>> games;
  std::optional<std::string> source;
  std::optional<std::int64_t> episodes;
  std::vector<std::string> unknown_keys;
  std::optional<EditError> error;
};
ManifestEntry parse_manifest_line(std::string_view line);

// The records of `weightspace batch INPUT...`, in input order: INPUTs in the order given,
// folders walked recursively in path order, manifests line by line (streamed: one line in
// memory at a time), and each input once per game of its list. What cannot be read becomes a
// record carrying the error, so the batch goes on.
//  * `-` and *.jsonl: JSONL manifests; *.json: trajectories; any other file: an answer.
//  * In folders: *.json trajectories, *.md and *.txt answers, *.jsonl manifests; other files
//    and names starting with '.' are skipped. Symbolic links are followed (a link to a folder
//    that holds it, a loop, is not walked again); a link to nothing, a subfolder that
//    cannot be read and a FIFO or device with one of those names each become a failed record.
class RecordStream {
 public:
  RecordStream(const std::vector<std::string>& inputs, BatchDefaults defaults);
  ~RecordStream();

  // The next record. With load false its answer or trajectory file is not read (a resumed
  // run skipping what it has written already). `keep`, when given, sees every record in order
  // before its file is read; those it refuses are skipped unread (another shard's records).
  std::optional<BatchRecord> next(bool load = true, const std::function<bool(const BatchRecord&)>& keep = {});

  // Records from the inputs that are not manifests; known at once.
  std::uint64_t file_records() const { return file_records_; }
  // Manifest files given or found in folders (standard input is not among them).
  const std::vector<std::string>& manifest_files() const { return manifest_files_; }
  // Names of manifest keys weightspace does not know, seen so far (a typo is ignored, not fatal).
  std::vector<std::string> take_unknown_keys();
  // Links the folder walk did not follow: each leads back to a folder that holds it (a loop).
  const std::vector<std::string>& folder_loops() const { return loops_; }

  // Records the lines of a manifest make, counted apart from the run (for progress); stops
  // early when *stop is set. Unreadable: 0.
  static std::uint64_t count_manifest(const std::string& path, const BatchDefaults& defaults,
                                      const std::atomic<bool>& stop);

 private:
  enum class Kind { Answer, Trajectory, Manifest, Missing };
  static Kind kind_of(std::string_view path);
  struct Item {
    Kind kind;
    std::string path;
    std::string error;  // Missing: why
  };
  class LineReader;

  // A record whose answer or trajectory file is read only when it is taken (`unread`).
  struct Pending {
    BatchRecord record;
    bool unread = false;
  };

  void walk(const std::string& folder, std::vector<std::pair<std::uint64_t, std::uint64_t>>& above,
            std::vector<Item>& found);
  void fill();
  void expand_file(const Item& item);
  void expand_line(std::string_view line, std::uint64_t number);
  void push_each_game(const BatchRecord& record, const std::vector<std::string>& games, bool unread = false);

  BatchDefaults defaults_;
  std::vector<Item> items_;
  std::size_t next_item_ = 0;
  std::unique_ptr<LineReader> manifest_;
  std::string manifest_name_;
  std::string manifest_folder_;
  std::uint64_t manifest_line_ = 0;
  std::deque<Pending> pending_;
  std::uint64_t file_records_ = 0;
  std::vector<std::string> manifest_files_;
  std::vector<std::string> unknown_keys_;
  std::vector<std::string> loops_;
};

}  // namespace weightspace::app
