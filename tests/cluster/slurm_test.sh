#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A sharded batch on a real Slurm (this machine as a one-node cluster, tests/cluster/
# local_slurm.sh), through the recipe users run, deploy/slurm/weightspace-array.sbatch:
#   1. sbatch --array=0-3 --wait over generated answers; array task 2 is killed (scancel)
#      after its first records;
#   2. merge refuses, naming shard 2 and --resume;
#   3. task 2 alone is resubmitted and goes on from its last record;
#   4. the merge is byte for byte a one-process run of the same inputs.
# Daemons that cannot start fail the test with their own logs. Everything is torn down on exit.
#
# usage: tests/cluster/slurm_test.sh WEIGHTSPACE_BINARY SOURCE_DIR
set -euo pipefail
weightspace=$(realpath "$1")
source_dir=$(realpath "$2")
work=$(mktemp -d /tmp/weightspace-slurm.XXXXXX)
chmod 755 "$work"  # munged serves its socket only from folders everyone may search
source "$source_dir/tests/cluster/local_slurm.sh"
cleanup() {
  local_slurm_stop
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  for log in "$work"/logs/*.log; do
    [[ -f $log ]] && { echo "--- $log" >&2; tail -n 5 "$log" >&2; }
  done
  exit 1
}

local_slurm_start "$work/slurm"
echo "local Slurm up: $(sinfo -h -o '%P %D node(s), %c CPUs, %T')"

# 150 answers over the five games (with bad inputs and duplicates: 180 records), 500 episodes
# each: a few seconds of work per shard, so that a task can be killed in the middle.
python3 "$source_dir/bench/batch_set.py" "$work/set" 150 19
options=("$work/set/manifest.jsonl" --episodes 500 --no-timings)
mkdir -p "$work/logs" "$work/out"
export WEIGHTSPACE=$weightspace
script=$source_dir/deploy/slurm/weightspace-array.sbatch
shard() { echo "$work/out/grades.shard-$1-of-4.jsonl"; }

# 1. The array, in the background so that task 2 can be cancelled while it runs.
sbatch --parsable --wait --array=0-3 --cpus-per-task=1 --output="$work/logs/%A_%a.log" \
  "$script" "$work/out/grades.jsonl" "${options[@]}" > "$work/array.id" 2>"$work/array.err" &
submitter=$!
for ((i = 0; i < 600; ++i)); do
  [[ -s $work/array.id && -f $(shard 2) ]] && (($(wc -l < "$(shard 2)") >= 2)) && break
  kill -0 "$submitter" 2>/dev/null || fail "the array ended before task 2 wrote its first records: $(cat "$work/array.err")"
  sleep 0.05
done
job=$(cut -d';' -f1 < "$work/array.id")
[[ -n $job ]] || fail "sbatch gave no job id: $(cat "$work/array.err")"
scancel "${job}_2"
killed_at=$(wc -l < "$(shard 2)")
status=0
wait "$submitter" || status=$?
((status != 0)) || fail "sbatch --wait reported success although task 2 was cancelled"
python3 - "$(shard 2).shard.json" <<'PY' || fail "task 2 was not cut short (it finished before scancel)"
import json, sys
sys.exit(1 if json.load(open(sys.argv[1]))["complete"] else 0)
PY
echo "array $job: task 2 cancelled after $killed_at records; sbatch --wait exited $status"

# 2. Merge refuses the unfinished shard and says how to finish it.
if "$weightspace" merge --out "$work/merged.jsonl" "$work"/out/grades.shard-*-of-4.jsonl 2>"$work/merge.err"; then
  fail "merge accepted an unfinished shard"
fi
grep -q "shard 2 of 4 (.*) did not finish: rerun it alone with --resume" "$work/merge.err" ||
  fail "merge did not name the shard to rerun: $(cat "$work/merge.err")"

# 3. Task 2 alone, as docs/cluster.md says; it continues the file it had written.
sbatch --parsable --wait --array=2 --cpus-per-task=1 --export=ALL,WEIGHTSPACE_SHARD_COUNT=4 \
  --output="$work/logs/rerun_%a.log" "$script" "$work/out/grades.jsonl" "${options[@]}" >/dev/null ||
  fail "the rerun of task 2 failed"
grep -q "resuming $(shard 2) after its [1-9][0-9]* records" "$work/logs/rerun_2.log" ||
  fail "the rerun did not resume: $(cat "$work/logs/rerun_2.log")"

# 4. The merge against one process.
"$weightspace" merge --out "$work/merged.jsonl" "$work"/out/grades.shard-*-of-4.jsonl
"$weightspace" batch "${options[@]}" --quiet --out "$work/one.jsonl"
cmp "$work/merged.jsonl" "$work/one.jsonl" || fail "the merged output differs from the one-process run"
echo "PASS: $(wc -l < "$work/one.jsonl") records over 4 Slurm array tasks (task 2 killed at $killed_at and" \
  "resumed) merge into the one-process output byte for byte"
