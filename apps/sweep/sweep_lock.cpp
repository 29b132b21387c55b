// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/sweep_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "apps/cli/files.hpp"

namespace weightspace::app {

namespace {

std::string lock_path(const std::string& database) { return database + "-lock"; }

struct flock whole_file(short type) {
  struct flock lock{};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = 0;
  lock.l_len = 0;
  return lock;
}

}  // namespace

SweepLock::SweepLock(const std::string& database) {
  const std::string path = lock_path(database);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw CommandError("cannot create the sweep lock " + path + ": " + std::strerror(errno));
  struct flock lock = whole_file(F_WRLCK);
  if (::fcntl(fd_, F_SETLK, &lock) == 0) return;
  const int error = errno;
  ::close(fd_);
  fd_ = -1;
  if (error != EACCES && error != EAGAIN) throw CommandError("cannot lock " + path + ": " + std::strerror(error));
  const std::optional<pid_t> other = holder(database);
  throw CommandError("database " + database + " is in use by another sweep" +
                     (other ? " (process " + std::to_string(*other) + ")" : std::string()) +
                     "; one sweep writes a database at a time");
}

SweepLock::~SweepLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<pid_t> SweepLock::holder(const std::string& database) {
  const int fd = ::open(lock_path(database).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // F_GETLK asks without taking: a reader never stands in a starting sweep's way.
  struct flock lock = whole_file(F_WRLCK);
  const bool asked = ::fcntl(fd, F_GETLK, &lock) == 0;
  ::close(fd);
  if (!asked || lock.l_type == F_UNLCK) return std::nullopt;
  return lock.l_pid;
}

}  // namespace weightspace::app
