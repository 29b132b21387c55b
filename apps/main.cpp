// SPDX-License-Identifier: GPL-3.0-or-later
// The weightspace command line: every subcommand lives in its own *_command.cpp.
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
#include <string>
#include <string_view>
#include <vector>

#include "apps/commands/commands.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/suggest.hpp"
#include "apps/version.hpp"
#include "policy/tanh.hpp"

int main(int argc, char** argv) {
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
  app.set_version_flag("--version", [] {
    return std::string("weightspace ") + weightspace::app::kVersion + "\ngit revision: " +
           weightspace::app::kGitRevision + "\nbuild: " + weightspace::app::kBuildFlags +
           "\nSIMD level (chosen at run time): " + weightspace::simd_level_name(weightspace::best_simd_level());
  });
  // Building the options of all fourteen commands, and freeing them at exit, cost 0.7-0.8 ms
  // of every process (docs/performance.md, "Process start"): a call that names its command
  // exactly builds that command alone. Help, --version and anything else build them all.
  struct Command {
    std::string_view name;
    void (*add)(CLI::App&);
  };
  static constexpr Command kCommands[] = {
      {"grade", weightspace::app::add_grade_command},     {"batch", weightspace::app::add_batch_command},
      {"merge", weightspace::app::add_merge_command},     {"bench", weightspace::app::add_bench_command},
      {"verify", weightspace::app::add_verify_command},   {"parse", weightspace::app::add_parse_command},
      {"episode", weightspace::app::add_episode_command}, {"replay", weightspace::app::add_replay_command},
      {"games", weightspace::app::add_games_command},     {"conform", weightspace::app::add_conform_command},
      {"sweep", weightspace::app::add_sweep_command},     {"runs", weightspace::app::add_runs_command},
      {"compare", weightspace::app::add_compare_command}, {"report", weightspace::app::add_report_command},
      {"serve", weightspace::app::add_serve_command},
  };
  const std::string_view first = argc > 1 ? argv[1] : "";
  const auto named = std::find_if(std::begin(kCommands), std::end(kCommands),
                                  [&](const Command& command) { return command.name == first; });
  if (named != std::end(kCommands)) {
    named->add(app);
  } else {
    for (const Command& command : kCommands) command.add(app);
  }
  // A command given as the first argument that is none of ours: say so (CLI11 would only say
  // that a subcommand is required).
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::string list;
      for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
      spdlog::error("unknown command '{}'{}; the commands are {}", argv[1],
                    weightspace::app::did_you_mean(argv[1], names), list);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // Help and --version exit 0; every mistake in the call exits 2, as scripts expect.
    const int status = app.exit(error);
    return status == 0 ? 0 : 2;
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
