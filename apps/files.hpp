// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace weightspace::app {

// A failure the CLI reports as one line and a non-zero exit status.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mistake in how the command was called: exit status 2, like CLI11's own parse errors.
class UsageError : public CommandError {
 public:
  using CommandError::CommandError;
};

// The whole file as bytes; "-" reads standard input.
std::string read_input(const std::string& path);

// At most `limit` bytes of a file ("-": standard input); `truncated` when there was more.
// Refuses folders and unreadable paths with the system's reason.
struct BoundedRead {
  std::string bytes;
  bool truncated = false;
};
BoundedRead read_bounded(const std::string& path, std::size_t limit);

// A file written line by line, each write(2) checked: a full disk, a closed pipe or a
// vanished terminal is a CommandError naming the file, never a silent loss.
class OutputFile {
 public:
  enum class Mode { Truncate, Append };
  // "-" is standard output.
  OutputFile(const std::string& path, Mode mode);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  const std::string& name() const { return name_; }

 private:
  int fd_ = -1;
  bool owned_ = false;
  std::string name_;
};

// Writes text to path through a temporary file in the same folder and a rename, creating
// the folder first: readers never see a half-written file.
void write_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace weightspace::app
