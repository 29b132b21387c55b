// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/cli/files.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// Where a run's results go: every output format (the JSONL lines, the CSV table, a reward file
// per record, and a sweep's results store, apps/sweep/store_sink.hpp) is a ResultSink, so
// `batch`, `merge` and `sweep` write them the same way. Records arrive in run order; `line` is
// the record's 1-based place in the whole run.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // A record graded now.
  virtual void write(std::uint64_t line, const BatchResult& result) = 0;
  // A record an interrupted run wrote already (batch --resume): redone only where the sink's
  // earlier output does not keep it.
  virtual void replay(std::uint64_t line, const BatchResult& result) = 0;
  // After the last record: what is buffered is written, and a file written whole is put in place.
  virtual void finish() {}
};

// A file of results: streamed (Truncate, Append: each write at once, so that a killed run
// leaves whole lines), buffered (in large writes: a million lines are a million write(2)s
// otherwise), or written whole (buffered beside the path and renamed over it by commit(), so
// that it appears whole or not at all).
class ResultFile {
 public:
  enum class Mode { Truncate, Append, Buffered, Whole };
  ResultFile(std::string path, Mode mode);
  ~ResultFile();  // a Whole file never committed is removed
  ResultFile(const ResultFile&) = delete;
  ResultFile& operator=(const ResultFile&) = delete;

  void write(std::string_view text);
  // After the last write: the file flushed, synced and closed, each checked; a Whole file
  // then renamed into place.
  void commit();

 private:
  void flush();

  std::string path_;
  Mode mode_;
  std::optional<OutputFile> file_;
  std::string buffer_;
  bool committed_ = false;
};

// `weightspace batch` lines (apps/batch/batch_output.hpp); a replayed record is in the file already.
class JsonlSink : public ResultSink {
 public:
  JsonlSink(const std::string& path, ResultFile::Mode mode, bool timings) : file_(path, mode), timings_(timings) {}
  void write(std::uint64_t line, const BatchResult& result) override;
  void replay(std::uint64_t, const BatchResult&) override {}
  void finish() override { file_.commit(); }

 private:
  ResultFile file_;
  bool timings_;
};

// The --csv table, written anew by every run: a replayed record gets its row again.
class CsvSink : public ResultSink {
 public:
  CsvSink(const std::string& path, ResultFile::Mode mode, bool timings);
  void write(std::uint64_t line, const BatchResult& result) override;
  void replay(std::uint64_t line, const BatchResult& result) override { write(line, result); }
  void finish() override { file_.commit(); }

 private:
  ResultFile file_;
  bool timings_;
};

// --rewards-dir: each record's reward.json, named by reward_file_name, each replaced
// atomically. One syncfs at the end makes them durable and reports a write the file system
// failed late (an fsync per file cost more than a short record's grade). A crash before it
// may leave a file torn, so a replayed record keeps the file an earlier run wrote only when
// its text is the record's reward.json, and writes it again otherwise.
class RewardFilesSink : public ResultSink {
 public:
  explicit RewardFilesSink(std::string folder);  // created when missing
  void write(std::uint64_t line, const BatchResult& result) override;
  void replay(std::uint64_t line, const BatchResult& result) override;
  void finish() override { sync_.sync(); }

 private:
  std::string folder_;  // created before sync_ opens it
  FolderSync sync_;
};

// The sinks of one run, written in the order added: a sink's record is written before the
// next sink's. Finished in reverse, so the first (the main output) is put in place last,
// when the others are whole.
class ResultSinks {
 public:
  void add(std::unique_ptr<ResultSink> sink) { sinks_.push_back(std::move(sink)); }
  void write(const BatchResult& result);
  void replay(const BatchResult& result);
  void finish();

 private:
  std::vector<std::unique_ptr<ResultSink>> sinks_;
  std::uint64_t lines_ = 0;
};

}  // namespace weightspace::app
