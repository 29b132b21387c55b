// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/files.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
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
