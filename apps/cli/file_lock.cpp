// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "apps/cli/errors.hpp"

namespace weightspace::app {

FileLock::FileLock(const std::string& path, Kind kind) {
  const int flags = kind == Kind::Exclusive ? O_RDONLY | O_CREAT | O_CLOEXEC : O_RDONLY | O_CLOEXEC;
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) {
    // The messages the writer and the reader would give.
    throw CommandError((kind == Kind::Exclusive ? "cannot open " + path + " for writing: " : "cannot read " + path + ": ") +
                       std::strerror(errno));
  }
  int result = 0;
  do {
    result = ::flock(fd_, (kind == Kind::Exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB);
  } while (result != 0 && errno == EINTR);
  if (result == 0) {
    held_ = true;
  } else if (errno != EWOULDBLOCK) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw CommandError("cannot lock " + path + ": " + std::strerror(error));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

bool FileLock::lockable(const std::string& path) {
  if (path.empty() || path == "-") return false;
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return errno == ENOENT;
  return S_ISREG(status.st_mode);
}

}  // namespace weightspace::app
