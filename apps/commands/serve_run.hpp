// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

#include "apps/serve/http_server.hpp"

namespace weightspace::app {

// What `serve` does once its options are read and checked (serve_command.cpp). Two
// definitions, one per executable: in weightspace it hands the command line over to the
// weightspace-serve executable (serve_handoff.cpp: exec, so the process and its pid stay the
// same); in weightspace-serve it serves until SIGTERM or SIGINT (serve_run.cpp).
void run_serve(const serve::ServerOptions& options, std::chrono::seconds grace);

}  // namespace weightspace::app
