#!/usr/bin/env bash
# `weightspace sweep` against the bare batch engine on the same records: the bundled example
# answers plus COUNT generated hand-written-like answers (bench/random_answers.py), on all five
# games and both sources, EPISODES episodes each.
#   * REPEATS times, alternating: the sweep (--no-report, no [speed] part: the main pass and its
#     database writes) and the four `weightspace batch --out` runs it stands for (2 answer
#     sets x 2 sources, in one shell); wall and CPU (user + system) times, their medians, and
#     the overhead of the sweep over the batch (CPU time is the steadier on a shared machine).
#   * Once more with the report: wall time, records/s, database size, report size, and (when
#     NODE_PATH finds puppeteer-core, see tests/report/check_report.js) the report's load time
#     in headless Chromium.
# The sweep's rewards must equal the batch lines'; the script fails otherwise.
#
# usage: bench/sweep_bench.sh [COUNT] [EPISODES] [REPEATS]     (defaults 1000, 100, 5)
# Environment: WEIGHTSPACE (default build/release/apps/weightspace), NODE_PATH, CHROMIUM
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
episodes=${2:-100}
repeats=${3:-5}
weightspace=$(realpath "${WEIGHTSPACE:-build/release/apps/weightspace}")
[[ -x $weightspace ]] || { echo "build weightspace first (cmake --build --preset release)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r examples/answers "$work/examples"
python3 - "$work/generated" "$count" <<'PY'
import os, random, sys
sys.path.insert(0, "bench")
from random_answers import answer
out, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(2026)
os.makedirs(out)
for k in range(count):
    with open(os.path.join(out, f"{k:05d}.md"), "w", encoding="utf-8") as f:
        f.write(answer(rng))
PY
games='"asterix", "breakout", "freeway", "seaquest", "space_invaders"'
cat > "$work/nightly.toml" <<EOF
name = "bench"
[[answers]]
name = "examples"
paths = ["examples/"]
[[answers]]
name = "generated"
paths = ["generated/"]
[grade]
games = [$games]
sources = ["original", "synth"]
episodes = [$episodes]
EOF

batches() {  # what the sweep grades, as the batch command grades it
  for set in examples generated; do
    for source in original synth; do
      "$weightspace" batch "$set/" --game asterix,breakout,freeway,seaquest,space_invaders --source "$source" \
        --episodes "$episodes" --quiet --out "out-$set-$source.jsonl"
    done
  done
}
export -f batches
export weightspace episodes
seconds() { /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > /dev/null && cat "$work/time"; }  # wall, user, system
repo=$(pwd)
cd "$work"
: > sweep.times
: > batch.times
for ((i = 0; i < repeats; ++i)); do
  rm -f bench.sqlite*
  seconds "$weightspace" sweep nightly.toml --db bench.sqlite --no-report --quiet >> sweep.times
  seconds bash -c batches >> batch.times
done
rm -f bench.sqlite*
seconds "$weightspace" sweep nightly.toml --db bench.sqlite --report report.html --quiet > full.time
python3 - "$repeats" <<'PY'
import json, os, sqlite3, statistics, sys
repeats = int(sys.argv[1])
def times(name):  # wall and CPU (user + system) seconds of each run
    rows = [[float(x) for x in line.split()] for line in open(name)]
    return [r[0] for r in rows], [r[1] + r[2] for r in rows]
sweep, sweep_cpu = times("sweep.times")
batch, batch_cpu = times("batch.times")
lines = []
for name in ("examples", "generated"):
    for source in ("original", "synth"):
        lines += [json.loads(line) for line in open(f"out-{name}-{source}.jsonl")]
connection = sqlite3.connect("bench.sqlite")
stored = connection.execute("SELECT reward, id FROM records WHERE run_id = 1 ORDER BY seq").fetchall()
[(steps, grade_seconds)] = connection.execute("SELECT grade_steps, grade_seconds FROM runs WHERE id = 1").fetchall()
connection.close()
assert [r for r, _ in stored] == [json.dumps(line["reward"]) for line in lines], "the sweep and the batch disagree"
full = float(open("full.time").read().split()[0])
print(f"{len(stored)} records, {steps} steps played; {repeats} runs each, alternating")
print(f"sweep --no-report wall s: {' '.join(f'{t:.2f}' for t in sweep)}  median {statistics.median(sweep):.2f}")
print(f"4 batch runs wall s:      {' '.join(f'{t:.2f}' for t in batch)}  median {statistics.median(batch):.2f}")
print(f"sweep --no-report CPU s:  {' '.join(f'{t:.2f}' for t in sweep_cpu)}  median {statistics.median(sweep_cpu):.2f}")
print(f"4 batch runs CPU s:       {' '.join(f'{t:.2f}' for t in batch_cpu)}  median {statistics.median(batch_cpu):.2f}")
print(f"sweep overhead over the batch (medians): wall {100 * (statistics.median(sweep) / statistics.median(batch) - 1):+.1f}%, "
      f"CPU {100 * (statistics.median(sweep_cpu) / statistics.median(batch_cpu) - 1):+.1f}%")
print(f"sweep with its report: {full:.2f} s wall, {len(stored) / full:.1f} records/s, "
      f"main pass {steps / grade_seconds / 1e6:.2f} M steps/s")
print(f"database {os.path.getsize('bench.sqlite') / 1e6:.2f} MB, report {os.path.getsize('report.html') / 1e6:.2f} MB")
PY
if [[ -n ${NODE_PATH:-} ]]; then
  records=$(python3 -c "import sqlite3; print(sqlite3.connect('bench.sqlite').execute('SELECT COUNT(*) FROM records').fetchone()[0])")
  node "$repo/tests/report/check_report.js" report.html --records "$records" --no-regressions \
    --chromium "${CHROMIUM:-/usr/bin/chromium}"
fi
