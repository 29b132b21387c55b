// SPDX-License-Identifier: GPL-3.0-or-later
// Grades an answer file through the installed public API and prints the reward.json text; the
// same answer through BatchGrader must give the same text (both public entry points link).
#include <weightspace/batch_grader.hpp>
#include <weightspace/grade.hpp>
#include <weightspace/reward.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: consumer GAME SOURCE EPISODES ANSWER_FILE\n";
    return 2;
  }
  std::ifstream file(argv[4], std::ios::binary);
  std::ostringstream answer;
  answer << file.rdbuf();
  weightspace::GradeRequest request;
  request.game = argv[1];
  request.source = argv[2];
  request.episodes = std::stoll(argv[3]);
  const std::string reward = weightspace::reward_json(weightspace::grade(request, answer.str()).reward);

  weightspace::BatchGrader grader(weightspace::BatchOptions{});
  std::optional<weightspace::BatchRecord> record(std::in_place);
  record->id = "consumer";
  record->request = request;
  record->text = answer.str();
  std::string batch_reward;
  grader.run([&] { return std::exchange(record, std::nullopt); },
             [&](weightspace::BatchResult&& result) { batch_reward = weightspace::reward_json(result.reward); });
  if (batch_reward != reward) {
    std::cerr << "BatchGrader gave " << batch_reward << "\n";
    return 1;
  }
  std::cout << reward << '\n';
  return 0;
}
