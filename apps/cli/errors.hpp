// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>

namespace weightspace::app {

// A failure the CLI reports as one line and a non-zero exit status.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mistake in how the command was called: exit status 2, like CLI11's own parse errors.
class UsageError : public CommandError {
 public:
  using CommandError::CommandError;
};

}  // namespace weightspace::app
