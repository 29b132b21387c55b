// SPDX-License-Identifier: GPL-3.0-or-later
// parse_answer on realistic answers: every W1 element assigned one by one (19,200 statements,
// the largest answer a model plausibly writes), once tersely (about 0.4 MB) and once the way an
// LLM writes it, with full float64 reprs and a comment on every line (about 1 MB).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "games/random_state.hpp"
#include "parser/answer.hpp"

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

}  // namespace
