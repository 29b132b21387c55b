#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` from the build, its Depends (from dpkg-shlibdeps) resolved
# by apt on this Debian 12 (simulated), its files, and the installed binary and Python module,
# unpacked into a scratch root, grading an example answer as the build does.
# usage: deb_test.sh BUILD_DIR SOURCE_DIR PYTHON
set -euo pipefail
build=$1 source=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/package" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log" >&2; exit 1; }
deb=$(ls "$work"/package/weightspace_*.deb)
depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
for library in libtbb libnettle libutf8proc libstdc++ python3-numpy libcpp-httplib; do
  [[ $depends == *"$library"* ]] || { echo "Depends lacks $library" >&2; exit 1; }
done
apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; exit 1; }
grep -q "^Inst weightspace" "$work/apt.log" || { cat "$work/apt.log" >&2; exit 1; }
contents=$(dpkg-deb --contents "$deb")
for file in ./usr/bin/weightspace ./usr/share/man/man1/weightspace.1 ./usr/share/bash-completion/completions/weightspace \
    ./usr/lib/cmake/weightspace/weightspaceConfig.cmake ./usr/include/weightspace/grade.hpp \
    ./usr/share/doc/weightspace/LICENSE ./usr/libexec/weightspace/weightspace-serve; do
  grep -q " $file\$" <<<"$contents" || { echo "the package lacks $file" >&2; exit 1; }
done
# Only the public headers: the engine's own (oneTBB, intrinsics) stay out of the package.
if grep -E " \./usr/include/weightspace/.+/" <<<"$contents"; then echo "internal headers are packaged" >&2; exit 1; fi
grep -q "/usr/lib/python3[^/]*/dist-packages/weightspace/_native" <<<"$contents" || { echo "no Python module" >&2; exit 1; }
dpkg-deb -x "$deb" "$work/root"
answer=$source/examples/answers/seaquest.md
expected=$("$build/apps/weightspace" grade --game seaquest --episodes 100 "$answer")
[[ $("$work/root/usr/bin/weightspace" grade --game seaquest --episodes 100 "$answer") == "$expected" ]]
# `weightspace serve` finds the installed weightspace-serve (../libexec/weightspace from bin/).
"$work/root/usr/bin/weightspace" serve --port 0 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" && break; sleep 0.1; done
kill -TERM "$server"
wait "$server" || { cat "$work/serve.log" >&2; exit 1; }
grep -q "serving on http://127.0.0.1:" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
echo "installed binary: ok"
site=$(cd "$work/root" && ls -d usr/lib/python3*/dist-packages)
got=$(cd "$work" && PYTHONPATH=$work/root/$site "$python" -c "import json, sys, weightspace
s, m = weightspace.grade_answer('seaquest', 'original', open(sys.argv[1]).read(), 100)
print(json.dumps({'normalized_score': s, **m}))" "$answer")
[[ $got == "$expected" ]]
echo "installed Python module: ok"
echo "2 passed, 0 failed"
