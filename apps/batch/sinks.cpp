// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/sinks.hpp"

#include <filesystem>
#include <system_error>

#include "apps/batch/batch_output.hpp"
#include <weightspace/reward.hpp>

namespace weightspace::app {

namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

std::string temporary_of(const std::string& path) { return path + ".merging"; }

}  // namespace

ResultFile::ResultFile(std::string path, Mode mode) : path_(std::move(path)), mode_(mode) {
  const std::string& target = mode_ == Mode::Whole ? temporary_of(path_) : path_;
  file_.emplace(target, mode_ == Mode::Append ? OutputFile::Mode::Append : OutputFile::Mode::Truncate);
}

ResultFile::~ResultFile() {
  if (mode_ != Mode::Whole || committed_) return;
  file_.reset();
  std::error_code ignored;
  std::filesystem::remove(temporary_of(path_), ignored);
}

void ResultFile::write(std::string_view text) {
  if (mode_ == Mode::Truncate || mode_ == Mode::Append) {
    file_->write(text);
    return;
  }
  buffer_ += text;
  if (buffer_.size() >= kBufferBytes) flush();
}

void ResultFile::flush() {
  file_->write(buffer_);
  buffer_.clear();
}

void ResultFile::commit() {
  if (mode_ == Mode::Buffered || mode_ == Mode::Whole) flush();
  // Checked (fsync, close) before a Whole file is renamed over the old one: a write the file
  // system reports only there must not replace a good file with a torn one (issue 34).
  file_->close();
  if (mode_ != Mode::Whole) return;
  std::error_code error;
  std::filesystem::rename(temporary_of(path_), path_, error);
  if (error) throw CommandError("cannot write " + path_ + ": " + error.message());
  committed_ = true;
}

void JsonlSink::write(std::uint64_t, const BatchResult& result) { file_.write(batch_line(result, timings_) + "\n"); }

CsvSink::CsvSink(const std::string& path, ResultFile::Mode mode, bool timings) : file_(path, mode), timings_(timings) {
  file_.write(csv_header(timings_));
}

void CsvSink::write(std::uint64_t, const BatchResult& result) { file_.write(csv_row(result, timings_)); }

namespace {

std::string created_folder(std::string folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw CommandError("cannot create " + folder + ": " + error.message());
  return folder;
}

}  // namespace

RewardFilesSink::RewardFilesSink(std::string folder) : folder_(created_folder(std::move(folder))), sync_(folder_) {}

void RewardFilesSink::write(std::uint64_t line, const BatchResult& result) {
  write_file(std::filesystem::path(folder_) / reward_file_name(line, result), reward_json(result.reward),
             Durability::deferred);
}

void RewardFilesSink::replay(std::uint64_t line, const BatchResult& result) {
  const std::filesystem::path path = std::filesystem::path(folder_) / reward_file_name(line, result);
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) {
    const std::string wanted = reward_json(result.reward);
    // One byte more than the text wanted: a longer file is not it either.
    const BoundedRead kept = read_bounded(path.string(), wanted.size() + 1);
    if (!kept.truncated && kept.bytes == wanted) return;
  }
  write(line, result);
}

void ResultSinks::write(const BatchResult& result) {
  ++lines_;
  for (const auto& sink : sinks_) sink->write(lines_, result);
}

void ResultSinks::replay(const BatchResult& result) {
  ++lines_;
  for (const auto& sink : sinks_) sink->replay(lines_, result);
}

void ResultSinks::finish() {
  for (auto sink = sinks_.rbegin(); sink != sinks_.rend(); ++sink) (*sink)->finish();
}

}  // namespace weightspace::app
