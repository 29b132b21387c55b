// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace weightspace::app {

// One sweep writes a store at a time: a POSIX record lock on DATABASE-lock, held while the
// sweep lives and dropped by the kernel when it ends in any way (kill -9 included), so a run
// left "running" by a dead sweep is recognisably dead. A separate file because SQLite holds
// POSIX locks on the database itself, and closing any other descriptor of that file in the
// process would drop them.
class SweepLock {
 public:
  // Takes the lock or throws CommandError "database X is in use by another sweep (process N)".
  explicit SweepLock(const std::string& database);
  ~SweepLock();
  SweepLock(const SweepLock&) = delete;
  SweepLock& operator=(const SweepLock&) = delete;

  // The process holding the lock of `database`, if a sweep does.
  static std::optional<pid_t> holder(const std::string& database);

 private:
  int fd_ = -1;
};

}  // namespace weightspace::app
