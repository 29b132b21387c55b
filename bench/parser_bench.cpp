// SPDX-License-Identifier: GPL-3.0-or-later
// parse_answer on realistic answers: every W1 element assigned one by one (19,200 statements,
// the largest answer a model plausibly writes), once tersely (about 0.4 MB) and once the way an
// LLM writes it, with full float64 reprs and a comment on every line (about 1 MB). Also the
// fence scan and the trajectory reader on hostile and large inputs: their bytes/s should not
// fall as the input grows (linear time; the unit tests check only their outcomes).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <string>

#include "games/random_state.hpp"
#include "parser/answer.hpp"
#include "parser/fence.hpp"
#include "parser/trajectory.hpp"

namespace {

using namespace weightspace;

constexpr int kRows = 600;
constexpr int kColumns = 32;

std::string fenced(const std::string& body) {
  return "I set every weight of the first layer by hand.\n\n```edits\n" + body + "```\n";
}

std::string terse_answer() {
  RandomState random(7);
  std::string body;
  char line[64];
  for (int row = 0; row < kRows; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      std::snprintf(line, sizeof line, "W1[%d, %d] = %.4f\n", row, column, random.random_sample() * 2.0 - 1.0);
      body += line;
    }
  }
  return fenced(body);
}

// %.17g is what repr() prints for most doubles (17 significant digits), the longest form.
std::string verbose_answer() {
  static const char* const kChannels[] = {"paddle", "ball", "trail", "brick", "enemy", "bullet"};
  RandomState random(7);
  std::string body;
  char line[96];
  for (int row = 0; row < kRows; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      std::snprintf(line, sizeof line, "W1[%d, %d] = %.17g  # %s channel\n", row, column,
                    random.random_sample() * 2.0 - 1.0, kChannels[row % 6]);
      body += line;
    }
  }
  return fenced(body);
}

void run(benchmark::State& state, const std::string& answer) {
  for (auto _ : state) {
    const ParsedAnswer parsed = parse_answer(answer);
    if (!parsed.success || parsed.edit_count != kRows * kColumns) state.SkipWithError("the answer did not parse");
    benchmark::DoNotOptimize(parsed.nonzero_weights);
  }
  state.counters["bytes"] = static_cast<double>(answer.size());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * answer.size()));
}

void BM_ParseElementByElement(benchmark::State& state) { run(state, terse_answer()); }
BENCHMARK(BM_ParseElementByElement)->Unit(benchmark::kMillisecond);

void BM_ParseElementByElementVerbose(benchmark::State& state) { run(state, verbose_answer()); }
BENCHMARK(BM_ParseElementByElementVerbose)->Unit(benchmark::kMillisecond);

std::string repeated(const std::string& unit, std::size_t size) {
  std::string text;
  while (text.size() < size) text += unit;
  return text;
}

// One long line, 128 KiB to 1 MiB: many `;`-separated statements; a long index tuple (numpy raises
// IndexError for it, after the whole block parsed); padding after a statement; padding inside
// brackets. Each phase must stay linear: the bytes/s of a shape should not fall with the size.
std::string long_line(std::int64_t kind, std::size_t size) {
  switch (kind) {
    case 0: return fenced(repeated("b1[0] = 1; ", size) + "\n");
    case 1: return fenced("b1[" + repeated("0, ", size) + "0] = 1\n");
    case 2: return fenced("b1[0] = 1" + std::string(size, ' ') + "\n");
    default: return fenced("b1[0] = (" + std::string(size, ' ') + "1)\n");
  }
}

void BM_ParseLongLine(benchmark::State& state) {
  const std::string answer = long_line(state.range(0), static_cast<std::size_t>(state.range(1)) << 10);
  for (auto _ : state) benchmark::DoNotOptimize(parse_answer(answer).edit_count);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * answer.size()));
}
BENCHMARK(BM_ParseLongLine)->ArgNames({"shape", "KiB"})->ArgsProduct({{0, 1, 2, 3}, {128, 256, 512, 1024}})
    ->Unit(benchmark::kMillisecond);

// Inputs that make a backtracking regex quadratic (Python's re is, on case 0), at 1 and 4 MiB.
std::string hostile_answer(std::int64_t kind, std::size_t size) {
  switch (kind) {
    case 0: return "```edits" + repeated(" \n", size);
    case 1: return repeated("```edits\n", size);
    case 2: return std::string(size, '`');
    default: return repeated("```edits\u3000\u2028", size);
  }
}

void BM_LastEditsBlockHostile(benchmark::State& state) {
  const std::string answer = hostile_answer(state.range(0), static_cast<std::size_t>(state.range(1)) << 20);
  for (auto _ : state) benchmark::DoNotOptimize(last_edits_block(answer));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * answer.size()));
}
BENCHMARK(BM_LastEditsBlockHostile)->ArgsProduct({{0, 1, 2, 3}, {1, 4}})->Unit(benchmark::kMillisecond);

// A 4 or 16 MiB assistant string; a million null steps (AttributeError in the grader); a
// million nulls in a user message's content list.
std::string large_trajectory(std::int64_t kind, std::size_t size) {
  switch (kind) {
    case 0:
      return R"({"steps": [{"messages": [{"role": "assistant", "content": ")" + std::string(size, 'x') + "\"}]}]}";
    case 1: return R"({"steps": [)" + repeated("null,", size) + "{}]}";
    default:
      return R"({"steps": [{"messages": [{"role": "user", "content": [)" + repeated("null,", size) +
             R"({"text": "a"}]}]}]})";
  }
}

void BM_AssistantAnswerLarge(benchmark::State& state) {
  const std::string document = large_trajectory(state.range(0), static_cast<std::size_t>(state.range(1)) << 20);
  for (auto _ : state) {
    try {
      benchmark::DoNotOptimize(assistant_answer(document));
    } catch (const std::exception&) {
      // case 1 raises, as the grader does; the time to find that out is what is measured
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * document.size()));
}
BENCHMARK(BM_AssistantAnswerLarge)->ArgsProduct({{0, 1, 2}, {4, 16}})->Unit(benchmark::kMillisecond);

}  // namespace
