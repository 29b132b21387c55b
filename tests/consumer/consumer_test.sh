#!/usr/bin/env bash
# Installs the build into a scratch prefix, builds tests/consumer against it with
# find_package(weightspace), and checks that it grades a golden answer to the golden reward.
# usage: consumer_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/tests/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
python3 - "$work/build/consumer" "$source/tests/golden/grades.json" <<'PY'
import json, subprocess, sys, tempfile
consumer, golden = sys.argv[1:3]
cases = [c for c in json.load(open(golden))["cases"] if c["expected"] and c["expected"]["parse_success"] == 1.0][:3]
for case in cases:
    with tempfile.NamedTemporaryFile("w", suffix=".md") as answer:
        answer.write(case["answer"])
        answer.flush()
        out = subprocess.run([consumer, case["game"], case["source"], str(case["episodes"]), answer.name],
                             capture_output=True, text=True, check=True).stdout.rstrip("\n")
    assert out == case["expected_reward_json"], (case["id"], out)
    print(f"{case['id']}: the installed library gives the golden reward.json")
print(f"{len(cases)} passed, 0 failed")
PY
