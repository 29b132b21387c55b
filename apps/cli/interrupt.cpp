// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/interrupt.hpp"

#include <pthread.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>

namespace weightspace::app {

namespace {

sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

SignalReport::SignalReport(std::function<void(int signal)> on_signal) : on_signal_(std::move(on_signal)) {
  const sigset_t set = watched();
  pthread_sigmask(SIG_BLOCK, &set, &previous_);
  thread_ = std::thread([this, set] {
    // Woken ten times a second to see whether the command ended: sigtimedwait bounds the wait.
    const timespec period{0, 100'000'000};
    while (!stop_.load()) {
      const int signal = sigtimedwait(&set, nullptr, &period);
      if (signal <= 0) continue;  // EAGAIN (the period passed) or EINTR
      // A second signal while the report is written ends the process at once, as usual.
      std::signal(SIGINT, SIG_DFL);
      std::signal(SIGTERM, SIG_DFL);
      pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
      on_signal_(signal);
      std::raise(signal);
      std::_Exit(128 + signal);  // not reached: the default action of both signals ends the process
    }
  });
}

SignalReport::~SignalReport() {
  stop_.store(true);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace weightspace::app
