// SPDX-License-Identifier: GPL-3.0-or-later
// What both executables do with a command line: standard streams, the logger, CLI11 with
// the project's rules, the errors as exit statuses (docs/user-guide.md "Exit status").
#include "apps/commands/command_main.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/cli/command_line.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/suggest.hpp"
#include "apps/version.hpp"
#include "policy/tanh.hpp"

namespace {

// What CLI11 would say too late or too vaguely, said first: no command, `help [COMMAND]`, an
// unknown command or option (with the nearest names). The exit status when the call ends here.
std::optional<int> check_command_line(const CLI::App& app, int argc, char** argv) {
  using weightspace::app::command_list;
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
  const auto usage = [&] {
    std::cerr << "usage: weightspace COMMAND [OPTIONS]\n\ncommands:\n" << weightspace::app::command_table(app);
  };
  if (args.empty()) {
    spdlog::error("a command is required; the commands are {} (`weightspace help COMMAND` describes one)",
                  command_list(app));
    usage();
    return 2;
  }
  if (args[0] == "help") {
    if (args.size() == 1) {
      std::cout << app.help();
      return 0;
    }
    const auto* command = std::find(names.begin(), names.end(), args[1]) != names.end()
                              ? app.get_subcommand(args[1]) : nullptr;
    if (args.size() > 2 || command == nullptr) {
      spdlog::error("usage: weightspace help [COMMAND]; unknown command '{}'{}; the commands are {}", args[1],
                    weightspace::app::did_you_mean(args[1], names), command_list(app));
      return 2;
    }
    std::cout << command->help(app.get_name());
    return 0;
  }
  if (args[0][0] != '-') {
    if (std::find(names.begin(), names.end(), args[0]) == names.end()) {
      spdlog::error("unknown command '{}'{}; the commands are {}", args[0],
                    weightspace::app::did_you_mean(args[0], names), command_list(app));
      return 2;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (const auto unknown = weightspace::app::unknown_option(*app.get_subcommand(args[0]), rest)) {
      spdlog::error("{}", *unknown);
      return 2;
    }
    return std::nullopt;
  }
  if (const auto unknown = weightspace::app::unknown_option(app, args)) {
    spdlog::error("{}; the commands are {}", *unknown, command_list(app));
    usage();
    return 2;
  }
  return std::nullopt;
}

}  // namespace

int weightspace::app::command_main(int argc, char** argv, std::span<const Command> commands) {
  // A standard stream that was closed (`>&-`) stays unusable rather than being taken by the
  // next file this process opens: read-only /dev/null makes writes to it fail with EBADF.
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int opened = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
      if (opened >= 0 && opened != fd) {
        ::dup2(opened, fd);
        ::close(opened);
      }
    }
  }
  // Logs and errors go to stderr; stdout carries only results (JSON), so it can be piped.
  auto logger = spdlog::stderr_color_mt("weightspace");
  logger->set_pattern("weightspace: %^%l%$: %v");
  spdlog::set_default_logger(logger);

  CLI::App app{"weightspace: exact, fast grading of hand-written MinAtar policy weights"};
  app.require_subcommand(1);
  app.footer("`weightspace help COMMAND` (or `weightspace COMMAND --help`) describes a command; `man weightspace`.");
  // --help shows each option's default beside it.
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", [] {
    return std::string("weightspace ") + weightspace::app::kVersion + "\ngit revision: " +
           weightspace::app::kGitRevision + "\nbuild: " + weightspace::app::kBuildFlags +
           "\nSIMD level (chosen at run time): " + weightspace::simd_level_name(weightspace::best_simd_level());
  });
  // Building the options of all the commands, and freeing them at exit, cost 0.7-0.8 ms
  // of every process (docs/performance.md, "Process start"): a call that names its command
  // exactly builds that command alone. Help, --version and anything else build them all.
  const std::string_view first = argc > 1 ? argv[1] : "";
  const auto named = std::find_if(commands.begin(), commands.end(),
                                  [&](const Command& command) { return command.name == first; });
  if (named != commands.end()) {
    named->add(app);
  } else {
    for (const Command& command : commands) command.add(app);
  }
  weightspace::app::one_value_per_flag(app);
  weightspace::app::hide_empty_defaults(app);
  app.name(argc > 0 ? argv[0] : "weightspace");  // as parse() names it: `help` prints the same usage lines
  if (const std::optional<int> status = check_command_line(app, argc, argv)) return *status;
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& done) {
    return app.exit(done);  // --help, --version: printed on stdout, exit 0
  } catch (const CLI::ParseError& error) {
    // Every mistake in the call exits 2, as scripts expect, with the command's --help named.
    std::string command = "weightspace";
    for (const CLI::App* sub : app.get_subcommands()) command += " " + sub->get_name();
    spdlog::error("{}; `{} --help` lists the options", error.what(), command);
    return 2;
  } catch (const weightspace::app::UsageError& error) {
    spdlog::error("{}", error.what());
    return 2;
  } catch (const weightspace::app::CommandError& error) {
    spdlog::error("{}", error.what());
    return 1;
  } catch (const std::exception& error) {
    spdlog::critical("internal error: {}", error.what());
    return 3;
  }
  // Results that could not be written (a closed stdout, a full disk) are a failure.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    spdlog::error("cannot write standard output: {}", std::strerror(errno != 0 ? errno : EIO));
    return 1;
  }
  return 0;
}
