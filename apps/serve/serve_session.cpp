// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/serve_session.hpp"

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace weightspace::serve {

namespace {

// Blocks SIGTERM and SIGINT in this thread and so in every thread started from it (the
// server's workers, the engine's, oneTBB's): one thread waits for them with sigwait, so no
// handler runs at an arbitrary point of a grade. The old mask comes back on destruction.
class BlockedSignals {
 public:
  BlockedSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  }
  ~BlockedSignals() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

  const sigset_t& set() const { return set_; }

 private:
  sigset_t set_{};
  sigset_t previous_{};
};

}  // namespace

void serve_until_signal(const ServerOptions& options, std::chrono::seconds grace,
                        const std::function<void(int port)>& listening) {
  const BlockedSignals signals;
  Server server(options);
  const int port = server.bind();
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals.set(), &signal);
    server.stop();
    std::unique_lock lock(mutex);
    if (!finished.wait_for(lock, grace, [&] { return done; })) server.cancel_all();
  });
  listening(port);
  server.run();
  {
    const std::lock_guard lock(mutex);
    done = true;
  }
  finished.notify_all();
  // run() also returns when listening fails: the waiter still waits for a signal.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
}

}  // namespace weightspace::serve
