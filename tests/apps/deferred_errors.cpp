// SPDX-License-Identifier: GPL-3.0-or-later
// An LD_PRELOAD shim for tests/apps/deferred_errors_test.py: makes fsync(2), syncfs(2) or
// close(2) of one file fail, as NFS or a quota-bound file system reports a failed write only
// there (the data is accepted by write(2), then lost). The file is the one whose path matches
// the fnmatch(3) pattern $DEFERRED_ERROR_PATH; $DEFERRED_ERROR_CALL is "fsync", "syncfs" or
// "close"; the error is EDQUOT. close still closes the descriptor, as Linux does when it
// reports an error.
#include <dlfcn.h>
#include <fnmatch.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool fails(const char* call, int fd) {
  const char* which = std::getenv("DEFERRED_ERROR_CALL");
  const char* pattern = std::getenv("DEFERRED_ERROR_PATH");
  if (which == nullptr || pattern == nullptr || std::strcmp(which, call) != 0) return false;
  char link[64];
  char path[4096];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t length = ::readlink(link, path, sizeof path - 1);
  if (length < 0) return false;
  path[length] = '\0';
  return ::fnmatch(pattern, path, 0) == 0;
}

template <class Function>
Function next(const char* name) {
  return reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));
}

// fsync and syncfs: the named file's call fails, others go through.
int failing_sync(const char* call, int (*real)(int), int fd) {
  if (fails(call, fd)) {
    errno = EDQUOT;
    return -1;
  }
  return real(fd);
}

}  // namespace

extern "C" int fsync(int fd) {
  static const auto real = next<int (*)(int)>("fsync");
  return failing_sync("fsync", real, fd);
}

extern "C" int syncfs(int fd) {
  static const auto real = next<int (*)(int)>("syncfs");
  return failing_sync("syncfs", real, fd);
}

extern "C" int close(int fd) {
  static const auto real = next<int (*)(int)>("close");
  const bool failing = fails("close", fd);
  const int result = real(fd);
  if (!failing) return result;
  errno = EDQUOT;
  return -1;
}
