// SPDX-License-Identifier: GPL-3.0-or-later
// Batch output lines read back (batch --resume, merge, compare): what fuzz/fuzz_batch_line found.
#include <gtest/gtest.h>

#include <string>

#include "apps/batch/batch_output.hpp"
#include "apps/version.hpp"

namespace weightspace::app {
namespace {

// A failed record's line as `weightspace batch` writes it, with `seconds` as given.
std::string line_with_seconds(const std::string& seconds) {
  return std::string(R"({"id": "missing.md", "input": "missing.md", "game": "breakout", "source": "original", )") +
         R"("episodes": 2, "reward": {"normalized_score": 0.0, "game": "breakout", "source": "original", )" +
         R"("episodes": 2, "parse_success": 0.0, "error": "cannot read missing.md: No such file or directory"}, )" +
         R"("weights_sha256": null, "error_kind": "OSError", "error_line": null, "error_column": null, )" +
         R"("cached": false, "weightspace_version": ")" + kVersion + R"(", "seconds": )" + seconds +
         R"(, "steps": 0})";
}

TEST(BatchLine, ALineReadBackIsWrittenAgainAsItWas) {
  bool timings = false;
  const std::string line = line_with_seconds("0.000002");
  const BatchResult result = parse_batch_line(line, timings);  // sets timings: before batch_line reads it
  EXPECT_EQ(batch_line(result, timings), line);
  EXPECT_TRUE(timings);
}

TEST(BatchLine, HugeSecondsAreWrittenWhole) {
  // The fuzzer's input: 1e161 seconds came back as its first 31 characters, another number,
  // so merge's and resume's copy of the line was not the line.
  bool timings = false;
  const BatchResult result = parse_batch_line(line_with_seconds("0.1e+162"), timings);
  const std::string written = batch_line(result, timings);
  bool again_timings = false;
  const BatchResult again = parse_batch_line(written, again_timings);
  EXPECT_EQ(again.seconds, 1e161);
  EXPECT_EQ(batch_line(again, again_timings), written);
  // 162 digits (the double nearest 1e161 written out), the point and six decimals.
  const std::size_t start = written.find("\"seconds\": ") + std::string("\"seconds\": ").size();
  EXPECT_EQ(written.find(',', start) - start, 162u + 7u);
}

TEST(BatchLine, SecondsThatNoRunTakesAreRefused) {
  for (const char* seconds : {"NaN", "Infinity", "-Infinity", "-1.5"}) {
    bool timings = false;
    try {
      parse_batch_line(line_with_seconds(seconds), timings);
      ADD_FAILURE() << seconds << " was read";
    } catch (const EditError& error) {
      EXPECT_STREQ(error.what(), "\"seconds\" is not a number of seconds") << seconds;
    }
  }
}

}  // namespace
}  // namespace weightspace::app
