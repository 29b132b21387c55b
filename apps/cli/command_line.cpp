// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

#include "apps/cli/suggest.hpp"

namespace weightspace::app {

void one_value_per_flag(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (!option->get_positional()) option->allow_extra_args(false);
  }
  for (CLI::App* command : app.get_subcommands({})) one_value_per_flag(*command);
}

void hide_empty_defaults(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_default_str() == "[]") option->default_str("");
  }
  for (CLI::App* command : app.get_subcommands({})) hide_empty_defaults(*command);
}

namespace {

// The option names `command` accepts: its own and its parents' (--help, --version).
std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* option : app->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
      for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    }
  }
  return names;
}

// "weightspace grade": the root is named "weightspace" whatever path started it.
std::string command_path(const CLI::App& command) {
  if (command.get_parent() == nullptr) return "weightspace";
  return command_path(*command.get_parent()) + " " + command.get_name();
}

}  // namespace

std::optional<std::string> unknown_option(const CLI::App& command, const std::vector<std::string>& args) {
  const std::vector<std::string> names = option_names(command);
  for (const std::string& arg : args) {
    if (arg == "--") break;
    // "-" is standard input and "-1" a number: an option is "--name" or "-x" with a letter.
    const bool long_option = arg.size() > 2 && arg.starts_with("--");
    const bool short_option = !long_option && arg.size() > 1 && arg[0] == '-' &&
                              ((arg[1] >= 'a' && arg[1] <= 'z') || (arg[1] >= 'A' && arg[1] <= 'Z'));
    if (!long_option && !short_option) continue;
    const std::string name = long_option ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    // "-v" most likely meant the long option that starts with its letter ("--version").
    std::vector<std::string> close;
    if (short_option) {
      for (const std::string& candidate : names) {
        if (candidate.size() > 2 && candidate[2] == arg[1] && candidate.starts_with("--")) close.push_back(candidate);
      }
    }
    const std::string hint = close.empty() ? did_you_mean(name, names) : did_you_mean(close[0], close);
    return "unknown option '" + name + "' for `" + command_path(command) + "`" + hint +
           "; `" + command_path(command) + " --help` lists the options";
  }
  return std::nullopt;
}

std::string command_list(const CLI::App& app) {
  std::string list;
  for (const CLI::App* command : app.get_subcommands({})) list += (list.empty() ? "" : ", ") + command->get_name();
  return list;
}

std::string command_table(const CLI::App& app) {
  std::size_t width = 0;
  for (const CLI::App* command : app.get_subcommands({})) width = std::max(width, command->get_name().size());
  std::string table;
  for (const CLI::App* command : app.get_subcommands({})) {
    const std::string& name = command->get_name();
    table += "  " + name + std::string(width + 2 - name.size(), ' ') + command->get_description() + "\n";
  }
  return table;
}

}  // namespace weightspace::app
