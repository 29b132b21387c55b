#!/usr/bin/env bash
# Before and after on a noisy machine: `weightspace bench` of two builds on the same answers,
# the two binaries alternated round by round, so that a slow minute hits both. Prints each
# round's median policy-steps/s (M/s) per binary, then the median of the rounds and the ratio.
#
# usage: bench/compare_builds.sh BEFORE_BINARY AFTER_BINARY [MEMO] [ROUNDS] [ANSWER.md ...]
#   MEMO      auto, always or never (bench --memo); default auto
#   ROUNDS    default 3; each round runs `bench --threads 1 --repetitions 7` once per binary
#   ANSWER.md default examples/answers/*.md and examples/answers/synth/*.md; the game is the
#             file name, the source synth when the path has a synth/ folder
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: bench/compare_builds.sh BEFORE_BINARY AFTER_BINARY [MEMO] [ROUNDS] [ANSWER.md ...]"
before=${1:?$usage}
after=${2:?$usage}
memo=${3:-auto}
rounds=${4:-3}
shift $(($# < 4 ? $# : 4))
answers=("$@")
if ((${#answers[@]} == 0)); then answers=(examples/answers/*.md examples/answers/synth/*.md); fi
for binary in "$before" "$after"; do
  [[ -x $binary ]] || { echo "$binary: not an executable" >&2; exit 2; }
done
[[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "ROUNDS must be 1-99" >&2; exit 2; }

median_rate() {  # Google Benchmark JSON on stdin -> "M steps/s of the median repetition, memo hit share"
  python3 -c '
import json, sys
runs = json.load(sys.stdin)["benchmarks"]
median = next(run for run in runs if run.get("aggregate_name") == "median")
rate, hits = median["items_per_second"] / 1e6, median.get("memo_hits", 0.0)
print(f"{rate:.2f} {hits:.3f}")'
}

printf '%-24s %-6s %-30s %-30s %7s %7s %6s\n' answer hits "before rounds" "after rounds" before after ratio
for answer in "${answers[@]}"; do
  game=$(basename "$answer" .md)
  source=original
  [[ $answer == */synth/* ]] && source=synth
  rates=([0]="" [1]="")
  hits=""
  for ((round = 0; round < rounds; ++round)); do
    side=0
    for binary in "$before" "$after"; do
      read -r rate hits < <("$binary" bench --game "$game" --source "$source" --answer "$answer" --threads 1 \
        --repetitions 7 --memo "$memo" --json - | median_rate)
      rates[side]+="$rate "
      side=$((side + 1))
    done
  done
  python3 - "$source/$game" "$hits" "${rates[0]}" "${rates[1]}" <<'EOF'
import statistics, sys
name, hits, before, after = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
b, a = statistics.median(map(float, before)), statistics.median(map(float, after))
print(f"{name:24s} {hits:6s} {' '.join(before):30s} {' '.join(after):30s} {b:7.2f} {a:7.2f} {a / b:5.2f}x")
EOF
done
