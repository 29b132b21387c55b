// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace weightspace::app {

std::string read_input(const std::string& path) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    return buffer.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CommandError("cannot read " + path + ": " + std::strerror(errno));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

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
  std::size_t chunk = 1 << 16;
  while (true) {
    const std::size_t used = result.bytes.size();
    if (used > limit) break;
    chunk = std::min(std::max(chunk, used), limit + 1 - used);
    result.bytes.resize(used + chunk);
    const ssize_t got = ::read(fd, result.bytes.data() + used, chunk);
    if (got < 0 && errno == EINTR) {
      result.bytes.resize(used);
      continue;
    }
    if (got < 0) {
      const int error = errno;
      if (!standard_input) ::close(fd);
      throw CommandError("cannot read " + name + ": " + std::strerror(error));
    }
    result.bytes.resize(used + static_cast<std::size_t>(got));
    if (got == 0) break;
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

void OutputFile::write(std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd_, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw CommandError("cannot write " + name_ + ": " + std::strerror(written < 0 ? errno : EIO));
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  std::error_code error;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) throw CommandError("cannot create " + path.parent_path().string() + ": " + error.message());
  }
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary, error);
      throw CommandError("cannot write " + temporary.string() + ": " + std::strerror(errno));
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw CommandError("cannot rename onto " + path.string() + ": " + error.message());
  }
}

}  // namespace weightspace::app
