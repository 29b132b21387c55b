// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/cli/cli_fwd.hpp"

namespace weightspace::app {

// Every option of `app` and its subcommands takes exactly one value per occurrence: CLI11's
// list options otherwise go on taking the arguments that follow, so `batch --game breakout
// x.md` read x.md as a second game and left no input. Lists come comma-separated or by
// repeating the flag.
void one_value_per_flag(CLI::App& app);

// --help shows each option's default (CLI::App::option_defaults()->always_capture_default());
// an empty list's "=[]" says nothing, and is left out.
void hide_empty_defaults(CLI::App& app);

// The first option in `args` (the words after the command's name, up to "--") that `command`
// does not have, as a usage error's text with the nearest names: "unknown option '--thread'
// for `weightspace grade` (did you mean '--threads'?)". Checked before CLI11 parses, whose
// own message for an unknown option is often about another option ("--answer excludes
// ANSWER": it took the stray value as the positional answer).
std::optional<std::string> unknown_option(const CLI::App& command, const std::vector<std::string>& args);

// "batch, bench, ...": the commands of `app`, for messages that list them.
std::string command_list(const CLI::App& app);

// One line per command, its name and description, for `weightspace` alone and `weightspace help`.
std::string command_table(const CLI::App& app);

}  // namespace weightspace::app
