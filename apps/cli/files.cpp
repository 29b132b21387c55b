// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace weightspace::app {

std::string read_input(const std::string& path, std::size_t limit) {
  BoundedRead read = read_bounded(path, limit);
  if (read.truncated) {
    throw CommandError("cannot read " + (path == "-" ? std::string("standard input") : path) + ": it is larger than " +
                       std::to_string(limit) + " bytes");
  }
  return std::move(read.bytes);
}

namespace {

// Reads `fd` to its end or past `limit` into `bytes`. A regular file's size is known: one
// buffer of it (`expected`, its size plus one byte to see the end). A pipe's is not: it is
// read into blocks of doubling size, uninitialised and never moved, then copied once into
// `bytes`. Growing one buffer by each read's 64 KiB (zero-filled each time) made a 200 MB
// answer through a pipe quadratic: 15.4 s, against 2.6 s from the file (issue 34).
void read_to_end(int fd, const std::string& name, std::size_t limit, std::size_t expected, std::string& bytes) {
  const std::size_t most = limit == std::numeric_limits<std::size_t>::max() ? limit : limit + 1;
  struct Block {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
    std::size_t used = 0;
  };
  std::vector<Block> blocks;
  std::size_t total = 0;
  std::size_t next_size = std::min(std::max(expected, std::size_t{1} << 16), most);
  while (total < most) {
    if (blocks.empty() || blocks.back().used == blocks.back().size) {
      const std::size_t size = std::min(next_size, most - total);
      blocks.push_back({std::make_unique_for_overwrite<char[]>(size), size, 0});
      next_size = std::min(2 * next_size, std::size_t{1} << 26);  // 64 MiB blocks at most
    }
    Block& block = blocks.back();
    const std::size_t room = std::min(block.size - block.used, most - total);
    const ssize_t got = ::read(fd, block.data.get() + block.used, room);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw CommandError("cannot read " + name + ": " + std::strerror(errno));
    if (got == 0) break;
    block.used += static_cast<std::size_t>(got);
    total += static_cast<std::size_t>(got);
  }
  bytes.reserve(total);
  for (const Block& block : blocks) bytes.append(block.data.get(), block.used);
}

}  // namespace

BoundedRead read_bounded(const std::string& path, std::size_t limit) {
  const bool standard_input = path == "-";
  const std::string name = standard_input ? "standard input" : path;
  const int fd = standard_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw CommandError("cannot read " + name + ": " + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) {
    if (!standard_input) ::close(fd);
    throw CommandError("cannot read " + name + ": " + std::strerror(EISDIR));
  }
  BoundedRead result;
  const bool regular = S_ISREG(status.st_mode);
  if (regular && static_cast<std::uintmax_t>(status.st_size) > limit) {
    // Known too large before reading a byte: a 4 GiB file is refused at once.
    if (!standard_input) ::close(fd);
    result.truncated = true;
    return result;
  }
  // A pipe holds 64 KiB: the writer and this reader take turns at every 64 KiB, and on a
  // loaded machine each turn waits for the scheduler. 1 MiB (the unprivileged most,
  // /proc/sys/fs/pipe-max-size) makes 16 times fewer turns; refused, the read goes on as it is.
  if (S_ISFIFO(status.st_mode)) ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  try {
    read_to_end(fd, name, limit, regular ? static_cast<std::size_t>(status.st_size) + 1 : 0, result.bytes);
  } catch (...) {
    if (!standard_input) ::close(fd);
    throw;
  }
  if (!standard_input) ::close(fd);
  if (result.bytes.size() > limit) {
    result.bytes.resize(limit);
    result.truncated = true;
  }
  return result;
}

OutputFile::OutputFile(const std::string& path, Mode mode) : name_(path == "-" ? "standard output" : path) {
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::Append ? O_APPEND : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) throw CommandError("cannot open " + path + " for writing: " + std::strerror(errno));
  owned_ = true;
}

OutputFile::~OutputFile() {
  if (owned_) ::close(fd_);
}

namespace {

[[noreturn]] void fail_to_write(const std::string& path, int error) {
  throw CommandError("cannot write " + path + ": " + std::strerror(error));
}

// Every byte of `text` to `fd`, or a CommandError naming `path` (the fd stays open).
void write_all(int fd, const std::string& path, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail_to_write(path, written < 0 ? errno : EIO);
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace

void OutputFile::write(std::string_view text) { write_all(fd_, name_, text); }

void OutputFile::close() {
  if (!owned_) return;
  owned_ = false;
  struct stat status {};
  // fsync of a FIFO or device fails with EINVAL and means nothing there.
  const bool regular = ::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode);
  const int synced = regular ? ::fsync(fd_) : 0;
  const int sync_error = errno;
  const int closed = ::close(fd_);
  if (synced != 0) fail_to_write(name_, sync_error);
  if (closed != 0 && errno != EINTR) fail_to_write(name_, errno);  // after EINTR the fd is closed on Linux
}

namespace {

// Opens and writes `path` as it is: a device, a FIFO, a terminal, or the missing target of a
// symbolic link.
void write_through(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_to_write(path, errno);
  try {
    write_all(fd, path, text);
  } catch (const CommandError&) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail_to_write(path, errno);
}

// A temporary file beside `target`, renamed over it: readers see the old file or the new one,
// never half of one. An existing target's permissions are kept.
void replace(const std::filesystem::path& target, const std::string& name, const std::string& text,
             const struct stat* existing, Durability durability) {
  const std::string temporary = target.string() + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_to_write(name, errno);
  if (existing != nullptr) ::fchmod(fd, existing->st_mode & 07777);
  try {
    write_all(fd, name, text);
    // The sync before the rename, never after: renaming a file whose data may still fail to
    // reach the disk could put a torn file where a whole one was.
    if (durability == Durability::synced && ::fsync(fd) != 0) fail_to_write(name, errno);
  } catch (const CommandError&) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  if (::close(fd) != 0 || ::rename(temporary.c_str(), target.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    fail_to_write(name, error);
  }
}

}  // namespace

void write_file(const std::filesystem::path& path, const std::string& text, Durability durability) {
  const std::string name = path.string();
  struct stat status {};
  if (::stat(name.c_str(), &status) == 0) {
    if (S_ISDIR(status.st_mode)) fail_to_write(name, EISDIR);
    if (!S_ISREG(status.st_mode)) return write_through(name, text);
    // A regular file, perhaps behind symbolic links: replace the file, keep the links.
    std::error_code error;
    const std::filesystem::path target = std::filesystem::canonical(path, error);
    if (error) fail_to_write(name, error.value());
    return replace(target, name, text, &status, durability);
  }
  if (errno != ENOENT) fail_to_write(name, errno);
  struct stat link {};
  if (::lstat(name.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) return write_through(name, text);
  if (path.has_parent_path()) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) throw CommandError("cannot create " + path.parent_path().string() + ": " + error.message());
  }
  replace(path, name, text, nullptr, durability);
}

FolderSync::FolderSync(const std::string& folder) : folder_(folder) {
  fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) fail_to_write(folder, errno);
}

FolderSync::~FolderSync() {
  if (fd_ >= 0) ::close(fd_);
}

void FolderSync::sync() {
  // syncfs reports write-back errors of its file system since the descriptor was opened
  // (Linux 5.8 and later).
  if (::syncfs(fd_) != 0) fail_to_write(folder_, errno);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  const auto canonical_a = std::filesystem::weakly_canonical(a, error);
  const auto canonical_b = std::filesystem::weakly_canonical(b, error);
  return !error && canonical_a == canonical_b;
}

}  // namespace weightspace::app
