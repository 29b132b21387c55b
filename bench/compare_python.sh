#!/usr/bin/env bash
# Side by side: grade the same answers with the Python grader and with weightspace, check that
# the two reward JSON texts are identical, and print both times and the speed ratio.
#
# usage: bench/compare_python.sh MINATAR_CHECKOUT [EPISODES] [THREADS] [ANSWER.md ...]
#   MINATAR_CHECKOUT  a kenjyoung/MinAtar checkout (the folder holding minatar/)
#   EPISODES          default 1000, as the grader
#   THREADS           weightspace threads, default 1 (a per-core comparison)
#   ANSWER.md         default examples/answers/*.md and examples/answers/synth/*.md; the game is
#                     the file name (breakout.md), the source synth when the path has a synth/ folder
#
# Batch mode: bench/compare_python.sh --batch MINATAR_CHECKOUT [--episodes N] [--python-episodes N]
#   [--random N] [--seed S] [--runs N] [--baseline FILE] [--pin CPUS] [--clock cpu|wall] [--before BINARY]
#   [--min-seconds S]
#   policy-steps/s of the Python grader against `weightspace batch --threads 1 --cache 0`, per game
#   and source, for the example answers and random hand-written-like answers, the ratios and their
#   geometric mean, start-up paid once (answers graded 2k times less k times, over k; k copies
#   taking >= --min-seconds) and by whole processes;
#   --baseline FILE saves the slow Python side once (bench/compare_python_batch.py).
# Environment: PYTHON (default /usr/bin/python3, Debian's python3-numpy 1.24),
#              VERIFY_DIR (default ../shared/seed), WEIGHTSPACE (default build/release/apps/weightspace)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --batch ]]; then
  shift
  [[ -x ${WEIGHTSPACE:-build/release/apps/weightspace} ]] || { echo "build weightspace first" >&2; exit 2; }
  exec "${PYTHON:-/usr/bin/python3}" bench/compare_python_batch.py "$@"
fi

minatar=${1:?usage: bench/compare_python.sh MINATAR_CHECKOUT [EPISODES] [THREADS] [ANSWER.md ...]}
episodes=${2:-1000}
threads=${3:-1}
shift $(($# < 3 ? $# : 3))
answers=("$@")
if ((${#answers[@]} == 0)); then answers=(examples/answers/*.md examples/answers/synth/*.md); fi
python=${PYTHON:-/usr/bin/python3}
verify_dir=${VERIFY_DIR:-../shared/seed}
weightspace=${WEIGHTSPACE:-build/release/apps/weightspace}
[[ -x $weightspace ]] || { echo "build weightspace first (scripts/examples.sh or cmake --build --preset release)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-24s %10s %12s %12s %10s  %s\n' game steps python_s weightspace_s ratio reward_json
ratios=()
status=0
for answer in "${answers[@]}"; do
  game=$(basename "$answer" .md)
  source=original
  if [[ $answer == */synth/* ]]; then source=synth; fi
  PYTHONPATH="$minatar:tools" "$python" bench/python_grade.py "$verify_dir" "$source" "$game" "$episodes" "$answer" \
    >"$work/python.json" 2>"$work/python.time"
  python_seconds=$(tail -n 1 "$work/python.time" | cut -d' ' -f1)
  # weightspace: best of 5 runs of the whole command (process start included)
  best=""
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$weightspace" grade --game "$game" --source "$source" --episodes "$episodes" --threads "$threads" --answer "$answer" \
      --episodes-out "$work/episodes.jsonl" >"$work/weightspace.json"
    elapsed=$(( $(date +%s%N) - start ))
    if [[ -z $best || $elapsed -lt $best ]]; then best=$elapsed; fi
  done
  weightspace_seconds=$(awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }')
  steps=$(awk -F'"length":' '{ split($2, a, "}"); total += a[1] } END { print total }' "$work/episodes.jsonl")
  if cmp -s "$work/python.json" "$work/weightspace.json"; then same="identical"; else same="DIFFERENT"; status=1; fi
  ratio=$(awk -v p="$python_seconds" -v w="$weightspace_seconds" 'BEGIN { printf "%.0f", p / w }')
  ratios+=("$ratio")
  printf '%-24s %10s %12s %12s %9sx  %s\n' "$source/$game" "$steps" "$python_seconds" "$weightspace_seconds" "$ratio" "$same"
  if [[ $same != identical ]]; then
    echo "  python:      $(cat "$work/python.json")"
    echo "  weightspace: $(cat "$work/weightspace.json")"
  fi
done
awk -v list="${ratios[*]}" 'BEGIN { n = split(list, r, " "); s = 0; for (i = 1; i <= n; i++) s += log(r[i]); printf "geometric mean speed-up: %.0fx over %d answers\n", exp(s / n), n }'
exit $status
