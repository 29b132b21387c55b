// SPDX-License-Identifier: GPL-3.0-or-later
// apps/cli/interrupt: SignalReport's thread reports SIGINT and SIGTERM, and costs a process no
// malloc arena of its own (issue 36).
#include <gtest/gtest.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "apps/cli/interrupt.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define WEIGHTSPACE_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEIGHTSPACE_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef WEIGHTSPACE_TEST_UNDER_ASAN
#define WEIGHTSPACE_TEST_UNDER_ASAN 0
#endif

namespace weightspace::app {
namespace {

// The malloc arenas of this process, as malloc_info lists them (one <heap nr=...> each).
int malloc_arenas() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  const std::string xml(text, size);
  std::free(text);
  int arenas = 0;
  for (auto at = xml.find("<heap nr="); at != std::string::npos; at = xml.find("<heap nr=", at + 1)) ++arenas;
  return arenas;
}

// Each in a fresh process (a threadsafe death test runs its body in a new execution of this
// binary), where only the main arena exists. A std::thread, whose start state is freed on the
// new thread, shows that the probe sees a thread's arena; SignalReport's thread must add none.
TEST(SignalReportDeathTest, TheWaitingThreadTakesNoMallocArena) {
#if WEIGHTSPACE_TEST_UNDER_ASAN
  // AddressSanitizer's allocator replaces glibc's malloc: there are no glibc arenas to count.
  GTEST_SKIP() << "malloc is AddressSanitizer's here, not glibc's";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const int at_start = malloc_arenas();
        { const SignalReport report([](int) {}); }
        const int after_report = malloc_arenas();
        std::thread([] {}).join();
        const int after_thread = malloc_arenas();
        std::exit(at_start == 1 && after_report == 1 && after_thread == 2 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(SignalReportDeathTest, ReportsTheSignalThenEndsByIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const int signal : {SIGINT, SIGTERM}) {
    EXPECT_EXIT(
        {
          const SignalReport report([](int received) { std::fprintf(stderr, "report of signal %d\n", received); });
          kill(getpid(), signal);
          for (;;) pause();
        },
        ::testing::KilledBySignal(signal), "report of signal " + std::to_string(signal));
  }
}

// After the report ends, a signal acts as usual again.
TEST(SignalReportDeathTest, AfterItEndsASignalActsAsUsual) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        { const SignalReport report([](int) { std::fprintf(stderr, "reported\n"); }); }
        kill(getpid(), SIGTERM);
        for (;;) pause();
      },
      ::testing::KilledBySignal(SIGTERM), "^$");
}

}  // namespace
}  // namespace weightspace::app
