// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conform.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <set>
#include <sstream>

namespace weightspace {
namespace conform_detail {
namespace {

constexpr int kGridsPerBand = 6;
constexpr int kGridGap = 3;
constexpr std::size_t kListedCells = 40;

// The canonical synth layout (docs/adding-a-game.md): what each observation channel means.
constexpr std::array<const char*, kObservationChannels> kObservationNames = {
    "player", "hazards", "targets", "projectile", "trails", "gauges"};

std::string number_text(const nlohmann::json& value) { return value.dump(); }

std::vector<int> difference(const std::vector<int>& left, const std::vector<int>& right) {
  std::vector<int> out;
  std::set_difference(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(out));
  return out;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() > width) text.resize(width);
  text.append(width - text.size(), ' ');
  return text;
}

std::string trimmed(std::string text) {
  text.erase(text.find_last_not_of(' ') + 1);
  return text;
}

}  // namespace

std::string cells_text(const std::vector<int>& cells) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < cells.size() && i < kListedCells; ++i) out << (i ? "," : "") << cells[i];
  if (cells.size() > kListedCells) out << ",... (" << cells.size() << " cells)";
  out << ']';
  return out.str();
}

std::string draw_channel_grids(const std::vector<int>& expected, const std::vector<int>& actual,
                               int channels, const std::vector<std::string>& names) {
  const int cells = kGridSize * kGridSize * channels;
  auto mark = [cells](const std::vector<int>& list) {
    std::vector<bool> set(static_cast<std::size_t>(cells), false);
    for (int index : list) {
      if (index >= 0 && index < cells) set[static_cast<std::size_t>(index)] = true;
    }
    return set;
  };
  const std::vector<bool> want = mark(expected);
  const std::vector<bool> have = mark(actual);
  auto symbol = [&](int y, int x, int c) {
    const auto i = static_cast<std::size_t>((y * kGridSize + x) * channels + c);
    return want[i] ? (have[i] ? '#' : '+') : (have[i] ? '-' : '.');
  };
  const auto width = static_cast<std::size_t>(kGridSize + kGridGap);
  std::ostringstream out;
  out << "('#' both, '+' expected only, '-' actual only, '.' neither; '*' marks a differing channel)\n";
  for (int first = 0; first < channels; first += kGridsPerBand) {
    const int last = std::min(channels, first + kGridsPerBand);
    std::string title = "     ";
    std::string axis = "     ";
    for (int c = first; c < last; ++c) {
      bool differs = false;
      for (int y = 0; y < kGridSize; ++y) {
        for (int x = 0; x < kGridSize; ++x) differs = differs || symbol(y, x, c) == '+' || symbol(y, x, c) == '-';
      }
      const std::string name = c < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(c)] : "";
      title += padded((differs ? "*" : "") + std::to_string(c) + " " + name, width);
      axis += padded("0123456789", width);
    }
    out << trimmed(title) << '\n' << trimmed(axis) << '\n';
    for (int y = 0; y < kGridSize; ++y) {
      out << padded("  " + std::to_string(y), 5);
      for (int c = first; c < last; ++c) {
        std::string row;
        for (int x = 0; x < kGridSize; ++x) row += symbol(y, x, c);
        out << padded(row, c + 1 < last ? width : row.size());
      }
      out << '\n';
    }
  }
  std::vector<int> outside;
  for (int index : expected) {
    if (index < 0 || index >= cells) outside.push_back(index);
  }
  if (!outside.empty()) out << "expected cells outside the grid: " << cells_text(outside) << '\n';
  return out.str();
}

std::vector<std::string> channel_names(const nlohmann::json& trace, int channels) {
  std::vector<std::string> names;
  const auto found = trace.find("channel_names");
  if (found != trace.end() && found->is_array() && static_cast<int>(found->size()) == channels) {
    for (const auto& name : *found) names.push_back(name.is_string() ? name.get<std::string>() : name.dump());
    return names;
  }
  for (int c = 0; c < channels; ++c) names.push_back(std::to_string(c));
  return names;
}

std::vector<std::string> observation_channel_names() {
  return {kObservationNames.begin(), kObservationNames.end()};
}

std::vector<std::string> check_header(const nlohmann::json& trace, std::string_view name, int channels,
                                      const std::vector<unsigned>& masks, std::optional<double> score_cap) {
  std::vector<std::string> problems;
  const auto format = trace.at("format").get<std::string>();
  if (format != "minatar-golden/game") problems.push_back("format is '" + format + "', not minatar-golden/game");
  const auto game = trace.find("game");
  if (game != trace.end() && game->get<std::string>() != name) {
    problems.push_back("trace is of game '" + game->get<std::string>() + "', the port is '" +
                       std::string(name) + "'");
  }
  const int recorded_channels = trace.at("n_channels").get<int>();
  if (recorded_channels != channels) {
    problems.push_back("trace has " + std::to_string(recorded_channels) + " channels, the port " +
                       std::to_string(channels));
  }
  const auto& groups = trace.at("observation_channel_groups");
  if (groups.size() != static_cast<std::size_t>(kObservationChannels)) {
    problems.push_back("observation_channel_groups has " + std::to_string(groups.size()) + " entries, not 6");
  } else {
    std::vector<unsigned> recorded(static_cast<std::size_t>(channels), 0U);
    for (int output = 0; output < kObservationChannels; ++output) {
      for (const auto& source : groups[static_cast<std::size_t>(output)]) {
        const int channel = source.get<int>();
        if (channel >= 0 && channel < channels) recorded[static_cast<std::size_t>(channel)] |= 1U << output;
      }
    }
    for (int c = 0; c < channels; ++c) {
      if (recorded[static_cast<std::size_t>(c)] != masks[static_cast<std::size_t>(c)]) {
        problems.push_back("raw channel " + std::to_string(c) + " feeds observation mask " +
                           std::to_string(recorded[static_cast<std::size_t>(c)]) + " in the trace, " +
                           std::to_string(masks[static_cast<std::size_t>(c)]) + " in the port");
      }
    }
  }
  const auto cap = trace.find("score_cap");
  if (cap != trace.end() && score_cap && cap->get<double>() != *score_cap) {
    problems.push_back("score_cap is " + cap->dump() + " in the trace, " + nlohmann::json(*score_cap).dump() +
                       " in the registry");
  }
  return problems;
}

void compare_scalars(const nlohmann::json& step, int effective_action, int reward, bool terminal,
                     std::uint64_t rng_words, std::vector<FieldDifference>& out) {
  const auto& recorded_action = step.at(1);
  if (recorded_action.get<int>() != effective_action) {
    out.push_back({"effective action", number_text(recorded_action), std::to_string(effective_action), ""});
  }
  // Rewards may be Python ints or floats; an int reward equals a float one of the same value.
  const auto& recorded_reward = step.at(2);
  if (!recorded_reward.is_number() || recorded_reward.get<double>() != static_cast<double>(reward)) {
    out.push_back({"reward", number_text(recorded_reward), std::to_string(reward), ""});
  }
  const auto& recorded_terminal = step.at(3);
  const bool expected_terminal =
      recorded_terminal.is_boolean() ? recorded_terminal.get<bool>() : recorded_terminal.get<int>() != 0;
  if (expected_terminal != terminal) {
    out.push_back({"terminal", expected_terminal ? "1" : "0", terminal ? "1" : "0", ""});
  }
  const auto& recorded_words = step.at(4);
  if (recorded_words.get<std::uint64_t>() != rng_words) {
    out.push_back({"rng words", number_text(recorded_words), std::to_string(rng_words), ""});
  }
}

void compare_cells(const char* field, const std::vector<int>& expected, const std::vector<int>& actual,
                   int channels, const std::vector<std::string>& names, std::vector<FieldDifference>& out) {
  if (expected == actual) return;
  std::vector<int> sorted_expected = expected;
  std::sort(sorted_expected.begin(), sorted_expected.end());
  out.push_back({field, "only expected " + cells_text(difference(sorted_expected, actual)),
                 "only actual " + cells_text(difference(actual, sorted_expected)),
                 draw_channel_grids(sorted_expected, actual, channels, names)});
}

void check_episode_totals(const nlohmann::json& episode, std::vector<std::string>& problems) {
  const auto& steps = episode.at("steps");
  const auto length = episode.find("length");
  if (length != episode.end() && length->get<std::size_t>() != steps.size()) {
    problems.push_back("length " + length->dump() + " but " + std::to_string(steps.size()) + " steps");
  }
  const auto score = episode.find("score");
  if (score != episode.end()) {
    // Summed in step order in double, as Python sums floats; exact for int rewards.
    double total = 0.0;
    for (const auto& step : steps) total += step.at(2).get<double>();
    if (total != score->get<double>()) {
      problems.push_back("score " + score->dump() + " but the rewards sum to " + nlohmann::json(total).dump());
    }
  }
  const auto terminated = episode.find("terminated");
  if (terminated != episode.end() && !steps.empty()) {
    const auto& last = steps.back().at(3);
    const bool last_terminal = last.is_boolean() ? last.get<bool>() : last.get<int>() != 0;
    if (terminated->get<bool>() != last_terminal) problems.push_back("terminated disagrees with the last step");
  }
}

}  // namespace conform_detail

bool ConformReport::ok() const {
  return problems.empty() && !episodes.empty() &&
         std::all_of(episodes.begin(), episodes.end(), [](const auto& episode) { return episode.ok(); });
}

int ConformReport::episodes_ok() const {
  return static_cast<int>(std::count_if(episodes.begin(), episodes.end(), [](const auto& e) { return e.ok(); }));
}

std::string summary_line(const EpisodeConformance& episode) {
  std::ostringstream out;
  out << "episode " << episode.id << " (seed " << episode.env_seed << "): ";
  if (episode.divergence) {
    out << "DIVERGES at step " << episode.divergence->step << " (";
    for (std::size_t i = 0; i < episode.divergence->fields.size(); ++i) {
      out << (i ? ", " : "") << episode.divergence->fields[i].field;
    }
    out << ") after " << episode.matched_steps << " matching steps of " << episode.recorded_steps;
  } else if (!episode.problems.empty()) {
    out << "TRACE PROBLEM after " << episode.matched_steps << " matching steps";
  } else {
    out << "OK, " << episode.recorded_steps << " steps";
  }
  for (const auto& problem : episode.problems) out << "; " << problem;
  return out.str();
}

std::string describe_divergence(const EpisodeConformance& episode) {
  if (!episode.divergence) return {};
  std::ostringstream out;
  out << "episode " << episode.id << " (seed " << episode.env_seed << "), ";
  if (episode.divergence->step == 0) {
    out << "after seed() and reset():\n";
  } else {
    out << "step " << episode.divergence->step << ":\n";
  }
  bool state_differs = false;
  for (const auto& field : episode.divergence->fields) {
    state_differs = state_differs || field.field == "state";
    if (field.picture.empty()) {
      out << "  " << field.field << ": expected " << field.expected << ", actual " << field.actual << '\n';
    } else {
      out << "  " << field.field << ": " << field.expected << ", " << field.actual << '\n';
    }
  }
  // An observation difference follows from a state difference; its grids would repeat it.
  for (const auto& field : episode.divergence->fields) {
    if (field.picture.empty() || (state_differs && field.field == "observation")) continue;
    out << field.field << ":\n" << field.picture;
  }
  return out.str();
}

}  // namespace weightspace
