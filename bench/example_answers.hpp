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

// The weights of examples/answers/<game>.md, a hand-written answer like the ones graded (the
// target defines WEIGHTSPACE_EXAMPLES_DIR); std::runtime_error naming the file if it cannot
// be read or parsed.
template <Game G>
Weights example_weights() {
  const std::string path = std::string(WEIGHTSPACE_EXAMPLES_DIR "/answers/") + std::string(G::name) + ".md";
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  ParsedAnswer parsed = parse_answer(text.str());
  if (!file || !parsed.success) throw std::runtime_error("cannot use the example answer " + path);
  return std::move(parsed.weights);
}

}  // namespace weightspace::bench
