// SPDX-License-Identifier: GPL-3.0-or-later
// `serve` in weightspace: the options were read and checked here (usage errors, --help and the
// token file come from this process); the serving is weightspace-serve's, which this process
// becomes by exec with the same command line (same pid, so signals and supervisors see one
// process). The split keeps cpp-httplib and the TLS and compression libraries it loads out of
// every other command's start (apps/serve_main.cpp).
#include "apps/commands/serve_run.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "apps/cli/errors.hpp"

namespace weightspace::app {

namespace {

// Beside this executable (a build tree), else where `cmake --install` puts it
// (WEIGHTSPACE_SERVE_FROM_BINDIR: libexec/weightspace/weightspace-serve relative to bin/).
std::filesystem::path serve_executable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw CommandError("cannot start the server: cannot find this executable (/proc/self/exe: " + error.message() + ")");
  const std::filesystem::path candidates[] = {self.parent_path() / "weightspace-serve",
                                              self.parent_path() / WEIGHTSPACE_SERVE_FROM_BINDIR};
  for (const std::filesystem::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  throw CommandError("cannot start the server: weightspace-serve, installed with weightspace, is missing (looked for " +
                     candidates[0].string() + " and " + candidates[1].lexically_normal().string() + ")");
}

// This process's own arguments, as the kernel keeps them (NUL-separated).
std::vector<std::string> command_line_words() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<std::string> words;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\0', start);
    words.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (words.empty()) throw CommandError("cannot start the server: cannot read this process's arguments (/proc/self/cmdline)");
  return words;
}

}  // namespace

void run_serve(const serve::ServerOptions& /*checked; weightspace-serve reads them again*/,
               std::chrono::seconds /*grace*/) {
  const std::filesystem::path target = serve_executable();
  std::vector<std::string> words = command_line_words();
  words[0] = target.string();
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::fflush(nullptr);
  ::execv(target.c_str(), argv.data());
  throw CommandError("cannot start the server " + target.string() + ": " + std::strerror(errno));
}

}  // namespace weightspace::app
