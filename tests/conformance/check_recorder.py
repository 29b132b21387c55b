#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks tools/record_trace.py against the golden MinAtar traces.

For each original game, re-records a few golden episodes with the recorder (the random ones
with --controller random, a heuristic one by replaying its recorded actions with --actions)
and compares every field with tests/golden/games/<game>.json. Needs MinAtar's Python source
importable (PYTHONPATH) and numpy.

  check_recorder.py --recorder tools/record_trace.py --golden tests/golden/games --work DIR
"""

import argparse
import json
import os
import subprocess
import sys

# Episode ids re-recorded per game: 0 and 2 are random-controller episodes, 1 is heuristic
# (replayed from its actions), 12 is a random episode with difficulty ramping.
RANDOM_IDS = [0, 2]
ACTION_IDS = [1]
RAMPING_GAMES = {"asterix", "seaquest", "space_invaders"}
RAMPING_ID = 12
# Not produced by the recorder: a summary taken from MinAtar's internals.
SKIPPED_FIELDS = {"events"}


def golden_episode(golden, episode_id):
    for episode in golden["episodes"]:
        if episode["id"] == episode_id:
            return episode
    raise SystemExit(f"{golden['game']}: no golden episode {episode_id}")


def record(recorder, game, golden, episode_id, work, actions=None):
    episode = golden_episode(golden, episode_id)
    kwargs = {"env_name": game, "sticky_action_prob": episode["sticky_action_prob"],
              "difficulty_ramping": episode["difficulty_ramping"]}
    output = os.path.join(work, f"{game}_{episode_id}.json")
    command = [sys.executable, recorder, "--env", "minatar.Environment",
               "--env-kwargs", json.dumps(kwargs),
               "--channel-groups", json.dumps(golden["observation_channel_groups"]),
               "--episodes", "1", "--first-episode-id", str(episode_id),
               "--seed-base", str(episode["env_seed"] - episode_id),
               "--max-steps", str(episode["max_steps"]), "--output", output]
    if actions is None:
        command += ["--controller", "random", "--controller-seed-base",
                    str(episode["controller_seed"] - episode_id)]
    else:
        actions_path = os.path.join(work, f"{game}_{episode_id}.actions")
        with open(actions_path, "w", encoding="utf-8") as handle:
            handle.write(" ".join(str(a) for a in actions) + "\n")
        command += ["--actions", actions_path]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(output, encoding="utf-8") as handle:
        return json.load(handle), episode


def first_difference(expected, actual, path):
    """Path and values of the first differing leaf, or None. Types matter (0 vs 0.0 vs False)."""
    if type(expected) is not type(actual):
        return path, expected, actual
    if isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                return f"{path}.{key}", expected[key], "<missing>"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        extra = set(actual) - set(expected)
        return (f"{path}.{sorted(extra)[0]}", "<missing>", "<present>") if extra else None
    if isinstance(expected, list):
        for index, (left, right) in enumerate(zip(expected, actual)):
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path} length", len(expected), len(actual)
        return None
    return None if expected == actual else (path, expected, actual)


def compare(game, golden, trace, expected, replayed):
    failures = []
    header_keys = [key for key in golden if key != "episodes"]
    for key in header_keys:
        found = first_difference(golden[key], trace.get(key, "<missing>"), key)
        if found:
            failures.append(found)
    actual = trace["episodes"][0]
    skipped = set(SKIPPED_FIELDS)
    if replayed:
        skipped |= {"controller", "controller_seed"}
    expected = {k: v for k, v in expected.items() if k not in skipped}
    actual = {k: v for k, v in actual.items() if k not in skipped}
    found = first_difference(expected, actual, f"episode {expected['id']}")
    if found:
        failures.append(found)
    for path, want, got in failures:
        print(f"FAIL {game}: {path}: golden {str(want)[:200]} recorder {str(got)[:200]}")
    return not failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recorder", required=True)
    parser.add_argument("--golden", required=True, help="directory of the golden game traces")
    parser.add_argument("--work", required=True, help="scratch directory")
    parser.add_argument("--games", default="asterix,breakout,freeway,seaquest,space_invaders")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    checked = 0
    ok = True
    for game in arguments.games.split(","):
        with open(os.path.join(arguments.golden, f"{game}.json"), encoding="utf-8") as handle:
            golden = json.load(handle)
        ids = RANDOM_IDS + ([RAMPING_ID] if game in RAMPING_GAMES else [])
        runs = [(i, None) for i in ids]
        runs += [(i, [s[0] for s in golden_episode(golden, i)["steps"]]) for i in ACTION_IDS]
        for episode_id, actions in runs:
            trace, expected = record(arguments.recorder, game, golden, episode_id,
                                     arguments.work, actions)
            if compare(game, golden, trace, expected, actions is not None):
                print(f"ok   {game} episode {episode_id}: {expected['length']} steps")
            else:
                ok = False
            checked += 1
    print(f"{checked} episodes checked, {'all equal' if ok else 'DIFFERENCES'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
