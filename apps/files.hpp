// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace weightspace::app {

// A failure the CLI reports as one line and a non-zero exit status.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole file as bytes; "-" reads standard input.
std::string read_input(const std::string& path);

// Writes text to path through a temporary file in the same folder and a rename, creating
// the folder first: readers never see a half-written file.
void write_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace weightspace::app
