// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace batch`: many answers in one process, on all cores, as JSONL in input order
// (apps/batch/batch_run.hpp).
#include <CLI/CLI.hpp>

#include <memory>

#include "apps/batch/answer_input.hpp"
#include "apps/batch/batch_run.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/commands/commands.hpp"

namespace weightspace::app {

void add_batch_command(CLI::App& app) {
  auto options = std::make_shared<BatchRunOptions>();
  auto* command = app.add_subcommand(
      "batch", "Grade many answers in one process: files, folders, JSONL manifests (- = stdin); JSONL out, in input order");
  command->add_option("inputs", options->inputs,
                      "Answer files, trajectory *.json, folders (recursive), JSONL manifests (*.jsonl, - for stdin)");
  command
      ->add_option("--game", options->games,
                   "Game(s) to grade every input on (repeat or comma-separate; all = every game of --source)")
      ->delimiter(',');
  command->add_option("--source", options->source, "original or synth")->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--episodes", options->episodes, "Episodes per grade, read as Python's int() (the grader's default is 1000)");
  command->add_option("--threads", options->threads, "Worker threads (0 = all cores); never changes a result")
      ->check(CLI::Range(0, kMaxThreads));
  command->add_option("--lockstep,--batch", options->lockstep,
                      "Episodes stepped in lockstep per thread (--batch: its older name); never changes a result")
      ->check(CLI::Range(1, 4096));
  command->add_option("--memo", options->memo,
                      "The exact policy memo: auto (whichever way is measured faster), hits (while half of each "
                      "window's lookups hit: the same steps every run), always or never; never changes a result")
      ->check(CLI::IsMember(memo_names()));
  command->add_option("--cache", options->cache, "Distinct rollouts remembered for identical weights (0 = off)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 20));
  command->add_option("--out", options->out, "Append JSONL here instead of stdout (flushed per record)");
  command->add_flag("--resume", options->resume, "Continue an interrupted --out: check it, drop a torn last line, go on");
  command->add_flag("--no-timings", options->no_timings, "Leave out seconds and steps, so outputs compare whole");
  command->add_flag("--quiet", options->quiet, "No progress and no summary on stderr");
  command->add_option("--csv", options->csv, "Also write a flat CSV table here");
  command->add_option("--rewards-dir", options->rewards_dir, "Also write each record's reward.json into this folder");
  add_max_input_bytes_option(*command, options->max_input_bytes);
  options->shard.add_options(*command, "--out");
  command->add_flag("--dry-run", options->dry_run,
                    "Grade nothing: print the shard and, as JSONL, the records it would grade (docs/cluster.md)");
  command->callback([options] { grade_batch(*options); });
}

}  // namespace weightspace::app
