// SPDX-License-Identifier: GPL-3.0-or-later
// The weightspace command line: every subcommand lives in its own *_command.cpp.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>

#include "apps/commands.hpp"
#include "apps/files.hpp"

int main(int argc, char** argv) {
  // Logs and errors go to stderr; stdout carries only results (JSON), so it can be piped.
  auto logger = spdlog::stderr_color_mt("weightspace");
  logger->set_pattern("weightspace: %^%l%$: %v");
  spdlog::set_default_logger(logger);

  CLI::App app{"weightspace: exact, fast grading of hand-written MinAtar policy weights"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "weightspace 0.1.0");
  weightspace::app::add_grade_command(app);
  weightspace::app::add_batch_command(app);
  weightspace::app::add_verify_command(app);
  weightspace::app::add_parse_command(app);
  weightspace::app::add_episode_command(app);
  weightspace::app::add_replay_command(app);
  weightspace::app::add_games_command(app);
  weightspace::app::add_conform_command(app);
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
  return 0;
}
