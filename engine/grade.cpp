// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/grade.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include <unistd.h>

#include "engine/numpy_mean.hpp"
#include "engine/scheduler.hpp"
#include "games/registry.hpp"
#include "parser/python/python_float.hpp"
#include "parser/utf8.hpp"

namespace weightspace {

namespace {

// Python's max(a, b) and min(a, b): the first argument wins unless the second compares
// greater (less), which keeps a NaN first argument.
double python_max(double a, double b) { return b > a ? b : a; }
double python_min(double a, double b) { return b < a ? b : a; }

Rollout failed_rollout(PythonError error) {
  Rollout rollout;
  rollout.error = std::move(error);
  return rollout;
}

Rollout failed_rollout(std::string kind, std::string message) {
  return failed_rollout(PythonError{std::move(kind), std::move(message)});
}

// A request past what this machine can hold: no score (the grader would still be playing),
// so the rollout says so, and the message names the limit and whose it is.
Rollout refused_rollout(const std::string& limit) {
  Rollout rollout = failed_rollout("MemoryError", "not graded, a limit of this machine (not of the answer): " + limit);
  rollout.refused = true;
  return rollout;
}

bool known_game(const GradeRequest& request) {
  return with_game(request.source, request.game, [](const auto&) {});
}

// repr() of a str the grader got from the environment or a command line: bytes that are not
// UTF-8 become lone surrogates, as os.environ's surrogateescape decoding makes them.
std::string python_repr_of_bytes_as_str(std::string_view bytes) {
  std::u32string text;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto problem = utf8::find_decode_problem(bytes.substr(done), utf8::Surrogates::Allow);
    const std::size_t valid_end = problem ? done + problem->position : bytes.size();
    for (auto offset = static_cast<std::uint32_t>(done); offset < valid_end;) {
      text.push_back(utf8::decode(bytes, offset));
    }
    if (!problem) break;
    for (std::size_t index = valid_end; index < valid_end + problem->length; ++index) {
      text.push_back(0xDC00 + static_cast<unsigned char>(bytes[index]));
    }
    done = valid_end + problem->length;
  }
  return python_repr_str(text);
}

// str() of importlib.import_module(package + "." + name)'s ModuleNotFoundError, where the
// package's modules are `modules` (none of them a package): the dotted name resolves part by
// part, and the first part that does not is named ("a.b" -> the package's "a"; "asterix.x" ->
// "asterix" is not a package).
std::string import_error(std::string_view package, std::string_view name,
                         const std::vector<std::string_view>& modules) {
  const std::size_t dot = name.find('.');
  const std::string module = std::string(package) + "." + std::string(name.substr(0, dot));
  const bool found = std::find(modules.begin(), modules.end(), name.substr(0, dot)) != modules.end();
  if (!found || dot == std::string_view::npos) return "No module named " + python_repr_of_bytes_as_str(module);
  const std::string below = module + "." + std::string(name.substr(dot + 1, name.find('.', dot + 1) - dot - 1));
  return "No module named " + python_repr_of_bytes_as_str(below) + "; " + python_repr_of_bytes_as_str(module) +
         " is not a package";
}

std::vector<std::string_view> game_names(std::string_view source) {
  std::vector<std::string_view> names;
  for (const GameInfo& game : registered_games()) {
    if (game.source == source) names.push_back(game.name);
  }
  return names;
}

// The modules of a game package: its games and its own `__init__`, which import_module also
// finds as a plain module (`__init__.x`: "'...__init__' is not a package").
std::vector<std::string_view> package_modules(std::string_view source) {
  std::vector<std::string_view> names = game_names(source);
  names.push_back("__init__");
  return names;
}

// What the grader raises for a game weightspace does not have: MinAtar's Environment (original)
// or verify.synth_environment_class imports the game's module by name.
PythonError import_game_error(const GradeRequest& request) {
  if (request.game == "__init__") {
    // The import succeeds: the package's __init__.py again, as a module with no game in it.
    // MinAtar's Environment then reads its `Env`, an AttributeError grade_answer does not
    // catch (the grader dies; weightspace reports it as a failed grade), and verify's synth
    // class check finds no `...Environment` class, a ValueError it does catch.
    if (request.source == "original") {
      return PythonError{"AttributeError", "module 'minatar.environments.__init__' has no attribute 'Env'"};
    }
    return PythonError{"ValueError", "expected one environment class for __init__, found 0"};
  }
  if (request.source == "original") {
    return PythonError{"ModuleNotFoundError",
                       import_error("minatar.environments", request.game, package_modules("original"))};
  }
  if (request.source != "synth" && with_game("synth", request.game, [](const auto&) {})) {
    // verify.py would play the synth game with the original observation; nothing weightspace has.
    return PythonError{"ModuleNotFoundError", "weightspace plays the synth games only with source 'synth', not " +
                                                  python_repr_of_bytes_as_str(request.source)};
  }
  return PythonError{"ModuleNotFoundError", import_error("minatar_synth.games", request.game, package_modules("synth"))};
}

// verify.score_cap for a game weightspace does not have; grade_answer gets there when
// evaluate played no episode (episodes <= 0) and so never built an environment.
PythonError score_cap_error(const GradeRequest& request) {
  if (request.source == "original") return PythonError{"KeyError", python_repr_of_bytes_as_str(request.game)};
  return import_game_error(request);
}

// verify.make_environment fails to import the game's module (caught by grade_answer).
Rollout unknown_game(const GradeRequest& request) {
  return failed_rollout(import_game_error(request));
}

// Half the physical memory, asked once (sysconf makes a system call; grades can be 50 µs).
std::size_t memory_for_results() {
  static const std::size_t bytes = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page_size);
  }();
  return bytes;
}

}  // namespace

Reward failed_reward(const GradeRequest& request, PythonError error) {
  Reward reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = BigInt(request.episodes);
  reward.error = std::move(error);
  return reward;
}

Rollout play(const Policy& policy, const GradeRequest& request, std::vector<EpisodeResult>& episodes) {
  episodes.clear();
  const bool known = known_game(request);
  // The grader builds the first episode's environment before anything else can fail.
  if (!known && request.episodes > 0) return unknown_game(request);
  if (request.episodes > kMaxEpisodes) {
    return failed_rollout("ValueError",
                          "episodes must be at most " + std::to_string(kMaxEpisodes) + " (numpy seeds are 32-bit)");
  }
  Rollout rollout;
  if (!known) {
    // verify.evaluate with no episode to play never builds an environment: NaN means.
    rollout.played = true;
    rollout.raw_score = rollout.mean_episode_length = numpy_mean({});
    return rollout;
  }
  const std::size_t count = request.episodes > 0 ? static_cast<std::size_t>(request.episodes) : 0;
  // Each episode's score and length are kept until the mean, which numpy sums pairwise over
  // all of them; past half the machine's memory that would end in the OOM killer, not an error.
  const std::size_t held = memory_for_results() / sizeof(EpisodeResult);
  if (count > held) {
    return refused_rollout(std::to_string(count) + " episodes: weightspace holds every episode's result until the "
                           "mean, and half this machine's memory has room for " + std::to_string(held));
  }
  try {
    episodes.resize(count);
  } catch (const std::bad_alloc&) {
    return refused_rollout("no memory for the results of " + std::to_string(count) + " episodes");
  }
  try {
    with_game(request.source, request.game, [&](const auto& entry) {  // known: checked above
      rollout.score_cap = entry.score_cap;
      run_episodes<typename std::remove_cvref_t<decltype(entry)>::type>(policy, episodes, request.run);
    });
  } catch (const GameError& error) {
    // MinAtar itself would raise here and the Python grader would crash.
    episodes.clear();
    return failed_rollout(error.error());
  }
  if (request.run.cancel != nullptr && request.run.cancel->load()) {
    episodes.clear();
    return failed_rollout("KeyboardInterrupt", "interrupted before all episodes were played");
  }
  std::vector<double> scores(count), lengths(count);
  for (std::size_t i = 0; i < count; ++i) {
    scores[i] = episodes[i].score;
    lengths[i] = static_cast<double>(episodes[i].length);
    rollout.steps += episodes[i].length;
  }
  rollout.played = true;
  rollout.raw_score = numpy_mean(scores);
  rollout.mean_episode_length = numpy_mean(lengths);
  return rollout;
}

Rollout play(const Weights& weights, const GradeRequest& request, std::vector<EpisodeResult>& episodes) {
  return play(Policy(weights), request, episodes);
}

Reward make_reward(const GradeRequest& request, const ParsedAnswer& parsed, const Rollout& rollout) {
  if (!parsed.success) return failed_reward(request, parsed.error->error());
  if (!rollout.played) return failed_reward(request, *rollout.error);
  if (!known_game(request)) return failed_reward(request, score_cap_error(request));
  Reward reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = BigInt(request.episodes);
  reward.parse_success = true;
  reward.raw_score = rollout.raw_score;
  reward.mean_episode_length = rollout.mean_episode_length;
  reward.score_cap = rollout.score_cap;
  reward.normalized_score = python_min(python_max(reward.raw_score, 0.0), rollout.score_cap) / rollout.score_cap;
  reward.edit_count = parsed.edit_count;
  reward.nonzero_weights = parsed.nonzero_weights;
  return reward;
}

Grade grade(const GradeRequest& request, std::string_view answer) {
  Grade result;
  const ParsedAnswer parsed = parse_answer(answer);
  const Rollout rollout = parsed.success ? play(parsed.weights, request, result.episodes) : Rollout{};
  result.reward = make_reward(request, parsed, rollout);
  result.refused = rollout.refused;
  return result;
}

std::int64_t count_ambiguous_episodes(const std::vector<EpisodeResult>& episodes) {
  std::int64_t count = 0;
  for (const EpisodeResult& episode : episodes) count += episode.min_margin < kAmbiguousMargin ? 1 : 0;
  return count;
}

}  // namespace weightspace
