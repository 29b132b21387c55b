// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/instruction_count.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "apps/cli/errors.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/memo_uses.hpp"

extern char** environ;

namespace weightspace::app {

namespace {

// A private folder under the temporary directory, removed with everything in it at scope exit.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "weightspace-instructions-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw CommandError("cannot create a temporary folder in " + pattern);
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The workload as a batch manifest whose lines point to files holding each record's text as
// read, so the child grades exactly the bytes the sweep graded. Scratch files of a temporary
// folder: a crash loses them with it, so none is synced.
std::string write_manifest(const std::filesystem::path& folder, const std::vector<BatchRecord>& workload) {
  std::string manifest;
  for (std::size_t i = 0; i < workload.size(); ++i) {
    const BatchRecord& record = workload[i];
    const bool trajectory = record.content == BatchRecord::Content::Trajectory;
    const std::string file = std::to_string(i) + (trajectory ? ".json" : ".txt");
    write_file(folder / file, record.text, Durability::deferred);
    nlohmann::json line = {{"id", i},
                           {trajectory ? "trajectory_path" : "answer_path", file},
                           {"game", record.request.game},
                           {"source", record.request.source},
                           {"episodes", record.request.episodes}};
    manifest += line.dump() + "\n";
  }
  const std::filesystem::path path = folder / "workload.jsonl";
  write_file(path, manifest, Durability::deferred);
  return path.string();
}

// Runs `arguments` (PATH searched), stdout to /dev/null and stderr to `log`; its wait status, or
// nullopt when cancelled (the child killed and reaped).
std::optional<int> run_child(const std::vector<std::string>& arguments, const std::string& log,
                             const std::atomic<bool>& cancel) {
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t child = 0;
  const int error = ::posix_spawnp(&child, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw CommandError("cannot run " + arguments[0] + " to count instructions (" + std::strerror(error) +
                       "): install Debian's valgrind, or remove [speed] instructions");
  }
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (cancel.load()) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return status;
}

std::optional<std::int64_t> count_in(const TemporaryFolder& folder, const std::vector<std::string>& command,
                                     const std::atomic<bool>& cancel) {
  const std::string out = (folder.path() / "callgrind.out").string();
  const std::string log = (folder.path() / "stderr.txt").string();
  std::vector<std::string> arguments = {"valgrind", "--tool=callgrind", "--callgrind-out-file=" + out};
  arguments.insert(arguments.end(), command.begin(), command.end());
  const std::optional<int> status = run_child(arguments, log, cancel);
  if (!status) return std::nullopt;
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    std::string said = read_input(log);
    if (said.size() > 2000) said = "..." + said.substr(said.size() - 2000);
    throw CommandError("counting instructions under valgrind failed (a sanitized build does not run under "
                       "valgrind): " + said);
  }
  const std::optional<std::int64_t> total = callgrind_total("\n" + read_input(out));
  if (!total) throw CommandError("callgrind's output " + out + " has no summary line");
  return total;
}

}  // namespace

std::optional<std::int64_t> callgrind_total(const std::string& text) {
  for (const char* key : {"\nsummary:", "\ntotals:"}) {
    const std::size_t at = text.find(key);
    if (at == std::string::npos) continue;
    const char* start = text.c_str() + at + std::strlen(key);
    char* end = nullptr;
    const long long value = std::strtoll(start, &end, 10);
    if (end != start) return static_cast<std::int64_t>(value);
  }
  return std::nullopt;
}

std::optional<std::int64_t> count_command_instructions(
    const std::function<std::vector<std::string>(const std::filesystem::path& folder)>& make_command,
    const std::atomic<bool>& cancel) {
  const TemporaryFolder folder;
  return count_in(folder, make_command(folder.path()), cancel);
}

std::string this_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::optional<std::int64_t> count_instructions(const std::string& executable, const std::vector<BatchRecord>& workload,
                                               int lockstep, const std::atomic<bool>& cancel) {
  const TemporaryFolder folder;
  const std::string manifest = write_manifest(folder.path(), workload);
  return count_in(folder,
                  {executable, "batch", manifest, "--threads", "1", "--cache", "0", "--memo", counted_memo("auto"),
                   "--lockstep", std::to_string(lockstep), "--quiet", "--no-timings", "--out", "/dev/null"},
                  cancel);
}

}  // namespace weightspace::app
