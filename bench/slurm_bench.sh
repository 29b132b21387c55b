#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A sharded batch on this machine's own Slurm (tests/cluster/local_slurm.sh: one node, every
# core) against one process, over COUNT generated answers (bench/batch_set.py: five games, both
# sources, 10% bad inputs, 10% duplicates), REPEATS times:
#   * one process: weightspace batch --threads $(nproc), wall time;
#   * four array tasks of deploy/slurm/weightspace-array.sbatch, one CPU each: wall time from
#     sbatch to the last task's end (squeue), Slurm's own record of the tasks' start and end
#     (whole seconds), and each shard's grading time and steps;
#   * weightspace merge of the four shards, wall time.
# The merged output must equal the one-process output (timings aside); the script fails
# otherwise. Prints each repeat and the medians.
#
# usage: bench/slurm_bench.sh [COUNT] [EPISODES] [REPEATS]     (defaults 2000, 100, 3)
# Environment: WEIGHTSPACE (default build/release/apps/weightspace). Run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-2000}
episodes=${2:-100}
repeats=${3:-3}
weightspace=$(realpath "${WEIGHTSPACE:-build/release/apps/weightspace}")
[[ -x $weightspace ]] || { echo "build weightspace first (cmake --build --preset release)" >&2; exit 2; }
work=$(mktemp -d /tmp/weightspace-slurm-bench.XXXXXX)
chmod 755 "$work"
source tests/cluster/local_slurm.sh
trap 'local_slurm_stop; rm -rf "$work"' EXIT
local_slurm_start "$work/slurm"
python3 bench/batch_set.py "$work/set" "$count" 2026
export WEIGHTSPACE=$weightspace

for ((run = 1; run <= repeats; ++run)); do
  rm -rf "$work/out" "$work/logs"
  mkdir -p "$work/out" "$work/logs"
  t0=$EPOCHREALTIME
  "$weightspace" batch "$work/set/manifest.jsonl" --episodes "$episodes" --quiet --out "$work/one.jsonl"
  t1=$EPOCHREALTIME
  # Not --wait: sbatch polls at 2, 10, 42, 74... s, which would be the figure. squeue is asked
  # five times a second instead.
  job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --output="$work/logs/%a.log" \
    deploy/slurm/weightspace-array.sbatch "$work/out/grades.jsonl" "$work/set/manifest.jsonl" --episodes "$episodes")
  job=${job%%;*}
  while [[ -n $(squeue -h -j "$job" -o %i 2>/dev/null) ]]; do sleep 0.2; done
  t2=$EPOCHREALTIME
  # The tasks' own start and end (whole seconds; completed jobs stay known for MinJobAge).
  scontrol -o show job "$job" > "$work/tasks.txt"
  "$weightspace" merge --quiet --out "$work/merged.jsonl" "$work"/out/grades.shard-*-of-4.jsonl
  t3=$EPOCHREALTIME
  python3 - "$work" "$run" "$t0" "$t1" "$t2" "$t3" <<'PY'
import datetime, json, os, re, sys
work, run = sys.argv[1], sys.argv[2]
t0, t1, t2, t3 = map(float, sys.argv[3:7])
one, array, merge = t1 - t0, t2 - t1, t3 - t2
moment = lambda text: datetime.datetime.fromisoformat(text).timestamp()
tasks = [dict(field.split("=", 1) for field in line.split() if "=" in field) for line in open(os.path.join(work, "tasks.txt"))]
first_start = min(moment(task["StartTime"]) for task in tasks)
submitted = min(moment(task["SubmitTime"]) for task in tasks)
last_end = max(moment(task["EndTime"]) for task in tasks)
strip = lambda path: [re.sub(r', "seconds": [0-9.]+', "", line) for line in open(path)]
assert strip(os.path.join(work, "merged.jsonl")) == strip(os.path.join(work, "one.jsonl")), "merge != one process"
steps, seconds, records = [], [], []
for index in range(4):
    lines = [json.loads(l) for l in open(os.path.join(work, "out", f"grades.shard-{index}-of-4.jsonl"))]
    steps.append(sum(l["steps"] for l in lines if not l["cached"]))  # a cached record plays nothing
    records.append(len(lines))
    log = open(os.path.join(work, "logs", f"{index}.log")).read()
    seconds.append(float(re.search(r"graded in ([0-9.]+) s", log).group(1)))
mean = lambda values: sum(values) / len(values)
print(json.dumps({"run": int(run), "records": sum(records), "one_process_s": round(one, 2), "array_s": round(array, 2),
                  "submit_to_first_start_s": first_start - submitted,
                  "tasks_first_start_to_last_end_s": last_end - first_start,
                  "merge_s": round(merge, 3), "shard_records": records, "shard_steps": steps,
                  "steps_max_over_mean": round(max(steps) / mean(steps), 4), "shard_seconds": seconds,
                  "seconds_max_over_mean": round(max(seconds) / mean(seconds), 4)}))
PY
done | tee "$work/runs.jsonl"
python3 - "$work/runs.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
median = lambda key: statistics.median(run[key] for run in runs)
print(f"medians of {len(runs)} runs: one process {median('one_process_s'):.2f} s, 4 array tasks "
      f"{median('array_s'):.2f} s (submit to the last task's end; Slurm's record: submit to first start "
      f"{median('submit_to_first_start_s'):.0f} s, first start to last end "
      f"{median('tasks_first_start_to_last_end_s'):.0f} s), merge {median('merge_s'):.3f} s, steps max/mean "
      f"{median('steps_max_over_mean'):.4f}, shard seconds max/mean {median('seconds_max_over_mean'):.4f}")
PY
