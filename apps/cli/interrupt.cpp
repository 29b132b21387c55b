// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/interrupt.hpp"

#include <pthread.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <system_error>

namespace weightspace::app {

namespace {

// The destructor wakes the waiting thread with this signal, sent to that thread alone, so that
// a finished command does not wait for a polling period to pass (a timed wait cost every batch
// 0.1 s at exit).
int wake_signal() { return SIGRTMIN; }

sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, wake_signal());
  return set;
}

}  // namespace

SignalReport::SignalReport(std::function<void(int signal)> on_signal) : on_signal_(std::move(on_signal)) {
  const sigset_t set = watched();
  pthread_sigmask(SIG_BLOCK, &set, &previous_);
  if (const int error = pthread_create(&thread_, nullptr, &SignalReport::wait_for_signals, this); error != 0) {
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    throw std::system_error(error, std::generic_category(), "cannot start the thread that waits for signals");
  }
}

void* SignalReport::wait_for_signals(void* self) {
  auto& report = *static_cast<SignalReport*>(self);
  const sigset_t set = watched();
  for (;;) {
    const int signal = sigwaitinfo(&set, nullptr);
    if (signal <= 0) continue;  // EINTR
    if (signal == wake_signal()) {
      if (report.stop_.load()) return nullptr;
      continue;
    }
    // A second signal while the report is written ends the process at once, as usual.
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    sigset_t ending;  // not the wake signal, whose default action would end the process too
    sigemptyset(&ending);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &ending, nullptr);
    report.on_signal_(signal);
    std::raise(signal);
    std::_Exit(128 + signal);  // not reached: the default action of both signals ends the process
  }
}

SignalReport::~SignalReport() {
  stop_.store(true);
  pthread_kill(thread_, wake_signal());
  pthread_join(thread_, nullptr);
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace weightspace::app
