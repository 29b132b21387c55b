// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apps/cli/cli_fwd.hpp"

#include <span>
#include <string_view>

namespace weightspace::app {

// A command of an executable: its name and the function that registers its options and callback.
struct Command {
  std::string_view name;
  void (*add)(CLI::App&);
};

// The whole of an executable's main(): standard streams that were closed made unusable, the
// logger on stderr, the commands registered and the call parsed with the project's rules, and
// every failure as its exit status (2 usage, 1 a failed command, 3 an internal error).
// `weightspace` has every command; `weightspace-serve` only `serve` (apps/serve_main.cpp).
int command_main(int argc, char** argv, std::span<const Command> commands);

}  // namespace weightspace::app
