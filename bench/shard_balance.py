# SPDX-License-Identifier: GPL-3.0-or-later
"""How evenly a sharded batch spreads its work, simulated for runs too large to grade here.

1. Grades ANSWERS hand-written-like answers (bench/batch_set.py: five games, both sources,
   10% bad inputs) with `weightspace batch --episodes 10 --cache 0`, and prints each game's
   and source's mean steps per episode: the typical_episode_steps of each game's registration
   (games/registry.hpp), from which record_work() (apps/cluster/shard.cpp) estimates a record's work.
2. Checks that this script's copy of weightspace's deal (record_work and ShardBalancer)
   gives every record of a manifest the shard `weightspace batch --dry-run` gives it.
3. Simulates RECORDS records (episodes 1000 each, the grader's default) in three input orders
   (shuffled; grouped by game, as a manifest sorted by game; periodic, as batch_set.py cycles
   through the games) dealt to each shard count four ways: contiguous blocks, round-robin by
   position, a hash of the record id, and weightspace's deal; plus the same greedy deal given
   each record's true work, which no scheduler knows beforehand. A record's true work is its
   episodes times the mean episode length of a graded answer of its game and source, drawn at
   random from step 1's answers. Prints max/mean of the shards' steps (1.000 is perfect).

usage: python3 bench/shard_balance.py WEIGHTSPACE [--answers 5000] [--records 1000000]
                                      [--shards 64,1024] [--seed 1]
"""
import argparse
import collections
import hashlib
import heapq
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# A copy of apps/cluster/shard.cpp's record_work() and games/registry.hpp's typical_episode_steps; step 2
# checks it against the binary.
MEANS = {"asterix": (91, 140), "breakout": (11, 29), "freeway": (2501, 2000), "seaquest": (410, 386),
         "space_invaders": (51, 79)}
PARSE = 400
GAMES = tuple(MEANS)


def record_work(game, source, episodes):
    played = min(max(episodes, 0), 1 << 32)
    mean = MEANS.get(game)
    return PARSE + played * mean[source == "synth"] if mean else PARSE


def deal(works, count):
    """weightspace's ShardBalancer: each record to the least-loaded shard, lowest index on a tie."""
    heap = [(0, shard) for shard in range(count)]
    shards = []
    for work in works:
        load, shard = heapq.heappop(heap)
        shards.append(shard)
        heapq.heappush(heap, (load + work, shard))
    return shards


def measure(weightspace, answers, seed, folder):
    subprocess.run([sys.executable, os.path.join(HERE, "batch_set.py"), folder, str(answers), str(seed)], check=True)
    out = os.path.join(folder, "graded.jsonl")
    subprocess.run([weightspace, "batch", os.path.join(folder, "manifest.jsonl"), "--episodes", "10", "--cache", "0",
                    "--quiet", "--no-timings", "--out", out], check=True)
    lengths = collections.defaultdict(list)
    failed = 0
    with open(out, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record["reward"]["parse_success"] == 1.0:
                lengths[(record["game"], record["source"])].append(record["reward"]["mean_episode_length"])
            else:
                failed += 1
    print(f"## Mean steps per episode of {answers} hand-written-like answers (10 episodes each)\n")
    print("| game | source | answers | mean | median | 90th percentile |\n|---|---|---|---|---|---|")
    for (game, source), values in sorted(lengths.items()):
        values.sort()
        print(f"| {game} | {source} | {len(values)} | {statistics.mean(values):.1f} | {statistics.median(values):.1f} "
              f"| {values[len(values) * 9 // 10]:.1f} |")
    print(f"\n{failed} of {failed + sum(map(len, lengths.values()))} records did not parse.\n")
    return lengths, failed / (failed + sum(map(len, lengths.values())))


def check_deal(weightspace, folder, count=5):
    manifest = os.path.join(folder, "manifest.jsonl")
    expected = {}
    for index in range(count):
        result = subprocess.run([weightspace, "batch", manifest, "--episodes", "1000", "--dry-run", "--shard-index",
                                 str(index), "--shard-count", str(count)], capture_output=True, text=True, check=True)
        for line in result.stdout.splitlines()[1:-1]:
            record = json.loads(line)
            expected[record["position"]] = (index, record["work"])
    records = [json.loads(line) for line in open(manifest, encoding="utf-8")]
    works = [record_work(r["game"], r["source"], 1000) for r in records]
    got = dict(enumerate(zip(deal(works, count), works)))
    assert got == expected, "this script's deal is not weightspace's: update MEANS / PARSE from games/registry.hpp / apps/cluster/shard.cpp"
    print(f"The deal here equals `weightspace batch --dry-run` on all {len(records)} records of the set "
          f"({count} shards).\n")


def simulate(lengths, failure_rate, records, shard_counts, rng):
    # As bench/batch_set.py writes them: sources alternate, games cycle every ten records.
    population = [(GAMES[(k // 2) % len(GAMES)], "synth" if k % 2 else "original") for k in range(records)]
    orders = {
        "shuffled": rng.sample(population, len(population)),
        "grouped by game": sorted(population),
        "periodic (batch_set.py)": population,
    }
    print(f"## Simulated balance: {records:,} records, 1000 episodes each; max/mean of the shards' steps\n")
    print("| input order | shards | contiguous | round-robin | hash of id | weightspace | greedy on true work |")
    print("|---|---|---|---|---|---|---|")
    for order_name, order in orders.items():
        estimated, true, ids = [], [], []
        for k, (game, source) in enumerate(order):
            estimated.append(record_work(game, source, 1000))
            if rng.random() < failure_rate:
                true.append(0)  # a failed parse plays nothing
            else:
                true.append(round(1000 * rng.choice(lengths[(game, source)])))
            ids.append(f"r{k}")
        hashes = [int.from_bytes(hashlib.sha256(i.encode()).digest()[:8], "little") for i in ids]
        for count in shard_counts:
            n = len(order)
            strategies = {
                "contiguous": [k * count // n for k in range(n)],
                "round-robin": [k % count for k in range(n)],
                "hash": [h % count for h in hashes],
                "weightspace": deal(estimated, count),
                "oracle": deal(true, count),
            }
            cells = []
            for shards in strategies.values():
                load = [0] * count
                for shard, work in zip(shards, true):
                    load[shard] += work
                cells.append(f"{max(load) / (sum(load) / count):.3f}")
            print(f"| {order_name} | {count} | " + " | ".join(cells) + " |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weightspace")
    parser.add_argument("--answers", type=int, default=5000)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--shards", default="64,1024")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lengths, failure_rate = measure(args.weightspace, args.answers, args.seed, folder)
        check_deal(args.weightspace, folder)
    simulate(lengths, failure_rate, args.records, [int(n) for n in args.shards.split(",")], random.Random(args.seed))


if __name__ == "__main__":
    main()
