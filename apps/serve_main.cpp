// SPDX-License-Identifier: GPL-3.0-or-later
// weightspace-serve: `weightspace serve` itself. The weightspace executable reads the serve
// command's options and then hands its command line to this one (apps/commands/serve_handoff.cpp),
// the only executable that loads cpp-httplib and, through it, the TLS and compression libraries:
// they cost every other weightspace process ~8 M instructions at start (docs/performance.md,
// "Process start").
#include "apps/commands/command_main.hpp"
#include "apps/commands/commands.hpp"

int main(int argc, char** argv) {
  using namespace weightspace::app;
  static constexpr Command kCommands[] = {{"serve", add_serve_command}};
  return command_main(argc, argv, kCommands);
}
