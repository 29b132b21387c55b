#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds weightspace, and grades the bundled example
# answers on every game exactly as the Python grader would, with the grader's 1000 episodes,
# printing one row per game: examples/answers/<game>.md on the MinAtar originals and
# examples/answers/synth/<game>.md on the bundled synth games.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh build  # the tests' Chromium, Slurm and munge are not needed here
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target weightspace weightspace_python >/dev/null
weightspace=build/release/apps/weightspace
episodes=${WEIGHTSPACE_EPISODES:-1000}

field() {  # field NAME JSON: one value of the flat reward JSON
  sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" <<<"$2"
}

printf '%-24s %10s %20s %12s %6s %8s\n' game raw_score normalized_score mean_length edits seconds
for answer in examples/answers/*.md examples/answers/synth/*.md; do
  game=$(basename "$answer" .md)
  source=original
  if [[ $answer == */synth/* ]]; then source=synth; fi
  start=$(date +%s.%N)
  reward=$("$weightspace" grade --game "$game" --source "$source" --episodes "$episodes" --answer "$answer")
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  if [[ $(field parse_success "$reward") != "1.0" ]]; then
    printf '%-24s rejected: %s\n' "$source/$game" "$(field error "$reward")"
    continue
  fi
  printf '%-24s %10s %20s %12s %6s %8s\n' "$source/$game" "$(field raw_score "$reward")" \
    "$(field normalized_score "$reward")" "$(field mean_episode_length "$reward")" \
    "$(field edit_count "$reward")" "$seconds"
done
echo "(each row is the exact reward.json of verify.py for that answer; $episodes episodes)"

# The same grade in-process from Python (the module is in build/release/python).
PYTHONPATH=build/release/python /usr/bin/python3 -c "import weightspace
score, metadata = weightspace.grade_answer('breakout', 'original', open('examples/answers/breakout.md').read(), $episodes)
print('python: weightspace.grade_answer(\'breakout\', ...) ->', score, metadata['raw_score'])"
