// SPDX-License-Identifier: GPL-3.0-or-later
// apps/cli/: the command-line checks made before CLI11 parses, --game lists, counts in words
// and the progress line (issue 32).
#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/cli/command_line.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/cli/plural.hpp"
#include "apps/cli/progress.hpp"

namespace weightspace::app {
namespace {

CLI::App& grade_like(CLI::App& app) {
  auto* command = app.add_subcommand("grade", "");
  static int threads = 0;
  static std::vector<std::string> games;
  static std::string answer;
  command->add_option("--threads", threads, "");
  command->add_option("--game", games, "")->delimiter(',');
  command->add_option("ANSWER", answer, "");
  return *command;
}

TEST(UnknownOption, NamesTheNearestOption) {
  CLI::App app;
  const CLI::App& grade = grade_like(app);
  const auto message = unknown_option(grade, {"--thread", "2"});
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("unknown option '--thread' for `weightspace grade`"), std::string::npos) << *message;
  EXPECT_NE(message->find("did you mean '--threads'"), std::string::npos) << *message;
  EXPECT_TRUE(unknown_option(grade, {"--bogus=3"})->starts_with("unknown option '--bogus'"));
}

TEST(UnknownOption, AcceptsOptionsValuesStdinAndNumbers) {
  CLI::App app;
  const CLI::App& grade = grade_like(app);
  EXPECT_FALSE(unknown_option(grade, {"--threads=2", "--game", "breakout", "-", "-1", "--help", "-h"}));
  EXPECT_FALSE(unknown_option(grade, {"--", "--not-an-option"}));  // after --, only operands
}

TEST(UnknownOption, ShortOptionSuggestsTheLongOneOfItsLetter) {
  CLI::App app;
  app.set_version_flag("--version", "1");
  const auto message = unknown_option(app, {"-v"});
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("did you mean '--version'"), std::string::npos) << *message;
}

TEST(OneValuePerFlag, ListOptionsLeaveTheOperands) {
  CLI::App app;
  CLI::App& grade = grade_like(app);
  std::vector<std::string> games;
  std::string answer;
  auto* command = app.add_subcommand("batch", "");
  command->add_option("--game", games, "")->delimiter(',');
  command->add_option("answer", answer, "");
  one_value_per_flag(app);
  (void)grade;
  app.parse(std::vector<std::string>{"x.md", "a,b", "--game", "batch"});  // CLI11 reads the vector backwards
  EXPECT_EQ(games, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(answer, "x.md");
}

TEST(CommandTable, ListsEveryCommand) {
  CLI::App app;
  app.add_subcommand("grade", "Grade one answer");
  app.add_subcommand("batch", "Grade many");
  EXPECT_EQ(command_list(app), "grade, batch");
  EXPECT_EQ(command_table(app), "  grade  Grade one answer\n  batch  Grade many\n");
}

TEST(FlagGames, TrimsExpandsAllAndRefusesUnknownNames) {
  EXPECT_EQ(flag_games({"breakout", " freeway"}, "original"), (std::vector<std::string>{"breakout", "freeway"}));
  const std::vector<std::string> all = flag_games({"all"}, "original");
  EXPECT_GE(all.size(), 5u);
  EXPECT_NE(std::find(all.begin(), all.end(), "space_invaders"), all.end());
  try {
    flag_games({"brekout"}, "original");
    FAIL() << "no UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("did you mean 'breakout'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(flag_games({"breakout", " "}, "original"), UsageError);
}

TEST(MemoUses, EveryNameMapsBackAndAnotherIsRefused) {
  const std::vector<std::string> names = memo_names();
  ASSERT_EQ(names.size(), kMemoUses.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(memo_use(names[i]), kMemoUses[i].second) << names[i];
    EXPECT_EQ(memo_name(kMemoUses[i].second), names[i]);
  }
  EXPECT_EQ(memo_use("auto"), PolicyMemoUse::automatic);
  EXPECT_EQ(memo_use("hits"), PolicyMemoUse::hit_rate);
  EXPECT_EQ(memo_use("always"), PolicyMemoUse::always);
  EXPECT_EQ(memo_use("never"), PolicyMemoUse::never);
  EXPECT_THROW(memo_use("Auto"), std::invalid_argument);
  EXPECT_THROW(memo_use(""), std::invalid_argument);
  EXPECT_EQ(counted_memo("auto"), "hits");
  EXPECT_EQ(counted_memo("never"), "never");
}

TEST(Plural, CountsInWords) {
  EXPECT_EQ(count_of(1, "record"), "1 record");
  EXPECT_EQ(count_of(0, "record"), "0 records");
  EXPECT_EQ(count_of(2, "thread"), "2 threads");
}

BatchResult result() {
  BatchResult done;
  done.reward.parse_success = true;
  done.steps = 10;
  return done;
}

TEST(ProgressLine, UnknownTotalShowsTheCountAlone) {
  BatchProgress progress(BatchProgress::Mode::Off);  // standard input: no total yet
  progress.record(result());
  EXPECT_TRUE(progress.line().starts_with("1 record, ")) << progress.line();
  progress.record(result());
  EXPECT_TRUE(progress.line().starts_with("2 records, ")) << progress.line();
  progress.add_total(5);  // a manifest counted so far
  EXPECT_TRUE(progress.line().starts_with("2/5+ records, ")) << progress.line();
  progress.total_complete();
  EXPECT_TRUE(progress.line().starts_with("2/5 records, ")) << progress.line();
}

}  // namespace
}  // namespace weightspace::app
