// SPDX-License-Identifier: GPL-3.0-or-later
// Grades an answer file through the installed public API and prints the reward.json text.
#include <engine/grade.hpp>
#include <engine/reward.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

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
  std::cout << weightspace::reward_json(weightspace::grade(request, answer.str()).reward) << '\n';
  return 0;
}
