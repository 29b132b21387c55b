// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <signal.h>

#include <pthread.h>

#include <atomic>
#include <functional>

namespace weightspace::app {

// Ctrl-C (SIGINT) and SIGTERM while a command runs: while this lives, both are blocked in the
// threads started after it and a thread of its own waits for them, so that what `on_signal`
// does is not limited to what a signal handler may do (it ends the progress line and says
// what was written). Then the process ends by the signal's default action, as it did before
// (a shell reports 130 for Ctrl-C). Create it before the threads that do the work.
//
// The waiting thread is a bare pthread, not a std::thread: std::thread frees its start state on
// the new thread, and that first free made glibc give the thread a malloc arena of its own (a
// 128 MB reservation, two munmaps and an mprotect in every batch). This thread allocates
// nothing unless a signal arrives.
class SignalReport {
 public:
  explicit SignalReport(std::function<void(int signal)> on_signal);
  ~SignalReport();  // stops waiting; a signal that arrives later acts as usual
  SignalReport(const SignalReport&) = delete;
  SignalReport& operator=(const SignalReport&) = delete;

 private:
  static void* wait_for_signals(void* self);

  std::function<void(int)> on_signal_;
  sigset_t previous_;
  std::atomic<bool> stop_{false};
  pthread_t thread_;
};

}  // namespace weightspace::app
