#!/usr/bin/env bash
# The batch grader on a generated set of hand-written-like answers (bench/batch_set.py: COUNT
# answers over five games and both sources, plus 10% bad inputs and 10% duplicates), against
# the same grades run one process each: wall time, grades/s, M steps/s and peak RSS of
#   1. weightspace batch --threads 1
#   2. weightspace batch --threads 2
#   3. a shell loop of `weightspace grade --threads 1 --diagnostics` over the same records; the
#      sum of the engine times those grades log is the "engine time" the batch is held to.
# The two batch outputs (timings aside) must be identical, and every loop reward must equal
# the batch's; the script fails otherwise.
#
# usage: bench/batch_bench.sh [COUNT] [EPISODES] [SEED]     (defaults 2000, 1000, 2026)
# Environment: WEIGHTSPACE (default build/release/apps/weightspace)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-2000}
episodes=${2:-1000}
seed=${3:-2026}
weightspace=${WEIGHTSPACE:-build/release/apps/weightspace}
[[ -x $weightspace ]] || { echo "build weightspace first (cmake --build --preset release)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/batch_set.py "$work" "$count" "$seed"
records=$(wc -l < "$work/manifest.jsonl")

run() {  # name, args...: one timed run, its wall seconds and peak RSS in KB into $work/name.time
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@"
}
run t1 "$weightspace" batch "$work/manifest.jsonl" --episodes "$episodes" --threads 1 --quiet --out "$work/t1.jsonl"
run t2 "$weightspace" batch "$work/manifest.jsonl" --episodes "$episodes" --threads 2 --quiet --out "$work/t2.jsonl"

# The loop grades exactly the records of the manifest, one process each.
python3 - "$work" > "$work/loop.args" <<'PY'
import json, os, sys
work = sys.argv[1]
for line in open(os.path.join(work, "manifest.jsonl")):
    r = json.loads(line)
    print(r["game"], r["source"], os.path.join(work, r["answer_path"]))
PY
loop() {
  while read -r game source path; do
    "$weightspace" grade --game "$game" --source "$source" --episodes "$episodes" --threads 1 --diagnostics \
      --answer "$path" 2>>"$work/loop.log"
  done < "$work/loop.args" > "$work/loop.jsonl"
}
export -f loop
export weightspace episodes work
run loop bash -c loop

python3 - "$work" "$records" <<'PY'
import json, os, re, sys
work, records = sys.argv[1], int(sys.argv[2])
def load(name):
    return [json.loads(line) for line in open(os.path.join(work, name))]
t1, t2 = load("t1.jsonl"), load("t2.jsonl")
strip = lambda rows: [{k: v for k, v in row.items() if k not in ("seconds",)} for row in rows]
assert strip(t1) == strip(t2), "thread counts disagree"
loop = [line.rstrip("\n") for line in open(os.path.join(work, "loop.jsonl"))]
assert [json.dumps(row["reward"]) for row in t1] == loop, "batch and grade disagree"
# One log event per grade, in order: its engine seconds, or 0 for a rejected answer.
events = []
for line in open(os.path.join(work, "loop.log")):
    if "answer rejected" in line:
        events.append(0.0)
    elif (m := re.search(r"steps in ([0-9.]+) s", line)):
        events.append(float(m.group(1)))
assert len(events) == records, (len(events), records)
engine = sum(events)
engine_distinct = sum(seconds for seconds, row in zip(events, t1) if not row["cached"])
steps = sum(row["steps"] for row in t1 if not row["cached"])
cached = sum(row["cached"] for row in t1)
failed = sum(row["reward"]["parse_success"] == 0.0 for row in t1)
print(f"{records} records ({failed} failed, {cached} cached), {steps} steps played")
print(f"{'run':<28} {'wall s':>8} {'grades/s':>9} {'M steps/s':>10} {'peak RSS MB':>12}")
times = {}
for name, label in (("t1", "batch --threads 1"), ("t2", "batch --threads 2"), ("loop", "grade loop --threads 1")):
    wall, rss = open(os.path.join(work, name + ".time")).read().split()[-2:]
    times[name] = float(wall)
    loop_steps = steps + sum(row["steps"] for row in t1 if row["cached"]) if name == "loop" else steps
    print(f"{label:<28} {float(wall):8.2f} {records / float(wall):9.1f} {loop_steps / float(wall) / 1e6:10.2f} {int(rss) / 1024:12.1f}")
print(f"engine time of the loop's grades (sum of --diagnostics): {engine:.2f} s, "
      f"{engine_distinct:.2f} s without the records the batch reuses")
print(f"batch --threads 1 / engine time of the grades it plays: {times['t1'] / engine_distinct:.3f}")
print(f"2 threads speed-up: {times['t1'] / times['t2']:.2f}x; loop / batch --threads 1: {times['loop'] / times['t1']:.2f}x")
PY
