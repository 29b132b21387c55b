// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/grade_options.hpp"

#include <CLI/CLI.hpp>
#include <oneapi/tbb/info.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "apps/cli/files.hpp"
#include "apps/cli/plural.hpp"
#include "apps/cli/suggest.hpp"
#include "parser/fence.hpp"
#include "games/registry.hpp"
#include "parser/python/python_float.hpp"
#include "parser/utf8.hpp"
#include "engine/python_json.hpp"

namespace weightspace::app {

BigInt parse_python_int(const std::string& name, const std::string& text) {
  if (utf8::find_decode_problem(text, utf8::Surrogates::Reject)) throw UsageError(name + " is not UTF-8 text");
  PyValue value;
  value.kind = PyValue::Kind::Str;
  for (std::uint32_t offset = 0; offset < text.size();) value.mutable_text().push_back(utf8::decode(text, offset));
  try {
    return python_int(value);
  } catch (const EditError& error) {
    throw UsageError(name + ": " + error.what());
  }
}

std::int64_t parse_episodes(const std::string& name, const std::string& text) {
  const std::optional<std::int64_t> episodes = parse_python_int(name, text).to_int64();
  if (!episodes || *episodes < 0 || *episodes > kMaxEpisodes) {
    throw UsageError(name + " must be from 0 to " + std::to_string(kMaxEpisodes) + ", got '" + text + "'");
  }
  return *episodes;
}

int usable_threads(int requested, std::string& note) {
  // Asking oneTBB sets it up (a search of the library path for OpenMP's runtime among other
  // things), which a one-thread process otherwise never does; every machine runs one thread.
  if (requested <= 1) return requested;
  const int cores = tbb::info::default_concurrency();
  if (requested <= cores) return requested;
  note = "--threads " + std::to_string(requested) + ": this machine runs " + count_of(cores, "thread") +
         " at once; using " + std::to_string(cores) + " (a result never depends on it)";
  return cores;
}

void RunFlags::add_options(CLI::App& command) {
  command.add_option("--threads", threads, "Worker threads (0 = all cores); never changes the result")
      ->check(CLI::Range(0, kMaxThreads));
  command.add_option("--lockstep,--batch", lockstep,
                     "Episodes stepped in lockstep per thread (--batch: its older name); never changes the result")
      ->check(CLI::Range(1, 4096));
  command.add_option("--episodes-out", episodes_out, "Write one JSON line per episode: index, score, length");
  command.add_flag("--diagnostics", diagnostics,
                   "Report on stderr how many episodes had an action draw within 1e-6 of a cdf edge");
}

namespace {

std::vector<std::string> game_names(const std::string& source) {
  std::vector<std::string> names;
  for (const GameInfo& game : registered_games()) {
    if (game.source == source) names.emplace_back(game.name);
  }
  return names;
}

}  // namespace

std::vector<std::string> flag_games(const std::vector<std::string>& given, const std::string& source) {
  const std::vector<std::string> names = game_names(source);
  std::vector<std::string> games;
  for (const std::string& text : given) {
    const std::size_t begin = text.find_first_not_of(" \t");
    const std::string game =
        begin == std::string::npos ? "" : text.substr(begin, text.find_last_not_of(" \t") + 1 - begin);
    if (game == "all") {
      games.insert(games.end(), names.begin(), names.end());
    } else if (std::find(names.begin(), names.end(), game) != names.end()) {
      games.push_back(game);
    } else if (game.empty()) {
      throw UsageError("--game: an empty game name (give names separated by commas, or all)");
    } else {
      std::string list;
      for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
      throw UsageError("--game: no game '" + game + "' in source " + source + did_you_mean(game, names) +
                       "; the games are " + list + " (or all)");
    }
  }
  return games;
}

void warn_if_unknown_game(const GradeRequest& request) {
  if (with_game(request.source, request.game, [](const auto&) {})) return;
  const std::vector<std::string> names = game_names(request.source);
  spdlog::warn("unknown game '{}' for source {}{}; the reward is a failed grade", request.game, request.source,
               did_you_mean(request.game, names));
}

std::string error_place_line(const std::string& file, std::string_view answer, const PythonError& error) {
  std::string text = file == "-" ? "<stdin>" : file;
  if (error.has_place()) {
    // The parser's line counts from the edits block's first line, which starts a line of the
    // answer: add the answer's lines before it.
    std::int64_t line = error.line;
    const std::optional<std::string_view> block = last_edits_block(answer);
    if (block && block->data() >= answer.data() && block->data() <= answer.data() + answer.size()) {
      const auto before = answer.substr(0, static_cast<std::size_t>(block->data() - answer.data()));
      line += std::count(before.begin(), before.end(), '\n');
    }
    text += ":" + std::to_string(line) + ":" + std::to_string(error.column);
  }
  return text + ": " + error.kind + ": " + error.message;
}

Grade grade_and_report(GradeRequest request, const std::string& answer, const RunFlags& flags) {
  std::string note;
  request.run.threads = usable_threads(flags.threads, note);
  if (!note.empty()) spdlog::warn("{}", note);
  request.run.lockstep = flags.lockstep;
  request.run.track_margins = flags.diagnostics;
  const auto start = std::chrono::steady_clock::now();
  Grade result = grade(request, answer);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!flags.episodes_out.empty()) {
    std::string lines;
    for (std::size_t i = 0; i < result.episodes.size(); ++i) {
      lines += "{\"index\":" + std::to_string(i) + ",\"score\":" + python_json_float(result.episodes[i].score) +
               ",\"length\":" + std::to_string(result.episodes[i].length) + "}\n";
    }
    write_file(flags.episodes_out, lines);
  }
  if (flags.diagnostics) {
    std::int64_t steps = 0;
    for (const EpisodeResult& episode : result.episodes) steps += episode.length;
    if (!result.reward.parse_success) {
      spdlog::info("answer rejected ({}): {}", result.reward.error->kind, result.reward.error->message);
    } else {
      spdlog::info("{} episodes, {} steps in {:.3f} s ({:.1f} M steps/s)", result.episodes.size(), steps, seconds,
                   seconds > 0 ? static_cast<double>(steps) / seconds / 1e6 : 0.0);
      spdlog::info("numerically ambiguous episodes (a draw within {:g} of a cdf edge): {} of {}", kAmbiguousMargin,
                   count_ambiguous_episodes(result.episodes), result.episodes.size());
    }
  }
  return result;
}

}  // namespace weightspace::app
