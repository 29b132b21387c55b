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
echo "5 passed, 0 failed"
