// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace bench`: how fast a policy rolls out on this machine, for users (the developer
// benchmarks live in bench/). The report gives medians and spreads over repetitions and, with
// --json, Google Benchmark's JSON so that its tools (compare.py) read it (apps/bench/).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/bench/rollout_bench.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/commands/commands.hpp"

namespace weightspace::app {
namespace {

constexpr int kMaxRepetitions = 1000;

// A policy comes from exactly one of an answer, a weights file and a profile.
void add_weights_options(CLI::App& command, BenchRequest& options) {
  options.answer.add_options(command);
  auto* weights = command.add_option("--weights", options.weights_path, "Weights JSON (as `parse --weights-out` writes)");
  auto* profile = command.add_option("--profile", options.profile,
                                     "zero (no forward pass) or dense (uniform random in [-0.3, 0.3), fixed seed)")
                      ->check(CLI::IsMember({"zero", "dense"}));
  weights->excludes(profile);
  for (CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (name == "--answer" || name == "--trajectory" || name == "ANSWER") option->excludes(weights)->excludes(profile);
  }
}

void write_output(const BenchOutput& output, const std::string& json_path) {
  for (const std::string& warning : output.warnings) spdlog::warn("{}", warning);
  std::cout << output.table;
  if (json_path == "-") {
    std::cout << output.json;
  } else if (!json_path.empty()) {
    write_file(json_path, output.json);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchRequest>();
  auto* command = app.add_subcommand("bench", "Measure policy rollout speed on this machine (policy-steps/s, grades/s, "
                                              "thread speed-up)");
  command->add_option("--game", options->game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->source, "original or synth")->check(CLI::IsMember({"original", "synth"}));
  add_weights_options(*command, *options);
  command->add_option("--threads", options->threads, "Thread counts to compare, e.g. 1,2 (the first is the base)")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxThreads));
  command->add_option("--episodes", options->episodes, "Episodes a grade plays (read as Python's int(); default 1000)");
  command->add_option("--repetitions", options->repetitions, "Timed grades per thread count (after one warm-up)")
      ->check(CLI::Range(1, kMaxRepetitions));
  command->add_option("--min-time", options->min_time,
                      "Seconds each repetition lasts at least (whole grades; default 0.5, 0 = one grade)")
      ->check(CLI::Range(0.0, kMaxMinTime));
  command->add_flag("--extend,!--no-extend", options->extend,
                    "Add repetitions while a row is too short or too noisy (default on)");
  command->add_flag("--instructions", options->instructions,
                    "Also count one grade's instructions on 1 thread under valgrind (Debian's valgrind)");
  command->add_option("--json", options->json_path, "Also write Google Benchmark JSON here ('-' = stdout, no table)");
  command->add_option("--memo", options->memo,
                      "The exact policy memo: auto (as grades: whichever way is measured faster), hits (while half "
                      "of each window's lookups hit), always or never")
      ->check(CLI::IsMember(memo_names()));
  command->callback([options] {
    // Thread counts past the cores are timed at the cores (oneTBB runs no more), each once.
    std::vector<int> threads;
    for (const int requested : options->threads) {
      std::string note;
      const int usable = usable_threads(requested, note);
      if (!note.empty()) spdlog::warn("{}", note);
      if (std::find(threads.begin(), threads.end(), usable) == threads.end()) threads.push_back(usable);
    }
    options->threads = threads;
    write_output(run_bench(*options), options->json_path);
  });
}

}  // namespace weightspace::app
