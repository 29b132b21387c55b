// SPDX-License-Identifier: GPL-3.0-or-later
// The weightspace command line: every subcommand lives in its own *_command.cpp.
#include "apps/commands/command_main.hpp"
#include "apps/commands/commands.hpp"

int main(int argc, char** argv) {
  using namespace weightspace::app;
  static constexpr Command kCommands[] = {
      {"grade", add_grade_command},     {"batch", add_batch_command},     {"merge", add_merge_command},
      {"bench", add_bench_command},     {"verify", add_verify_command},   {"parse", add_parse_command},
      {"episode", add_episode_command}, {"replay", add_replay_command},   {"games", add_games_command},
      {"conform", add_conform_command}, {"sweep", add_sweep_command},     {"runs", add_runs_command},
      {"compare", add_compare_command}, {"report", add_report_command},   {"serve", add_serve_command},
  };
  return command_main(argc, argv, kCommands);
}
