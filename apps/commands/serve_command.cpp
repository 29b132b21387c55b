// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace serve`: grading as an HTTP reward service (apps/serve/, docs/serving.md).

#include <CLI/CLI.hpp>

#include <string>

#include "apps/cli/errors.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/commands/commands.hpp"
#include "apps/commands/serve_run.hpp"

namespace weightspace::app {

namespace {

// The token is the file's first line; a file without one is a mistake, not "no token".
std::string read_token(const std::string& path) {
  std::string token = read_input(path, 4096);
  token = token.substr(0, token.find_first_of("\r\n"));
  if (token.empty()) throw UsageError("--token-file " + path + " holds no token on its first line");
  return token;
}

}  // namespace

void add_serve_command(CLI::App& app) {
  struct Options {
    serve::ServerOptions server;
    std::string token_file;
    std::string episodes = "1000";
    int deadline_seconds = 170;
    int grace_seconds = 30;
  };
  auto options = std::make_shared<Options>();
  serve::ServerOptions& server = options->server;
  auto* command = app.add_subcommand("serve", "Grade over HTTP: an online reward service (docs/serving.md)");
  command->add_option("--host", server.host, "Address to listen on (127.0.0.1: this machine only)");
  command->add_option("--port", server.port, "TCP port (0: any free port, printed at start)")
      ->check(CLI::Range(0, 65535));
  command->add_option("--threads", server.service.threads, "Grading threads, one arena for all requests (0 = all cores)")
      ->check(CLI::Range(0, kMaxThreads));
  command->add_option("--queue", server.service.queue,
                      "Records waiting for the engine at most; beyond it requests get 503 + Retry-After")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  command->add_option("--max-request-bytes", server.max_request_bytes,
                      "Largest request body (bytes, or 16MiB); larger ones get 413 unread")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 32));
  command->add_option("--max-records", server.defaults.max_records, "Records (or queries) in one request at most")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  command->add_option("--max-episodes", server.defaults.max_episodes, "Episodes one record may ask for at most")
      ->check(CLI::Range(std::int64_t{0}, kMaxEpisodes));
  command->add_option("--token-file", options->token_file,
                      "Require 'Authorization: Bearer <the file's first line>' (all but /healthz, /readyz)");
  command->add_option("--game", server.defaults.game, "Game of records and labels that name none");
  command->add_option("--source", server.defaults.source, "Source of records that name none")
      ->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--episodes", options->episodes, "Episodes of records that name none (default 1000)");
  command->add_option("--deadline", options->deadline_seconds, "Seconds a request may take before it gets 504")
      ->check(CLI::Range(1, 86400));
  command->add_option("--connections", server.connections, "Connections served at once (worker threads)")
      ->check(CLI::Range(1, 4096));
  command->add_option("--grace", options->grace_seconds,
                      "Seconds SIGTERM waits for requests in flight before answering them 503")
      ->check(CLI::Range(0, 3600));
  command->callback([options] {
    serve::ServerOptions& chosen = options->server;
    chosen.defaults.episodes = parse_episodes("--episodes", options->episodes);
    if (chosen.defaults.episodes > chosen.defaults.max_episodes) {
      throw UsageError("--episodes " + options->episodes + " is more than --max-episodes " +
                       std::to_string(chosen.defaults.max_episodes));
    }
    if (!options->token_file.empty()) chosen.token = read_token(options->token_file);
    chosen.deadline = std::chrono::seconds(options->deadline_seconds);
    run_serve(chosen, std::chrono::seconds(options->grace_seconds));
  });
}

}  // namespace weightspace::app
