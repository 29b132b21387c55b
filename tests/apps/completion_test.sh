#!/usr/bin/env bash
# apps/weightspace.bash completes the binary's subcommands and each subcommand's options.
# usage: completion_test.sh COMPLETION_SCRIPT WEIGHTSPACE_BINARY
set -euo pipefail
source "$1"
PATH=$(dirname "$2"):$PATH
complete_words() {  # the words typed so far, the last one being completed
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _weightspace
  echo "${COMPREPLY[*]}"
}
check() {
  [[ $1 == "$2" ]] || { echo "completing gave '$1', expected '$2'" >&2; exit 1; }
}
check "$(complete_words weightspace gr)" "grade"
check "$(complete_words weightspace ba)" "batch"
check "$(complete_words weightspace batch --re)" "--resume --rewards-dir"
check "$(complete_words weightspace grade --game breakout --epi)" "--episodes --episodes-out"
check "$(complete_words weightspace batch --lo)" "--lockstep"
check "$(complete_words weightspace he)" "help"
check "$(complete_words weightspace help gr)" "grade"
# Values (issue 32): games, a fixed set from --help, run ids of the database on the line.
check "$(complete_words weightspace grade --game bre)" "breakout"
check "$(complete_words weightspace batch --game al)" "all"
check "$(complete_words weightspace grade --source s)" "synth"
check "$(complete_words weightspace bench --memo a)" "auto always"
check "$(complete_words weightspace batch --memo h)" "hits"
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
cat >"$folder/sweep.toml" <<'TOML'
name = "completion"
[[answers]]
name = "one"
paths = ["a.md"]
[grade]
games = ["breakout"]
episodes = [1]
TOML
printf '```edits\n```\n' >"$folder/a.md"
"$2" sweep "$folder/sweep.toml" --no-report --quiet >/dev/null
check "$(complete_words weightspace compare --db "$folder/weightspace.sqlite" l)" "latest"
check "$(complete_words weightspace compare --db "$folder/weightspace.sqlite" 1)" "1"
check "$(complete_words weightspace report --db="$folder/weightspace.sqlite" --baseline n)" "none"
echo "16 passed, 0 failed"
