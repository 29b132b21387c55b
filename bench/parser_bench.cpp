// SPDX-License-Identifier: GPL-3.0-or-later
// parse_answer on realistic answers: every W1 element assigned one by one (19,200 statements,
// about 0.5 MB, the largest answer a model plausibly writes).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "games/random_state.hpp"
#include "parser/answer.hpp"

namespace {

using namespace weightspace;

std::string element_by_element_answer() {
  RandomState random(7);
  std::string answer = "I set every weight of the first layer by hand.\n\n```edits\n";
  char line[64];
  for (int row = 0; row < 600; ++row) {
    for (int column = 0; column < 32; ++column) {
      std::snprintf(line, sizeof line, "W1[%d, %d] = %.4f\n", row, column, random.random_sample() * 2.0 - 1.0);
      answer += line;
    }
  }
  return answer + "```\n";
}

void BM_ParseElementByElement(benchmark::State& state) {
  const std::string answer = element_by_element_answer();
  for (auto _ : state) {
    const ParsedAnswer parsed = parse_answer(answer);
    if (!parsed.success || parsed.edit_count != 19200) state.SkipWithError("the answer did not parse");
    benchmark::DoNotOptimize(parsed.nonzero_weights);
  }
  state.counters["bytes"] = static_cast<double>(answer.size());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * answer.size()));
}
BENCHMARK(BM_ParseElementByElement)->Unit(benchmark::kMillisecond);

}  // namespace
