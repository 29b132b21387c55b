// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "games/game.hpp"
#include "parser/answer.hpp"
#include "policy/weights.hpp"

namespace weightspace::bench {

// The text of examples/answers/<game>.md, a hand-written answer like the ones graded (the
// target defines WEIGHTSPACE_EXAMPLES_DIR); std::runtime_error naming the file if it cannot
// be read or parsed.
template <Game G>
std::string example_answer() {
  const std::string path = std::string(WEIGHTSPACE_EXAMPLES_DIR "/answers/") + std::string(G::name) + ".md";
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file || !parse_answer(text.str()).success) throw std::runtime_error("cannot use the example answer " + path);
  return text.str();
}

// Its weights.
template <Game G>
Weights example_weights() {
  return std::move(parse_answer(example_answer<G>()).weights);
}

}  // namespace weightspace::bench
