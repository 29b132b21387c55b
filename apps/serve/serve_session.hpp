// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <functional>

#include "apps/serve/http_server.hpp"

namespace weightspace::serve {

// `weightspace serve` from start to exit: binds, calls listening(port), serves until SIGTERM
// or SIGINT, then drains: stops accepting (/readyz answers 503), lets the requests in flight
// finish for up to `grace`, answers those still waiting 503, and returns. Throws
// std::runtime_error when it cannot listen.
void serve_until_signal(const ServerOptions& options, std::chrono::seconds grace,
                        const std::function<void(int port)>& listening);

}  // namespace weightspace::serve
