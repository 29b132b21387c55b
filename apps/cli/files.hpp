// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "apps/cli/errors.hpp"

namespace weightspace::app {

// The whole file as bytes; "-" reads standard input. More than `limit` bytes, a folder or an
// unreadable path is a CommandError saying which.
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;
std::string read_input(const std::string& path, std::size_t limit = kMaxInputBytes);

// At most `limit` bytes of a file ("-": standard input); `truncated` when there was more (a
// regular file that is too large is not read at all: `bytes` is then empty).
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
  // The file's data to the disk (fsync) and the file closed, both checked: a network or
  // quota-bound file system may report a failed write only there (ENOSPC, EDQUOT, EIO), and
  // an output reported complete must be. Standard output, pipes and devices are left open.
  // The destructor closes without checking: a file that failed is reported already.
  void close();
  const std::string& name() const { return name_; }

 private:
  int fd_ = -1;
  bool owned_ = false;
  std::string name_;
};

// Writes text to path without destroying what is there:
//  * a regular file (also behind symbolic links, which stay) is replaced atomically: a
//    temporary file beside it, then a rename, so readers never see half of it;
//  * a device, FIFO, socket or terminal (/dev/null, /dev/stdout, a pipe) is written through;
//  * a missing path is created the same atomic way (its folder first); the missing target of
//    a symbolic link is created through the link;
//  * a folder is an error. Every failure is a CommandError with the system's reason.
// With Durability::synced (the default) a replaced file's data reaches the disk (fsync, checked)
// before the rename: a crash then leaves the old file or the whole new one, and a write error
// the file system reports only at fsync or close (NFS, quotas) keeps the old file and is a
// CommandError. Durability::deferred leaves the sync to the caller, who syncs many files at
// once (FolderSync) and can tell a torn file from a whole one by its content.
enum class Durability { synced, deferred };
void write_file(const std::filesystem::path& path, const std::string& text,
                Durability durability = Durability::synced);

// syncfs(2) of the file system holding `folder` through a descriptor opened before the writes
// it must cover (FolderSync's constructor), checked: a write error since then is a
// CommandError naming the folder.
class FolderSync {
 public:
  explicit FolderSync(const std::string& folder);
  ~FolderSync();
  FolderSync(const FolderSync&) = delete;
  FolderSync& operator=(const FolderSync&) = delete;
  void sync();

 private:
  int fd_ = -1;
  std::string folder_;
};

// Whether two paths name the same file (existing or not, through links).
bool same_file(const std::string& a, const std::string& b);

}  // namespace weightspace::app
