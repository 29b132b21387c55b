// SPDX-License-Identifier: GPL-3.0-or-later
// `serve` in weightspace-serve: the server itself (apps/serve/).
#include "apps/commands/serve_run.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "apps/cli/errors.hpp"
#include "apps/serve/serve_session.hpp"

namespace weightspace::app {

void run_serve(const serve::ServerOptions& options, std::chrono::seconds grace) {
  try {
    serve::serve_until_signal(options, grace, [&](int port) {
      spdlog::info("serving on http://{}:{}{}", options.host, port, options.token.empty() ? "" : " (bearer token)");
    });
  } catch (const std::runtime_error& error) {
    throw CommandError(error.what());
  }
  spdlog::info("stopped: every request in flight was answered");
}

}  // namespace weightspace::app
