// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace weightspace::app {

// An advisory flock(2) lock on a file, held while the object lives and dropped by the kernel
// when the process ends in any way (kill -9 included), so a dead writer never blocks the next
// run. flock, not a POSIX record lock: it belongs to this open file description, so the
// writer's other descriptors of the same file (opened and closed as it writes) leave it alone.
// A batch holds its --out exclusively; merge holds each shard's output shared while it reads.
class FileLock {
 public:
  enum class Kind { Exclusive, Shared };
  // Tries once, without waiting. An exclusive lock creates a missing file (empty, as the
  // writer would). Throws CommandError when the file cannot be opened.
  FileLock(const std::string& path, Kind kind);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // False when another process holds a lock that excludes this one.
  bool held() const { return held_; }

  // Whether `path` is a file a writer locks: a regular file, or none yet (not "-", a FIFO or a device).
  static bool lockable(const std::string& path);

 private:
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace weightspace::app
