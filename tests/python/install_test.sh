#!/usr/bin/env bash
# The two ways the README installs the Python module, each then imported from another folder
# and checked against the CLI on an example answer:
#   cmake --install BUILD --component python --prefix P   (P/lib/python3.X/dist-packages)
#   pip install --no-build-isolation .                    (Debian's pip, into a throw-away venv
#                                                          that sees Debian's numpy; no index)
# usage: install_test.sh PYTHON BUILD_DIR SOURCE_DIR INSTALL_SUBDIR WEIGHTSPACE_BINARY
set -euo pipefail
python=$1 build=$2 source=$3 subdir=$4 weightspace=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
answer=$source/examples/answers/seaquest.md
expected=$("$weightspace" grade --game seaquest --episodes 200 --answer "$answer")
check() {  # interpreter, label
  local got
  got=$(cd "$work" && "$1" -c "import json, sys, weightspace
assert weightspace.__file__.startswith(sys.argv[2]), weightspace.__file__
s, m = weightspace.grade_answer('seaquest', 'original', open(sys.argv[1]).read(), 200)
print(json.dumps({'normalized_score': s, **m}))" "$answer" "$3")
  [[ $got == "$expected" ]] || { echo "$2: $got != $expected" >&2; exit 1; }
  echo "$2: ok"
}
cmake --install "$build" --component python --prefix "$work/prefix" >/dev/null
PYTHONPATH=$work/prefix/$subdir check "$python" "cmake --install" "$work/prefix/$subdir"
"$python" -m venv --system-site-packages "$work/venv"
mkdir "$work/src"
tar -C "$source" --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$work/src"
(cd "$work/src" && "$work/venv/bin/python" -m pip install --no-build-isolation --no-index -q . >"$work/pip.log" 2>&1) ||
  { cat "$work/pip.log" >&2; exit 1; }
check "$work/venv/bin/python" "pip install --no-build-isolation ." "$work/venv"
echo "2 passed, 0 failed"
