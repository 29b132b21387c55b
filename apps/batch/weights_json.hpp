// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "policy/weights.hpp"

namespace weightspace::app {

// The weights file `weightspace episode --weights` reads and `weightspace parse --weights-out`
// writes: {"W1": [[32 numbers] x 600], "b1": [32 numbers], "W2": ..., "b2", "W3", "b3"}.
// A number converts as the grader converts a Python float literal: to the nearest double,
// then to the nearest float32. A tensor may instead be one string of 8-hex-digit float32 bit
// patterns in row-major order (the golden files' exact form). Errors name the file and the
// element (e.g. `w.json: W1[3]: expected 32 values, found 31`).
Weights read_weights_json(const std::string& text, const std::string& where);

// Writes every value as the shortest decimal that reads back to the same float32 through a
// double, so read_weights_json(write_weights_json(w)) == w bit for bit (-0.0 included).
std::string write_weights_json(const Weights& weights);

}  // namespace weightspace::app
