// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/answer_input.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <limits>
#include <new>

#include <spdlog/spdlog.h>

#include "apps/cli/files.hpp"
#include "parser/python/grammar.hpp"
#include "parser/trajectory.hpp"

namespace weightspace::app {

namespace {

std::size_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::size_t>::max();
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
}

}  // namespace

std::size_t default_max_input_bytes() { return std::min(kMaxEditsBlockBytes, physical_memory() / 4); }

void add_max_input_bytes_option(CLI::App& command, std::size_t& limit) {
  const std::size_t ceiling = std::min(kMaxEditsBlockBytes, physical_memory() / 2);
  command
      .add_option("--max-input-bytes", limit,
                  "Largest answer or trajectory file read (bytes, or 64MiB, 2GB)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(std::size_t{1}, ceiling, "at most " + std::to_string(ceiling) +
                                                      " (the parser's 4 GiB ceiling or half the memory)"));
}

std::string read_answer_input(const std::string& path, bool trajectory, std::size_t limit) {
  const std::string name = path == "-" ? "standard input" : path;
  BoundedRead read;
  try {
    read = read_bounded(path, limit);
  } catch (const std::bad_alloc&) {
    throw EditError("MemoryError", name + ": not enough memory to read it (--max-input-bytes bounds what is read)");
  }
  if (read.truncated) {
    throw EditError("MemoryError", name + " is larger than " + std::to_string(limit) + " bytes, the most read for " +
                                       (trajectory ? "a trajectory" : "an answer") + " (--max-input-bytes)");
  }
  return std::move(read.bytes);
}

void AnswerSource::add_options(CLI::App& command) {
  auto* answer = command.add_option("--answer", answer_path, "File holding the assistant's answer text ('-' = stdin)");
  auto* trajectory = command.add_option("--trajectory", trajectory_path, "Agent trajectory JSON; its last assistant message is graded");
  auto* positional = command.add_option("ANSWER", positional_path, "The answer file, as --answer ('-' = stdin)");
  answer->excludes(trajectory)->excludes(positional);
  trajectory->excludes(positional);
  add_max_input_bytes_option(command, max_input_bytes);
}

AnswerSource::Loaded AnswerSource::load() const {
  try {
    if (!trajectory_path.empty()) {
      const std::string answer = assistant_answer(read_answer_input(trajectory_path, true, max_input_bytes));
      if (answer.empty()) spdlog::warn("{}: no assistant message with text; the grader grades \"\"", trajectory_path);
      return {answer, std::nullopt};
    }
    const std::string& path = answer_path.empty() ? positional_path : answer_path;
    if (!path.empty()) return {read_answer_input(path, false, max_input_bytes), std::nullopt};
  } catch (const EditError& error) {
    const std::string& path = trajectory_path.empty() ? (answer_path.empty() ? positional_path : answer_path)
                                                      : trajectory_path;
    const bool named = std::string_view(error.what()).starts_with(path == "-" ? "standard input" : path);
    return {"", EditError(error.kind(), named ? error.what() : path + ": " + error.what(), error.line(),
                          error.column())};
  }
  throw UsageError("no answer given: use --answer FILE, --trajectory FILE, FILE or - (stdin)");
}

}  // namespace weightspace::app
