// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weightspace serve`'s HTTP side (cpp-httplib, docs/serving.md says why): the routes, bearer
// tokens, body limits, per-request deadlines and client-disconnect cancellation, over one
// GradingService. Network I/O only: nothing is printed or logged here.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "apps/serve/grading_service.hpp"
#include "apps/serve/metrics.hpp"
#include "apps/serve/serve_request.hpp"

namespace weightspace::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8000;                                   // 0: any free port (bind() says which)
  std::size_t max_request_bytes = 16 * 1024 * 1024;  // bodies above it get 413 unread
  std::string token;                                 // empty: no bearer token asked for
  std::chrono::milliseconds deadline{170000};        // a request's answer, at the latest
  int connections = 128;                             // connections served at once
  RecordDefaults defaults;
  ServiceOptions service;
};

class Server {
 public:
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listening socket; returns its port. Throws std::runtime_error when it cannot.
  int bind();
  // Serves until stop(); returns once the requests in flight are answered.
  void run();
  // Stops accepting connections and answering new requests (/readyz turns 503); the requests
  // in flight go on. Safe from any thread.
  void stop();
  // The drain's grace period is over: the requests still waiting are answered 503 now.
  void cancel_all();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace weightspace::serve
